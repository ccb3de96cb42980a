import { sql } from "drizzle-orm";
import request from "supertest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  CHAT_MAX_CHARS,
  SESSION_MESSAGES,
  isReadableSessionCode,
  type SessionEventView,
  type SessionView,
} from "#app/remote-support/protocol.ts";
import { sessions } from "#database/schema.ts";
import { DATABASE_KINDS, emptyTables, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  accountRole,
  ROLES,
  createAccount,
  createAccounts,
  signIn,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type Role,
  type TestAccount,
} from "#tests/support/remote-support.ts";
import { ROLE_PERMISSIONS, type Caller } from "#server/access.ts";
import { REPORT_GRANT_SECONDS, VERIFY_ATTEMPTS_PER_MINUTE, generateSessionCode } from "./sessions.ts";

type Who = "anonymous" | Role;
const WHO: Who[] = ["anonymous", ...ROLES];

/** The fixture of every matrix test: the customer's session joined by the technician, the other customer's waiting. */
type Fixture = { connected: string; waiting: string };

type MatrixRow = {
  name: string;
  method: "get" | "post";
  path: (fixture: Fixture) => string;
  body?: (account: TestAccount | undefined) => object;
  /** Technicians check their password first (same cookie), to open reports. */
  verifyFirst?: boolean;
  expected: Record<Who, number>;
};

// Issue 28 §7: a session the caller takes no part in answers 404 « Session non trouvée », as an unused code does;
// 403 stays for what reveals nothing about a code (a permission, the wrong side for an event).
const matrix: MatrixRow[] = [
  {
    name: "GET /api/me",
    method: "get",
    path: () => "/api/me",
    expected: { anonymous: 401, customer: 200, otherCustomer: 200, technician: 200, otherTechnician: 200 },
  },
  {
    name: "POST /api/sessions (open session returned, else created)",
    method: "post",
    path: () => "/api/sessions",
    body: () => ({}),
    expected: { anonymous: 401, customer: 200, otherCustomer: 200, technician: 201, otherTechnician: 201 },
  },
  {
    // Issue 13 §8: someone else's code is ignored (their own open session, or a new one), never a refusal that tells it exists.
    name: "POST /api/sessions with the customer's code",
    method: "post",
    path: () => "/api/sessions",
    body: () => ({}),
    expected: { anonymous: 401, customer: 200, otherCustomer: 200, technician: 201, otherTechnician: 201 },
  },
  {
    name: "GET /api/sessions/mine",
    method: "get",
    path: () => "/api/sessions/mine",
    expected: { anonymous: 401, customer: 200, otherCustomer: 200, technician: 200, otherTechnician: 200 },
  },
  {
    name: "POST /api/sessions/join a waiting session",
    method: "post",
    path: () => "/api/sessions/join",
    expected: { anonymous: 401, customer: 403, otherCustomer: 403, technician: 200, otherTechnician: 200 },
  },
  {
    name: "POST /api/sessions/join a connected session",
    method: "post",
    path: () => "/api/sessions/join",
    expected: { anonymous: 401, customer: 403, otherCustomer: 403, technician: 409, otherTechnician: 409 },
  },
  {
    name: "POST /api/sessions/:code/disconnect (connected session)",
    method: "post",
    path: (f) => `/api/sessions/${f.connected}/disconnect`,
    expected: { anonymous: 401, customer: 200, otherCustomer: 404, technician: 200, otherTechnician: 404 },
  },
  {
    name: "POST /api/sessions/:code/disconnect (waiting session)",
    method: "post",
    path: (f) => `/api/sessions/${f.waiting}/disconnect`,
    expected: { anonymous: 401, customer: 404, otherCustomer: 200, technician: 404, otherTechnician: 404 },
  },
  {
    name: "GET /api/sessions/active",
    method: "get",
    path: () => "/api/sessions/active",
    expected: { anonymous: 401, customer: 403, otherCustomer: 403, technician: 200, otherTechnician: 200 },
  },
  {
    name: "GET /api/sessions/history",
    method: "get",
    path: () => "/api/sessions/history",
    expected: { anonymous: 401, customer: 403, otherCustomer: 403, technician: 200, otherTechnician: 200 },
  },
  {
    name: "POST /api/reports/verify with one's own password",
    method: "post",
    path: () => "/api/reports/verify",
    body: (account) => ({ password: account?.password ?? "mot-de-passe" }),
    expected: { anonymous: 401, customer: 403, otherCustomer: 403, technician: 200, otherTechnician: 200 },
  },
  {
    name: "GET /api/sessions/:code/report before the password check",
    method: "get",
    path: (f) => `/api/sessions/${f.connected}/report`,
    expected: { anonymous: 401, customer: 403, otherCustomer: 403, technician: 423, otherTechnician: 423 },
  },
  {
    name: "GET /api/sessions/:code/report after the password check",
    method: "get",
    path: (f) => `/api/sessions/${f.connected}/report`,
    verifyFirst: true,
    expected: { anonymous: 401, customer: 403, otherCustomer: 403, technician: 200, otherTechnician: 404 },
  },
  {
    name: "GET /api/requests",
    method: "get",
    path: () => "/api/requests",
    expected: { anonymous: 401, customer: 403, otherCustomer: 403, technician: 200, otherTechnician: 200 },
  },
  {
    name: "GET /api/sessions/:code/ice-servers (connected session)",
    method: "get",
    path: (f) => `/api/sessions/${f.connected}/ice-servers`,
    expected: { anonymous: 401, customer: 200, otherCustomer: 404, technician: 200, otherTechnician: 404 },
  },
  {
    name: "GET /api/sessions/:code/ice-servers (waiting session)",
    method: "get",
    path: (f) => `/api/sessions/${f.waiting}/ice-servers`,
    expected: { anonymous: 401, customer: 404, otherCustomer: 200, technician: 404, otherTechnician: 404 },
  },
  {
    name: "GET /api/sessions/:code/events (connected session)",
    method: "get",
    path: (f) => `/api/sessions/${f.connected}/events`,
    expected: { anonymous: 401, customer: 200, otherCustomer: 404, technician: 200, otherTechnician: 404 },
  },
  {
    name: "POST /api/sessions/:code/events chat (connected session)",
    method: "post",
    path: (f) => `/api/sessions/${f.connected}/events`,
    body: () => ({ kind: "chat", text: "Bonjour" }),
    expected: { anonymous: 401, customer: 201, otherCustomer: 404, technician: 201, otherTechnician: 404 },
  },
  {
    name: "POST /api/sessions/:code/events sharing-started (connected session)",
    method: "post",
    path: (f) => `/api/sessions/${f.connected}/events`,
    body: () => ({ kind: "sharing-started" }),
    expected: { anonymous: 401, customer: 201, otherCustomer: 404, technician: 403, otherTechnician: 404 },
  },
  {
    name: "POST /api/sessions/:code/events control-on (connected session)",
    method: "post",
    path: (f) => `/api/sessions/${f.connected}/events`,
    body: () => ({ kind: "control-on" }),
    expected: { anonymous: 401, customer: 403, otherCustomer: 404, technician: 201, otherTechnician: 404 },
  },
];

/** Bodies that depend on the fixture (codes are random). */
function matrixBody(row: MatrixRow, fixture: Fixture, account: TestAccount | undefined): object | undefined {
  if (row.name.startsWith("POST /api/sessions with the customer's code")) return { code: fixture.connected };
  if (row.name.endsWith("a waiting session")) return { code: fixture.waiting };
  if (row.name.endsWith("a connected session")) return { code: fixture.connected };
  return row.body?.(account);
}

const callerOf = (account: TestAccount): Caller => ({
  userId: account.id,
  name: account.name,
  email: account.email,
  role: accountRole(account),
  authSessionId: "fixture",
});

describe.each(DATABASE_KINDS)("remote-support API on %s", (kind) => {
  let database: TestDatabase;
  let server: RemoteSupportServer;
  let accounts: Record<Role, TestAccount>;
  let fixture: Fixture;

  const http = () => request(server.url);
  const as = (who: Who, method: "get" | "post", path: string) => {
    const call = http()[method](path);
    return who === "anonymous" ? call : call.set("Cookie", accounts[who].cookie);
  };

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    server = await startRemoteSupportServer(database);
    accounts = await createAccounts(server, database);
  });
  beforeEach(async () => {
    await emptyTables(database.db);
    await database.db.execute(sql`delete from verifications where identifier like 'report-grant:%'`);
    const connected = await server.sessions.create(callerOf(accounts.customer), {});
    const waiting = await server.sessions.create(callerOf(accounts.otherCustomer), {});
    if (!connected.ok || !waiting.ok) throw new Error("fixture");
    const joined = await server.sessions.join(callerOf(accounts.technician), connected.session.code);
    if (!joined.ok) throw new Error("fixture");
    fixture = { connected: connected.session.code, waiting: waiting.session.code };
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });

  describe("permission matrix: every endpoint × every kind of caller", () => {
    it.each(matrix.flatMap((row) => WHO.map((who) => [row.name, who, row.expected[who], row] as const)))(
      "%s as %s → %i",
      async (_name, who, expected, row) => {
        const account = who === "anonymous" ? undefined : accounts[who];
        if (row.verifyFirst && account?.isTechnician) {
          const verified = await as(who, "post", "/api/reports/verify").send({ password: account.password });
          expect(verified.status).toBe(200);
        }
        let call = as(who, row.method, row.path(fixture));
        const body = matrixBody(row, fixture, account);
        if (body) call = call.send(body);
        const response = await call;
        expect(response.status).toBe(expected);
        expect(response.headers["cache-control"]).toBe("no-store");
        expect(response.headers["content-type"]).toMatch(/^application\/json/);
        if (expected >= 400) {
          expect(Object.keys(response.body)).toEqual(["message"]);
          expect(Object.values(SESSION_MESSAGES)).toContain(response.body.message);
        }
        if (expected === 401) expect(response.body.message).toBe("Utilisateur non connecté");
        if (expected === 409 && row.path(fixture) === "/api/sessions/join") {
          expect(response.body.message).toBe("Session déjà connectée");
        }
      },
    );
  });

  describe("GET /api/me", () => {
    it("answers the account from the cookie, with the role from the database", async () => {
      const response = await as("technician", "get", "/api/me");
      expect(response.body).toEqual({
        user: {
          id: accounts.technician.id,
          name: "Camille Tech",
          email: accounts.technician.email,
          isTechnician: true,
          permissions: [...ROLE_PERMISSIONS.technician],
        },
      });
      const customer = await as("customer", "get", "/api/me");
      expect(customer.body.user.isTechnician).toBe(false);
    });

    it("refuses a forged or stale cookie like no cookie", async () => {
      const response = await http().get("/api/me").set("Cookie", "better-auth.session_token=inventé.signature");
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ message: "Utilisateur non connecté" });
    });
  });

  describe("creating a session", () => {
    it("creates a session for the caller only, with a readable code, whatever the body claims", async () => {
      await emptyTables(database.db);
      const response = await as("customer", "post", "/api/sessions").send({
        userId: accounts.otherCustomer.id,
        userName: "Quelqu'un d'autre",
        status: "connected",
      });
      expect(response.status).toBe(201);
      const session = response.body.session as SessionView;
      expect(isReadableSessionCode(session.code)).toBe(true);
      expect(session).toMatchObject({
        status: "disconnected",
        userId: accounts.customer.id,
        userName: "Léa Martin",
        userEmail: accounts.customer.email,
        technicianId: null,
        startTime: null,
        endTime: null,
        durationSeconds: null,
      });
    });

    it("gives a customer's open session back instead of a second one, even on a double click", async () => {
      await emptyTables(database.db);
      const [first, second] = await Promise.all([
        as("customer", "post", "/api/sessions").send({}),
        as("customer", "post", "/api/sessions").send({}),
      ]);
      expect([first.status, second.status].sort()).toEqual([200, 201]);
      expect(first.body.session.code).toBe(second.body.session.code);
      expect(await database.db.$count(sessions)).toBe(1);
    });

    it("creates a new session once the previous one ended", async () => {
      const ended = await as("customer", "post", `/api/sessions/${fixture.connected}/disconnect`);
      expect(ended.status).toBe(200);
      const response = await as("customer", "post", "/api/sessions").send({});
      expect(response.status).toBe(201);
      expect(response.body.session.code).not.toBe(fixture.connected);
    });

    it("returns the existing record for one's own code (spec §4), and answers someone else's code like a free one", async () => {
      const own = await as("customer", "post", "/api/sessions").send({ code: fixture.connected.toLowerCase() });
      expect(own.status).toBe(200);
      expect(own.body.session.code).toBe(fixture.connected);
      // Issue 13 §8: the customer's open session either way; nothing tells that the other code exists.
      const other = await as("customer", "post", "/api/sessions").send({ code: fixture.waiting });
      const free = await as("customer", "post", "/api/sessions").send({ code: generateSessionCode() });
      expect([other.status, free.status]).toEqual([200, 200]);
      expect(other.body).toEqual(free.body);
      expect(other.body.session.code).toBe(fixture.connected);
    });

    it("gives an account without an open session a new random code, never the one it chose (issue 13 §8)", async () => {
      const taken = await as("technician", "post", "/api/sessions").send({ code: fixture.waiting });
      expect(taken.status).toBe(201);
      expect(taken.body.session).toMatchObject({ userId: accounts.technician.id, status: "disconnected" });
      expect(taken.body.session.code).not.toBe(fixture.waiting);
      expect(isReadableSessionCode(taken.body.session.code)).toBe(true);
      const chosen = generateSessionCode();
      const free = await as("otherTechnician", "post", "/api/sessions").send({ code: chosen });
      expect(free.status).toBe(201);
      expect(free.body.session.code).not.toBe(chosen);
      // The other customer's session is untouched.
      const [waiting] = await database.db
        .select()
        .from(sessions)
        .where(sql`code = ${fixture.waiting}`);
      expect(waiting).toMatchObject({ userId: accounts.otherCustomer.id, endTime: null });
    });
  });

  describe("joining", () => {
    it("lets exactly one of two racing technicians join, the other gets « Session déjà connectée »", async () => {
      for (let round = 0; round < 5; round++) {
        const code = generateSessionCode();
        await database.db.insert(sessions).values({
          code,
          userId: accounts.customer.id,
          userName: accounts.customer.name,
          userEmail: accounts.customer.email,
        });
        const responses = await Promise.all([
          as("technician", "post", "/api/sessions/join").send({ code }),
          as("otherTechnician", "post", "/api/sessions/join").send({ code }),
        ]);
        expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
        const winner = responses.find((response) => response.status === 200)!;
        const loser = responses.find((response) => response.status === 409)!;
        expect(loser.body).toEqual({ message: "Session déjà connectée" });
        const [row] = await database.db
          .select()
          .from(sessions)
          .where(sql`code = ${code}`);
        expect(row!.technicianId).toBe(winner.body.session.technicianId);
        expect(row!.status).toBe("connected");
      }
    });

    it("sets status connected, technician_id and start_time (the database's now)", async () => {
      const before = Date.now();
      const response = await as("otherTechnician", "post", "/api/sessions/join").send({ code: fixture.waiting });
      expect(response.status).toBe(200);
      expect(response.body.session).toMatchObject({
        status: "connected",
        technicianId: accounts.otherTechnician.id,
        endTime: null,
      });
      expect(Math.abs(Date.parse(response.body.session.startTime) - before)).toBeLessThan(5_000);
    });

    it("accepts a code typed in lower case, with spaces or dashes", async () => {
      const typed = `${fixture.waiting.slice(0, 3).toLowerCase()}- ${fixture.waiting.slice(3).toLowerCase()}`;
      const response = await as("technician", "post", "/api/sessions/join").send({ code: typed });
      expect(response.status).toBe(200);
      expect(response.body.session.code).toBe(fixture.waiting);
    });

    it.each([
      ["an unknown code", { code: "AAAAAA" }, 404, "Session non trouvée"],
      ["no code", {}, 400, "Le code de session est obligatoire."],
      ["an empty code", { code: "  " }, 400, "Le code de session est obligatoire."],
      ["a number", { code: 123456 }, 400, "Le code de session est obligatoire."],
      ["symbols", { code: "AB$CD!" }, 400, "Le code de session ne contient que des lettres et des chiffres."],
      ["a very long code", { code: "A".repeat(40) }, 400, "Ce code de session est trop long."],
      ["an array body", ["AAAAAA"], 400, "Le contenu envoyé doit être un objet JSON."],
    ])("refuses %s (%i)", async (_case, body, status, message) => {
      const response = await as("technician", "post", "/api/sessions/join").send(body as object);
      expect(response.status).toBe(status);
      expect(response.body).toEqual({ message });
    });

    it("refuses malformed JSON (400) and oversized bodies (413) in French", async () => {
      const malformed = await as("technician", "post", "/api/sessions/join")
        .set("Content-Type", "application/json")
        .send("{code:");
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ message: "Le contenu envoyé n'est pas du JSON valide." });
      const large = await as("technician", "post", "/api/sessions/join").send({
        code: fixture.waiting,
        padding: "x".repeat(10_000),
      });
      expect(large.status).toBe(413);
      expect(large.body).toEqual({ message: "Le contenu envoyé est trop volumineux." });
      expect(large.text).not.toMatch(/at .*\.js|Error:/);
    });

    it("refuses an ended session and one's own session", async () => {
      await as("customer", "post", `/api/sessions/${fixture.connected}/disconnect`);
      const ended = await as("otherTechnician", "post", "/api/sessions/join").send({ code: fixture.connected });
      expect(ended.status).toBe(409);
      expect(ended.body).toEqual({ message: "Session terminée" });
      const own = await as("technician", "post", "/api/sessions").send({});
      const joinOwn = await as("technician", "post", "/api/sessions/join").send({ code: own.body.session.code });
      expect(joinOwn.status).toBe(403);
      expect(joinOwn.body).toEqual({ message: "Vous ne pouvez pas rejoindre votre propre session." });
    });
  });

  describe("disconnecting", () => {
    it("stores whole seconds since start_time as duration_seconds", async () => {
      await database.db.execute(
        sql`update sessions set start_time = now() - interval '125.6 seconds' where code = ${fixture.connected}`,
      );
      const response = await as("technician", "post", `/api/sessions/${fixture.connected}/disconnect`);
      expect(response.status).toBe(200);
      const session = response.body.session as SessionView;
      expect(session).toMatchObject({ status: "disconnected", durationSeconds: 125 });
      const elapsed = (Date.parse(session.endTime!) - Date.parse(session.startTime!)) / 1000;
      expect(Math.floor(elapsed)).toBe(125);
    });

    it("counts hours too, and lets the customer end it as well", async () => {
      await database.db.execute(
        sql`update sessions set start_time = now() - interval '2 hours 3 minutes 4 seconds' where code = ${fixture.connected}`,
      );
      const response = await as("customer", "post", `/api/sessions/${fixture.connected}/disconnect`);
      expect(response.body.session.durationSeconds).toBe(2 * 3600 + 3 * 60 + 4);
    });

    it("returns an ended session unchanged when disconnected again", async () => {
      const first = await as("customer", "post", `/api/sessions/${fixture.connected}/disconnect`);
      const again = await as("technician", "post", `/api/sessions/${fixture.connected}/disconnect`);
      expect(again.status).toBe(200);
      expect(again.body.session).toEqual(first.body.session);
    });

    it("ends a session nobody joined with no duration", async () => {
      const response = await as("otherCustomer", "post", `/api/sessions/${fixture.waiting}/disconnect`);
      expect(response.body.session).toMatchObject({ status: "disconnected", startTime: null, durationSeconds: null });
      expect(response.body.session.endTime).not.toBeNull();
    });

    it("answers 404 for an unknown code and 400 for a malformed one", async () => {
      const unknown = await as("customer", "post", "/api/sessions/AAAAAA/disconnect");
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ message: "Session non trouvée" });
      const malformed = await as("customer", "post", "/api/sessions/AB$CD/disconnect");
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ message: "Le code de session ne contient que des lettres et des chiffres." });
    });
  });

  describe("reading sessions", () => {
    it("shows each technician only their own history, newest first, and each customer only their own sessions", async () => {
      await as("technician", "post", `/api/sessions/${fixture.connected}/disconnect`);
      const second = await as("customer", "post", "/api/sessions").send({});
      await as("technician", "post", "/api/sessions/join").send({ code: second.body.session.code });
      await as("otherTechnician", "post", "/api/sessions/join").send({ code: fixture.waiting });

      const history = await as("technician", "get", "/api/sessions/history");
      expect(history.body.sessions.map((session: SessionView) => session.code)).toEqual([
        second.body.session.code,
        fixture.connected,
      ]);
      const otherHistory = await as("otherTechnician", "get", "/api/sessions/history");
      expect(otherHistory.body.sessions.map((session: SessionView) => session.code)).toEqual([fixture.waiting]);

      const mine = await as("customer", "get", "/api/sessions/mine");
      expect(mine.body.sessions.map((session: SessionView) => session.code)).toEqual([
        second.body.session.code,
        fixture.connected,
      ]);
      const otherMine = await as("otherCustomer", "get", "/api/sessions/mine");
      expect(otherMine.body.sessions.map((session: SessionView) => session.code)).toEqual([fixture.waiting]);
      const technicianMine = await as("technician", "get", "/api/sessions/mine");
      expect(technicianMine.body.sessions).toEqual([]);
    });

    it("resumes the technician's connected session on dashboard load, and nothing after disconnect", async () => {
      const active = await as("technician", "get", "/api/sessions/active");
      expect(active.body.session).toMatchObject({
        code: fixture.connected,
        status: "connected",
        userName: "Léa Martin",
      });
      const none = await as("otherTechnician", "get", "/api/sessions/active");
      expect(none.body).toEqual({ session: null });
      await as("customer", "post", `/api/sessions/${fixture.connected}/disconnect`);
      expect((await as("technician", "get", "/api/sessions/active")).body).toEqual({ session: null });
    });
  });

  describe("session record (issue 6)", () => {
    const events = (code: string) => `/api/sessions/${code}/events`;

    it("keeps the audit trail and the chat in order, each line named by its side", async () => {
      const code = fixture.connected;
      expect((await as("customer", "post", events(code)).send({ kind: "sharing-started" })).status).toBe(201);
      expect((await as("technician", "post", events(code)).send({ kind: "control-on" })).status).toBe(201);
      const said = await as("customer", "post", events(code)).send({
        kind: "chat",
        text: "  Mon imprimante ne répond plus.  ",
      });
      expect(said.status).toBe(201);
      expect(said.body.event).toMatchObject({
        kind: "chat",
        actor: "customer",
        text: "Mon imprimante ne répond plus.",
      });
      expect((await as("technician", "post", events(code)).send({ kind: "chat", text: "Je regarde." })).status).toBe(
        201,
      );
      expect((await as("technician", "post", events(code)).send({ kind: "control-off" })).status).toBe(201);
      await as("customer", "post", `/api/sessions/${code}/disconnect`);

      const record = await as("technician", "get", events(code));
      expect(record.status).toBe(200);
      expect(record.body.events.map((event: SessionEventView) => [event.kind, event.actor, event.text])).toEqual([
        ["joined", "technician", null],
        ["sharing-started", "customer", null],
        ["control-on", "technician", null],
        ["chat", "customer", "Mon imprimante ne répond plus."],
        ["chat", "technician", "Je regarde."],
        ["control-off", "technician", null],
        ["ended", "customer", null],
      ]);
      // The customer reads the same record of their own session.
      expect((await as("customer", "get", events(code))).body).toEqual(record.body);
    });

    it("refuses a chat or remote input before a technician joined, and anything after the end", async () => {
      const waiting = fixture.waiting;
      expect((await as("otherCustomer", "post", events(waiting)).send({ kind: "sharing-started" })).status).toBe(201);
      const early = await as("otherCustomer", "post", events(waiting)).send({ kind: "chat", text: "Allô ?" });
      expect(early.status).toBe(409);
      expect(early.body).toEqual({ message: SESSION_MESSAGES.notConnected });

      await as("technician", "post", `/api/sessions/${fixture.connected}/disconnect`);
      const late = await as("customer", "post", events(fixture.connected)).send({ kind: "chat", text: "Merci !" });
      expect(late.status).toBe(409);
      expect(late.body).toEqual({ message: SESSION_MESSAGES.sessionEnded });
      const ice = await as("customer", "get", `/api/sessions/${fixture.connected}/ice-servers`);
      expect(ice.status).toBe(409);
    });

    it("answers bad bodies with a French 400 and stores nothing", async () => {
      const code = fixture.connected;
      for (const [body, message] of [
        [{ kind: "joined" }, "Type d'événement inconnu."],
        [{ kind: "ended" }, "Type d'événement inconnu."],
        [{}, "Type d'événement inconnu."],
        [{ kind: "chat", text: "   " }, "Le message est vide."],
        [{ kind: "chat" }, "Le message est vide."],
        [{ kind: "chat", text: "x".repeat(CHAT_MAX_CHARS + 1) }, `Le message dépasse ${CHAT_MAX_CHARS} caractères.`],
      ] as const) {
        const response = await as("customer", "post", events(code)).send(body);
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(response.body).toEqual({ message });
      }
      const record = await as("customer", "get", events(code));
      expect(record.body.events.map((event: SessionEventView) => event.kind)).toEqual(["joined"]);
    });

    it("issues the configured ICE servers to participants (none in tests)", async () => {
      const response = await as("customer", "get", `/api/sessions/${fixture.connected}/ice-servers`);
      expect(response.body).toEqual({ iceServers: [], expiresAt: null });
    });
  });

  describe("reports", () => {
    it("are locked until the technician's own password is checked, for this sign-in session only", async () => {
      await database.db.execute(
        sql`update sessions set start_time = now() - interval '3725 seconds' where code = ${fixture.connected}`,
      );
      await as("technician", "post", `/api/sessions/${fixture.connected}/disconnect`);
      const path = `/api/sessions/${fixture.connected}/report`;

      const locked = await as("technician", "get", path);
      expect(locked.status).toBe(423);
      expect(locked.body).toEqual({ message: SESSION_MESSAGES.reportLocked });

      const wrong = await as("technician", "post", "/api/reports/verify").send({ password: "pas-le-bon" });
      expect(wrong.status).toBe(403);
      expect(wrong.body).toEqual({ message: "Mot de passe incorrect" });
      // Another technician's password does not open one's reports either.
      const others = await as("technician", "post", "/api/reports/verify").send({
        password: accounts.otherTechnician.password,
      });
      expect(others.status).toBe(403);
      expect((await as("technician", "get", path)).status).toBe(423);

      const before = Date.now();
      const right = await as("technician", "post", "/api/reports/verify").send({
        password: accounts.technician.password,
      });
      const after = Date.now();
      expect(right.status).toBe(200);
      // The grant starts when the server handles the call, somewhere between `before` and `after`.
      const grantedUntil = Date.parse(right.body.grantedUntil);
      expect((grantedUntil - after) / 1000).toBeGreaterThan(REPORT_GRANT_SECONDS - 5);
      expect((grantedUntil - before) / 1000).toBeLessThanOrEqual(REPORT_GRANT_SECONDS + (after - before) / 1000 + 1);

      const report = await as("technician", "get", path);
      expect(report.status).toBe(200);
      expect(report.body.report).toMatchObject({
        code: fixture.connected,
        userName: "Léa Martin",
        userEmail: accounts.customer.email,
        durationSeconds: 3725,
        origin: "site",
      });
      expect(Object.keys(report.body.report).sort()).toEqual([
        "code",
        "durationSeconds",
        "endTime",
        "events",
        // Issue 26: "site" here, "app" for a session the desktop app started.
        "origin",
        "startTime",
        "userEmail",
        "userName",
      ]);
      expect(report.body.report.events.map((event: SessionEventView) => [event.kind, event.actor])).toEqual([
        ["joined", "technician"],
        ["ended", "technician"],
      ]);

      // A second sign-in of the same technician (another browser) has no grant.
      const otherBrowser = await signIn(server.url, accounts.technician.email, accounts.technician.password);
      expect((await http().get(path).set("Cookie", otherBrowser)).status).toBe(423);
    });

    it("stay closed to a technician for another technician's session, answered like an unknown code (issue 28 §7)", async () => {
      await as("otherTechnician", "post", "/api/reports/verify").send({ password: accounts.otherTechnician.password });
      const foreign = await as("otherTechnician", "get", `/api/sessions/${fixture.connected}/report`);
      const unknown = await as("otherTechnician", "get", "/api/sessions/AAAAAA/report");
      expect([foreign.status, foreign.body]).toEqual([404, { message: SESSION_MESSAGES.notFound }]);
      expect([unknown.status, unknown.body]).toEqual([404, { message: SESSION_MESSAGES.notFound }]);
    });

    it("limits password checks per technician", async () => {
      const limited = await createAccount(server, database, "technician", true, "-limite");
      const verify = (password: string) =>
        http().post("/api/reports/verify").set("Cookie", limited.cookie).send({ password });
      for (let attempt = 0; attempt < VERIFY_ATTEMPTS_PER_MINUTE; attempt++) {
        expect((await verify("pas-le-bon")).status).toBe(403);
      }
      const refused = await verify(limited.password);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ message: "Trop de tentatives. Réessayez dans une minute." });
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    });

    it.each([
      [{}, "Le mot de passe est obligatoire."],
      [{ password: "" }, "Le mot de passe est obligatoire."],
      [{ password: 42 }, "Le mot de passe est obligatoire."],
      [{ password: "x".repeat(200) }, "Ce mot de passe est trop long."],
    ])("refuses the password body %j with 400", async (body, message) => {
      const response = await as("otherTechnician", "post", "/api/reports/verify").send(body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message });
    });
  });

  describe("the requests view", () => {
    it("lists contact and quote requests newest first with their delivery state, for technicians", async () => {
      const contact = await http()
        .post("/api/contact")
        .send({ name: "Léa Martin", email: "lea@exemple.fr", message: "Mon écran est fissuré." });
      expect(contact.status).toBe(201);
      const quote = await http().post("/api/quote").send({
        companyName: "Boulangerie Durand",
        contactName: "Paul Durand",
        email: "paul@durand.fr",
        phone: "01 23 45 67 89",
        description: "Un site vitrine.",
        domain: "boulangerie-durand",
        emailOption: "mail-10",
        budget: "1 500 €",
      });
      expect(quote.status).toBe(201);
      await database.db.execute(
        sql`update outbox_messages set status = 'sent', attempts = 1, sent_at = now() where request_id = ${quote.body.id}`,
      );

      const response = await as("technician", "get", "/api/requests");
      expect(response.status).toBe(200);
      expect(response.body.requests.map((item: { kind: string }) => item.kind)).toEqual(["quote", "contact"]);
      expect(response.body.requests[0]).toMatchObject({
        kind: "quote",
        id: quote.body.id,
        companyName: "Boulangerie Durand",
        domain: "boulangerie-durand",
        delivery: { status: "sent", attempts: 1, lastError: null },
      });
      expect(response.body.requests[1]).toMatchObject({
        kind: "contact",
        message: "Mon écran est fissuré.",
        delivery: { status: "pending", attempts: 0, lastError: null, sentAt: null },
      });
    });
  });

  it("leaves other /api paths to the forms router", async () => {
    const unknown = await as("technician", "get", "/api/sessions");
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe("Cette adresse de l'API n'existe pas.");
  });
});
