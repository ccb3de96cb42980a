/**
 * Issue 26, sessions the desktop app starts by itself (`POST /api/device/sessions`,
 * `app-sessions.ts`) on both databases: created already paired (no account),
 * the token works on `/device`, the technician joins with the usual route and
 * sees « Marie — depuis le logiciel » in the lists and the report, the app's
 * consent is the customer's, leaving ends the session, an unjoined code
 * expires, no other account ever sees or touches it, and bad bodies get a
 * French 400. The per-IP limit: `app-session-limits.test.ts`; accounts,
 * retention and the database's check: `app-session-data.test.ts`.
 */
import { eq, sql } from "drizzle-orm";
import request from "supertest";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEVICE_MESSAGES, type DeviceSessionResponse } from "#app/remote-support/device-protocol.ts";
import { SESSION_MESSAGES, type SessionEventView, type SessionView } from "#app/remote-support/protocol.ts";
import { UNTYPABLE_TEXT_MESSAGE } from "#app/utils/text.ts";
import { sessionDevices, sessionEvents, sessions } from "#database/schema.ts";
import { DATABASE_KINDS, emptyTables, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  connectSocket,
  createAccounts,
  nextEvent,
  pause,
  record,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type Role,
  type TestAccount,
  type TestSocket,
} from "#tests/support/remote-support.ts";
import {
  asAccount,
  connectDevice,
  nextDeviceEvent,
  PAIR_FIELDS,
  recordDevice,
  startAppSession,
  type DeviceClient,
} from "./device-testing.ts";
import { connectedSessions } from "./presence.ts";
import { APP_ACTOR_ID } from "./sessions.ts";

describe.each(DATABASE_KINDS)("sessions started by the desktop app on %s", (kind) => {
  let database: TestDatabase;
  let server: RemoteSupportServer;
  let accounts: Record<Role, TestAccount>;
  let as: ReturnType<typeof asAccount>;
  const opened: (TestSocket | DeviceClient)[] = [];

  const browser = async (role: Role) => {
    const socket = await connectSocket(server.url, accounts[role].cookie);
    opened.push(socket);
    return socket;
  };
  const device = async (token: string) => {
    const socket = await connectDevice(server.url, token);
    opened.push(socket);
    return socket;
  };
  /** A session started by the app (201 checked). */
  const started = async (fields?: object): Promise<DeviceSessionResponse> => {
    const response = await startAppSession(server, fields);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body as DeviceSessionResponse;
  };
  const join = (code: string, role: Role = "technician") => as(role, "post", "/api/sessions/join").send({ code });
  const eventsOf = async (code: string) =>
    (await as("technician", "get", `/api/sessions/${code}/events`)).body.events as SessionEventView[];

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    server = await startRemoteSupportServer(database);
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
    await server?.close();
    await database?.dispose();
  });

  it("creates a session with no account, already paired: token, names, code, expiry, stored rows", async () => {
    const before = Date.now();
    const body = await started();
    expect(body).toEqual({
      deviceToken: expect.stringMatching(/^[\w-]{40,}$/),
      customerName: "Marie",
      sessionCode: expect.stringMatching(/^[ACDEFGHJKMNPQRTUVWXY34679]{6}$/),
      expiresAt: expect.any(String),
    });
    const ttlMs = Date.parse(body.expiresAt) - before;
    // The test server's code lifetime is the default 30 minutes.
    expect(ttlMs).toBeGreaterThan(1795_000);
    expect(ttlMs).toBeLessThan(1805_000);

    const [row] = await database.db.select().from(sessions);
    expect(row).toMatchObject({
      code: body.sessionCode,
      origin: "app",
      userId: null,
      userEmail: null,
      userName: "Marie",
      status: "disconnected",
      technicianId: null,
      endTime: null,
    });
    const [app] = await database.db.select().from(sessionDevices);
    expect(app).toMatchObject({
      sessionId: row!.id,
      userId: null,
      computerName: "PC-SALON",
      platform: "linux",
      arch: "x64",
      appVersion: "1.0.0",
      injection: { ok: true },
      screens: PAIR_FIELDS.screens,
      consent: false,
      viewConsent: false,
    });
    expect(app!.pairingId).toMatch(/^[0-9a-f-]{36}$/);
    // Stored hashed only.
    expect(app!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(app!.tokenHash).not.toContain(body.deviceToken);
    const recorded = await database.db.select().from(sessionEvents).where(eq(sessionEvents.sessionId, row!.id));
    expect(recorded.map(({ kind, actorId }) => ({ kind, actorId }))).toEqual([
      { kind: "device-paired", actorId: APP_ACTOR_ID },
    ]);
  });

  it("names a customer who gave no name (absent, null, blank) « Client sans compte »", async () => {
    for (const fields of [
      PAIR_FIELDS,
      { ...PAIR_FIELDS, customerName: null },
      { ...PAIR_FIELDS, customerName: "  " },
    ]) {
      expect((await started(fields)).customerName).toBe("Client sans compte");
    }
    // Trimmed, and 80 characters are fine.
    expect((await started({ ...PAIR_FIELDS, customerName: "  Marie  " })).customerName).toBe("Marie");
    expect((await started({ ...PAIR_FIELDS, customerName: "é".repeat(80) })).customerName).toBe("é".repeat(80));
  });

  it("lets the app connect with its token, and the technician join by code as usual; lists say « depuis le logiciel »", async () => {
    const { deviceToken, sessionCode } = await started();
    const app = await device(deviceToken);
    const states = recordDevice(app, "device:state");
    app.emit("device:status", { injection: { ok: true }, screens: PAIR_FIELDS.screens, capture: { ok: true } });
    await expect.poll(() => states.length).toBeGreaterThan(0);
    expect(states[0]![0]).toMatchObject({ customerName: "Marie", technicianName: null });

    const technician = await browser("technician");
    const updated = nextEvent(technician, "session:updated");
    const joined = await join(sessionCode);
    expect(joined.status).toBe(200);
    const view = joined.body.session as SessionView;
    expect(view).toMatchObject({
      code: sessionCode,
      status: "connected",
      origin: "app",
      userId: null,
      userEmail: null,
      userName: "Marie",
      technicianId: accounts.technician.id,
    });
    expect((await updated)[0]).toEqual(view);
    // Issue 40: the first name of « Camille Tech » only.
    await expect.poll(() => states.at(-1)?.[0].technicianName).toBe("Camille");

    const active = await as("technician", "get", "/api/sessions/active");
    expect(active.body.session).toMatchObject({ code: sessionCode, origin: "app", userName: "Marie" });
    const history = await as("technician", "get", "/api/sessions/history");
    expect(history.body.sessions).toEqual([expect.objectContaining({ code: sessionCode, origin: "app" })]);
    // The technician sees the app as paired and connected, as for a site session's app.
    const seen = await as("technician", "get", `/api/sessions/${sessionCode}/device`);
    expect(seen.status).toBe(200);
    expect(seen.body.device).toMatchObject({ paired: true, connected: true, computerName: "PC-SALON" });
    // A site session says so too.
    const site = await as("customer", "post", "/api/sessions").send({});
    expect(site.body.session).toMatchObject({ origin: "site", userEmail: accounts.customer.email });
  });

  it("counts the connected app as the customer's presence of a joined app session (abandoned-session sweep)", async () => {
    const { deviceToken, sessionCode } = await started();
    const app = await device(deviceToken);
    await join(sessionCode);
    const watched = connectedSessions(database.db);
    await expect.poll(async () => (await watched())[0]?.appPresent).toBe(true);
    expect((await watched())[0]).toMatchObject({ code: sessionCode, userId: null });
    app.close();
    await expect.poll(async () => (await watched())[0]?.appPresent).toBe(false);
  });

  it("records the consent given in the app as the customer's, and the report shows the session's origin", async () => {
    const { deviceToken, sessionCode } = await started();
    const app = await device(deviceToken);
    const technician = await browser("technician");
    const pushed = record(technician, "session:device");
    await join(sessionCode);
    app.emit("device:consent", { allowed: true, view: true });
    // Pushed live to the technician's dashboard, as for a site session's app.
    await expect
      .poll(() => pushed.some(([view]) => view.code === sessionCode && view.consent && view.viewConsent))
      .toBe(true);
    await expect.poll(async () => (await eventsOf(sessionCode)).length).toBe(4);
    const events = await eventsOf(sessionCode);
    expect(events.map(({ kind, actor }) => ({ kind, actor }))).toEqual([
      { kind: "device-paired", actor: "customer" },
      { kind: "joined", actor: "technician" },
      { kind: "control-allowed", actor: "customer" },
      { kind: "view-allowed", actor: "customer" },
    ]);

    await as("technician", "post", "/api/reports/verify").send({ password: accounts.technician.password });
    const report = await as("technician", "get", `/api/sessions/${sessionCode}/report`);
    expect(report.status).toBe(200);
    expect(report.body.report).toMatchObject({
      code: sessionCode,
      origin: "app",
      userName: "Marie",
      userEmail: null,
    });
  });

  it("ends the session when the app leaves: end bookkeeping, technician told live, token void", async () => {
    const { deviceToken, sessionCode } = await started();
    const app = await device(deviceToken);
    await join(sessionCode);
    const technician = await browser("technician");
    // The join's own « connected » push can reach this socket late through the
    // database adapter, so the end is the update that says so, not the next one.
    const updates = record(technician, "session:updated");
    const ended = nextDeviceEvent(app, "device:ended");
    app.emit("device:leave");
    await expect.poll(() => updates.some(([view]) => view.status === "disconnected")).toBe(true);
    const [session] = updates.find(([view]) => view.status === "disconnected")!;
    expect(session).toMatchObject({ code: sessionCode, status: "disconnected", origin: "app" });
    expect(session.endTime).not.toBeNull();
    expect(session.durationSeconds).toBeGreaterThanOrEqual(0);
    expect((await ended)[0]).toBe(DEVICE_MESSAGES.sessionEnded);
    await expect
      .poll(async () => (await eventsOf(sessionCode)).map((event) => event.kind))
      .toContain("device-unpaired");
    const last = (await eventsOf(sessionCode)).find((event) => event.kind === "ended");
    // "Session terminée par le client": the app was its customer side.
    expect(last?.actor).toBe("customer");
    expect((await as("technician", "get", "/api/sessions/active")).body.session).toBeNull();
    await expect(connectDevice(server.url, deviceToken)).rejects.toThrow(DEVICE_MESSAGES.tokenInvalid);
    expect((await join(sessionCode, "otherTechnician")).body.message).toBe(SESSION_MESSAGES.sessionEnded);
  });

  it("ends an unjoined session when its app leaves, and lets its code expire when nobody joins", async () => {
    const first = await started();
    const app = await device(first.deviceToken);
    const ended = nextDeviceEvent(app, "device:ended");
    app.emit("device:leave");
    await ended;
    const [row] = await database.db.select().from(sessions).where(eq(sessions.code, first.sessionCode));
    expect(row).toMatchObject({ status: "disconnected", durationSeconds: null });
    expect(row!.endTime).not.toBeNull();

    // Nobody joins: once its code is older than its lifetime, the sweep ends it and the app is told.
    const second = await started();
    const waiting = await device(second.deviceToken);
    await database.db.execute(
      sql`update sessions set created_at = now() - interval '31 minutes' where code = ${second.sessionCode}`,
    );
    const told = nextDeviceEvent(waiting, "device:ended");
    expect(await server.sessions.expireCodes()).toEqual({ ok: true, ended: 1 });
    expect((await told)[0]).toBe(DEVICE_MESSAGES.sessionEnded);
    // A technician who types it then learns it ended.
    expect((await join(second.sessionCode)).status).toBe(409);

    // Typed late, before any sweep: "expired", and the session ends there and then.
    const third = await started();
    await database.db.execute(
      sql`update sessions set created_at = now() - interval '31 minutes' where code = ${third.sessionCode}`,
    );
    const late = await join(third.sessionCode);
    expect(late.status).toBe(410);
    expect(late.body.message).toBe(SESSION_MESSAGES.codeExpired);
    await expect(connectDevice(server.url, third.deviceToken)).rejects.toThrow(DEVICE_MESSAGES.tokenInvalid);
  });

  it("never shows or opens an app session to a customer's account", async () => {
    const customer = await browser("customer");
    const updates = record(customer, "session:updated");
    const devices = record(customer, "session:device");
    const { deviceToken, sessionCode } = await started();
    const app = await device(deviceToken);
    await join(sessionCode);
    app.emit("device:consent", { allowed: true, view: true });
    await pause(300);
    for (const [method, path] of [
      ["get", `/api/sessions/${sessionCode}/device`],
      ["get", `/api/sessions/${sessionCode}/events`],
      ["get", `/api/sessions/${sessionCode}/ice-servers`],
      ["get", `/api/sessions/${sessionCode}/conversation`],
      ["post", `/api/sessions/${sessionCode}/pairing`],
      ["post", `/api/sessions/${sessionCode}/disconnect`],
    ] as const) {
      // Issue 28 §7: to them it does not exist (the answer to an unused code).
      const response = await as("customer", method, path);
      expect(response.status, path).toBe(404);
      expect(response.body.message).toBe(SESSION_MESSAGES.notFound);
    }
    expect((await as("customer", "post", `/api/sessions/${sessionCode}/consent`).send({ allowed: false })).status).toBe(
      404,
    );
    // Their own list never holds it, and asking for its code gives them their own new session.
    expect((await as("customer", "get", "/api/sessions/mine")).body.sessions).toEqual([]);
    const own = await as("customer", "post", "/api/sessions").send({ code: sessionCode });
    expect(own.status).toBe(201);
    expect(own.body.session.code).not.toBe(sessionCode);
    await expect.poll(() => updates.length).toBe(1);
    await pause(200);
    expect(updates.map(([session]) => session.code)).toEqual([own.body.session.code]);
    expect(devices).toEqual([]);
    // Another technician is not its technician either.
    expect((await as("otherTechnician", "get", `/api/sessions/${sessionCode}/device`)).status).toBe(404);
  });

  it("refuses bad bodies with a French 400 (413 when too large), creating nothing", async () => {
    const bad: [unknown, string][] = [
      [{}, DEVICE_MESSAGES.badBody],
      [[1, 2, 3], DEVICE_MESSAGES.badBody],
      [{ ...PAIR_FIELDS, customerName: "x".repeat(81) }, "Le nom ne doit pas dépasser 80 caractères."],
      [{ ...PAIR_FIELDS, customerName: 42 }, "Le nom doit être un texte."],
      [{ ...PAIR_FIELDS, customerName: "Ma\u0000rie" }, UNTYPABLE_TEXT_MESSAGE],
      [{ ...PAIR_FIELDS, customerName: "Marie\u0007" }, UNTYPABLE_TEXT_MESSAGE],
      [{ ...PAIR_FIELDS, screens: [] }, DEVICE_MESSAGES.badBody],
      [{ ...PAIR_FIELDS, platform: "amiga" }, DEVICE_MESSAGES.badBody],
      [{ ...PAIR_FIELDS, computerName: " " }, DEVICE_MESSAGES.badBody],
      [{ ...PAIR_FIELDS, capture: { ok: "oui" } }, DEVICE_MESSAGES.badBody],
    ];
    for (const [body, message] of bad) {
      const response = await startAppSession(server, body as object);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.body).toEqual({ message });
      expect(response.headers["cache-control"]).toBe("no-store");
    }
    const huge = await startAppSession(server, { ...PAIR_FIELDS, padding: "x".repeat(20_000) });
    expect(huge.status).toBe(413);
    expect(huge.body.message).toBe(SESSION_MESSAGES.tooLarge);
    const broken = await request(server.url)
      .post("/api/device/sessions")
      .set("Content-Type", "application/json")
      .send("{ pas du json");
    expect(broken.status).toBe(400);
    expect(await database.db.select().from(sessions)).toEqual([]);
  });

  it("lets the app's POST through the Origin check, still refuses another site's", async () => {
    const foreign = await request(server.url)
      .post("/api/device/sessions")
      .set("Origin", "https://pirate.example")
      .send(PAIR_FIELDS);
    expect(foreign.status).toBe(403);
    expect(await database.db.select().from(sessions)).toEqual([]);
    await started();
  });
});
