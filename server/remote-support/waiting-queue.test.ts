/**
 * Issue 27, « La file d'attente », on one server process and both databases:
 * who reads the queue, what a waiting entry says (name, « depuis le
 * logiciel » or « depuis le site », the system, the conversation handed
 * over), that only customers who are there wait, each customer's place
 * (page and app), « Prendre en charge » raced by two technicians, its limit,
 * and the code that still works over the phone; issue 29: the app is told
 * the opening hours « Boutique » holds at each push. Across two processes:
 * `queue-cluster.test.ts`.
 */
import { pino } from "pino";
import request from "supertest";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DeviceSessionResponse } from "#app/remote-support/device-protocol.ts";
import { SESSION_MESSAGES, type SessionView } from "#app/remote-support/protocol.ts";
import { QUEUE_MESSAGES, type QueueSnapshot } from "#app/remote-support/queue.ts";
import { defaultShop } from "#app/config/shop.ts";
import { toIdentityInput } from "#app/config/shop-schema.ts";
import { createShopIdentityService, type ShopIdentityService } from "#server/shop/identity.ts";
import { assistantMessages, sessions } from "#database/schema.ts";
import { DATABASE_KINDS, emptyTables, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  connectSocket,
  createAccounts,
  startRemoteSupportServer,
  TEST_SESSION_OPTIONS,
  type RemoteSupportServer,
  type Role,
  type TestAccount,
  type TestSocket,
} from "#tests/support/remote-support.ts";
import { asAccount, PAIR_FIELDS, startAppSession, type DeviceClient } from "./device-testing.ts";
import { connectWaitingApp, placeOf, queueShowing } from "./queue-testing.ts";
import { withRealWait } from "./http.ts";

const WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36";
const ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Mobile";

describe.each(DATABASE_KINDS)("the waiting queue on %s", (kind) => {
  let database: TestDatabase;
  let server: RemoteSupportServer;
  let accounts: Record<Role, TestAccount>;
  let as: ReturnType<typeof asAccount>;
  /** Issue 29: the real identity service, polling off (one process), as `server/index.ts` hands it to realtime. */
  let identity: ShopIdentityService;
  const opened: (TestSocket | DeviceClient)[] = [];

  const browser = async (role: Role) => {
    const socket = await connectSocket(server.url, accounts[role].cookie);
    opened.push(socket);
    return socket;
  };
  /** A site session of `role`, opened from a browser saying `userAgent`. @returns its code. */
  const siteSession = async (role: Role, userAgent = WINDOWS) => {
    const created = await as(role, "post", "/api/sessions").set("User-Agent", userAgent).send({});
    expect(created.status).toBe(201);
    return (created.body.session as SessionView).code;
  };
  /** A session the app started, its app connected. */
  const appSession = async (customerName: string) => {
    const response = await startAppSession(server, { ...PAIR_FIELDS, platform: "windows", customerName });
    expect(response.status).toBe(201);
    const body = response.body as DeviceSessionResponse;
    const waiting = await connectWaitingApp(server.url, body.deviceToken);
    opened.push(waiting.app);
    return { code: body.sessionCode, app: waiting };
  };
  const queue = async (role: Role = "technician") =>
    (await as(role, "get", "/api/sessions/queue")).body as QueueSnapshot;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    identity = await createShopIdentityService({ db: database.db, logger: pino({ level: "silent" }), pollMs: 0 });
    server = await startRemoteSupportServer(database, { shop: identity });
    accounts = await createAccounts(server, database);
    as = asAccount(server, accounts);
  });
  beforeEach(async () => {
    await emptyTables(database.db);
  });
  afterEach(() => {
    for (const socket of opened.splice(0)) socket.close();
  });
  afterAll(async () => {
    identity?.close();
    await server?.close();
    await database?.dispose();
  });

  it("is read by technicians only, in French otherwise", async () => {
    const signedOut = await request(server.url).get("/api/sessions/queue");
    expect(signedOut.status).toBe(401);
    expect(signedOut.body).toEqual({ message: SESSION_MESSAGES.notSignedIn });
    const customer = await as("customer", "get", "/api/sessions/queue");
    expect(customer.status).toBe(403);
    expect(customer.body).toEqual({ message: SESSION_MESSAGES.technicianOnly });
    const technician = await as("technician", "get", "/api/sessions/queue");
    expect(technician.status).toBe(200);
    expect(technician.body).toEqual({ entries: [], at: expect.any(String) });
  });

  it("shows customers who are there, oldest first, live on every dashboard; each customer is told their place", async () => {
    const [camille, hugo] = await Promise.all([browser("technician"), browser("otherTechnician")]);
    const lea = await siteSession("customer");
    // Léa's page is not open: she is not waiting for anyone.
    expect((await queue()).entries).toEqual([]);

    const shown = Promise.all([camille, hugo].map((tech) => queueShowing(tech, ["Léa Martin"])));
    const leaPage = await browser("customer");
    const [snapshot] = await shown;
    expect(snapshot!.entries).toEqual([
      {
        code: lea,
        userName: "Léa Martin",
        origin: "site",
        system: "Windows",
        waitingSince: expect.any(String),
        conversationMessages: 0,
      },
    ]);
    // Two technicians have their dashboard open: about one typical session (15 min) ÷ 2, said in steps of 5 min.
    const alone = await as("customer", "get", `/api/sessions/${lea}/place`);
    expect(alone.body).toEqual({ place: { place: 1, total: 1, estimatedMinutes: 10 } });

    const both = queueShowing(camille, ["Léa Martin", "Marie"]);
    const told = placeOf(leaPage, lea, { place: 1, total: 2, estimatedMinutes: 10 });
    const { code: marie, app } = await appSession("Marie");
    const entries = (await both).entries;
    expect(entries[1]).toMatchObject({ code: marie, userName: "Marie", origin: "app", system: "Windows" });
    // The second place waits about two typical sessions ÷ 2 technicians.
    await app.place({ place: 2, total: 2, estimatedMinutes: 15 });
    await told;
    // Someone else's session is « Session non trouvée », as everywhere.
    const other = await as("otherCustomer", "get", `/api/sessions/${lea}/place`);
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ message: SESSION_MESSAGES.notFound });

    // Léa closes her page: once her absence outlasts a reload, she leaves the queue and Marie moves up.
    const left = queueShowing(hugo, ["Marie"]);
    leaPage.close();
    await left;
    await app.place({ place: 1, total: 1, estimatedMinutes: 10 });
  });

  it("« Prendre en charge »: of two technicians clicking at once one gets it, the other reads that it is taken", async () => {
    const [camille, hugo] = await Promise.all([browser("technician"), browser("otherTechnician")]);
    const shown = queueShowing(hugo, ["Marie", "Paul Durand"]);
    const { code: marie, app } = await appSession("Marie");
    const paul = await siteSession("otherCustomer", ANDROID);
    const paulPage = await browser("otherCustomer");
    expect((await shown).entries[1]).toMatchObject({ code: paul, system: "Android", origin: "site" });

    const gone = Promise.all([camille, hugo].map((tech) => queueShowing(tech, ["Paul Durand"])));
    const paulFirst = placeOf(paulPage, paul, { place: 1, total: 1, estimatedMinutes: 10 });
    const answers = await Promise.all(
      (["technician", "otherTechnician"] as const).map((role) => as(role, "post", `/api/sessions/${marie}/claim`)),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 409]);
    const winner = answers.find((answer) => answer.status === 200)!;
    const loser = answers.find((answer) => answer.status === 409)!;
    expect(winner.body.session).toMatchObject({ code: marie, status: "connected" });
    expect(loser.body).toEqual({ message: QUEUE_MESSAGES.taken });
    await gone;
    await paulFirst;
    await app.place(null);

    // The customer on the phone: his code still works in the join form, and the session leaves the queue.
    const empty = queueShowing(camille, []);
    const joined = await as("technician", "post", "/api/sessions/join").send({ code: paul.toLowerCase() });
    expect(joined.status).toBe(200);
    await empty;
    // Taken or ended, a session is no longer there to claim.
    expect((await as("otherTechnician", "post", `/api/sessions/${paul}/claim`)).body).toEqual({
      message: QUEUE_MESSAGES.taken,
    });
    await as("technician", "post", `/api/sessions/${paul}/disconnect`);
    const ended = await as("otherTechnician", "post", `/api/sessions/${paul}/claim`);
    expect(ended.status).toBe(410);
    expect(ended.body).toEqual({ message: QUEUE_MESSAGES.gone });
    expect((await as("customer", "post", `/api/sessions/${paul}/claim`)).status).toBe(403);
    expect((await as("technician", "post", "/api/sessions/NOPE!/claim")).status).toBe(400);
  });

  it("shows the assistant conversation handed over, to every technician while the customer waits only", async () => {
    const [{ id: userId }] = [accounts.customer];
    await database.db.insert(assistantMessages).values([
      { userId, role: "user", content: "Mon écran reste noir au démarrage.", createdAt: new Date(Date.now() - 60_000) },
      { userId, role: "assistant", content: "Un technicien peut regarder avec vous.", createdAt: new Date() },
    ]);
    const tech = await browser("technician");
    const shown = queueShowing(tech, ["Léa Martin"]);
    const handed = await as("customer", "post", "/api/sessions/from-assistant").set("User-Agent", WINDOWS).send({});
    expect(handed.status).toBe(201);
    const code = (handed.body.session as SessionView).code;
    await browser("customer");
    const entry = (await shown).entries[0];
    expect(entry).toMatchObject({ code, conversationMessages: 2, system: "Windows" });

    for (const role of ["technician", "otherTechnician"] as const) {
      const read = await as(role, "get", `/api/sessions/${code}/conversation`);
      expect(read.status).toBe(200);
      expect(read.body.conversation.map((message: { content: string }) => message.content)).toEqual([
        "Mon écran reste noir au démarrage.",
        "Un technicien peut regarder avec vous.",
      ]);
    }
    expect((await as("otherCustomer", "get", `/api/sessions/${code}/conversation`)).status).toBe(404);
    expect((await as("technician", "post", `/api/sessions/${code}/claim`)).status).toBe(200);
    // Once taken, it is the joined technician's and the customer's alone again.
    expect((await as("otherTechnician", "get", `/api/sessions/${code}/conversation`)).status).toBe(404);
    expect((await as("technician", "get", `/api/sessions/${code}/conversation`)).status).toBe(200);
  });

  it("records the system of an app that pairs with a site session", async () => {
    const code = await siteSession("customer", "curl/8.0");
    const [before] = await database.db.select().from(sessions);
    expect(before!.customerSystem).toBeNull();
    const pairing = await as("customer", "post", `/api/sessions/${code}/pairing`);
    const paired = await request(server.url)
      .post("/api/device/pair")
      .send({ ...PAIR_FIELDS, platform: "macos", pairingCode: pairing.body.pairingCode });
    expect(paired.status).toBe(201);
    const [after] = await database.db.select().from(sessions);
    expect(after!.customerSystem).toBe("macOS");
  });

  it("tells a waiting app the opening hours « Boutique » holds at each push, not the build's (issue 29)", async () => {
    const { app } = await appSession("Marie");
    await app.hours(defaultShop.openingHours);

    const saturdays = [{ days: [6], opens: "10:00", closes: "12:30", byAppointment: false }];
    const manager = accounts.technician.id;
    const updated = await identity.update({ ...toIdentityInput(defaultShop), openingHours: saturdays }, manager);
    expect(updated.ok).toBe(true);
    // Any change may move the queue, so each pushes it again: here a dashboard opening.
    await browser("technician");
    await app.hours(saturdays);
  });
});

describe("« Prendre en charge » is limited like a join", () => {
  // A server of its own with a join budget of 2, set up in hooks: on a busy machine, opening PGlite and
  // hashing four passwords alone took most of a test's 30 s (CI rehearsal).
  let database: TestDatabase;
  let server: RemoteSupportServer;
  let accounts: Record<Role, TestAccount>;
  beforeAll(async () => {
    database = await openTestDatabase("pglite");
    server = await startRemoteSupportServer(database, {
      sessionOptions: {
        ...TEST_SESSION_OPTIONS,
        limits: { ...TEST_SESSION_OPTIONS.limits, joins: { points: 2, durationSeconds: 600 } },
      },
    });
    accounts = await createAccounts(server, database);
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });

  it("counts every claim in the technician's join budget: 429 with Retry-After past it", async () => {
    const as = asAccount(server, accounts);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await as("technician", "post", "/api/sessions/ACDE34/claim")).status);
    expect(statuses).toEqual([404, 404, 429]);
    const limited = await as("technician", "post", "/api/sessions/ACDE34/claim");
    expect(limited.headers["retry-after"]).toMatch(/^\d+$/);
    expect(limited.body).toEqual({
      message: withRealWait(SESSION_MESSAGES.tooManyJoins, Number(limited.headers["retry-after"])),
    });
  });
});
