/**
 * Issue 13 §8: session codes expire unused, joins and creations are limited
 * per account (429 with `Retry-After` and a French message), and report
 * password checks count in the same shared store; with the server's default
 * limits, counted in the `rate_limits` table on PostgreSQL and in memory on
 * PGlite, as `server/services.ts` wires them.
 */
import { eq, sql } from "drizzle-orm";
import request from "supertest";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SESSION_MESSAGES, type SessionView } from "#app/remote-support/protocol.ts";
import { sessions } from "#database/schema.ts";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  connectSocket,
  createAccount,
  nextEvent,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type TestAccount,
  type TestSocket,
} from "#tests/support/remote-support.ts";
import { MEMORY_STORE } from "#server/rate-limit.ts";
import { DEFAULT_CODE_TTL_SECONDS, DEFAULT_SESSION_LIMITS } from "./limits.ts";
import { VERIFY_ATTEMPTS_PER_MINUTE, generateSessionCode } from "./sessions.ts";
import { withRealWait } from "./http.ts";

const { joinFailures, creations } = DEFAULT_SESSION_LIMITS;

describe.each(DATABASE_KINDS)("session codes and limits on %s", (kind) => {
  let database: TestDatabase;
  let server: RemoteSupportServer;
  let accountCount = 0;
  const opened: TestSocket[] = [];

  /** A new account per test: limits are per account and the store outlives tests. */
  const account = (technician: boolean) =>
    createAccount(server, database, technician ? "technician" : "customer", technician, `-${kind}-${++accountCount}`);
  const post = (who: TestAccount, path: string, body: object = {}) =>
    request(server.url).post(path).set("Cookie", who.cookie).send(body);
  const created = async (customer: TestAccount): Promise<SessionView> => {
    const response = await post(customer, "/api/sessions");
    expect(response.status).toBe(201);
    return response.body.session as SessionView;
  };
  /** Moves a session's creation back in time (the code's age is what expires). */
  const ageSession = (code: string, seconds: number) =>
    database.db.execute(
      sql`update sessions set created_at = now() - (${seconds}::integer * interval '1 second') where code = ${code}`,
    );

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    server = await startRemoteSupportServer(database, {
      sessionOptions: {
        rateLimits: database.pool ? { kind: "postgres", pool: database.pool } : MEMORY_STORE,
        codeTtlSeconds: DEFAULT_CODE_TTL_SECONDS,
        limits: DEFAULT_SESSION_LIMITS,
      },
    });
  });
  afterEach(() => {
    for (const socket of opened.splice(0)) socket.close();
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });

  describe("expiry", () => {
    it("refuses a code nobody joined within its lifetime, tells the customer's screen, and gives a fresh code on the next start", async () => {
      const customer = await account(false);
      const technician = await account(true);
      const socket = await connectSocket(server.url, customer.cookie);
      opened.push(socket);
      const announced = nextEvent(socket, "session:updated");
      const stale = await created(customer);
      await announced;
      await ageSession(stale.code, DEFAULT_CODE_TTL_SECONDS + 1);

      const ended = nextEvent(socket, "session:updated");
      const refused = await post(technician, "/api/sessions/join", { code: stale.code });
      expect(refused.status).toBe(410);
      expect(refused.body).toEqual({ message: SESSION_MESSAGES.codeExpired });
      // The customer screen drops a session whose end time is set, and shows "Démarrer" again.
      expect((await ended)[0]).toMatchObject({ code: stale.code, status: "disconnected", startTime: null });
      expect((await ended)[0].endTime).not.toBeNull();

      const fresh = await created(customer);
      expect(fresh.code).not.toBe(stale.code);
      expect((await post(technician, "/api/sessions/join", { code: fresh.code })).status).toBe(200);
    });

    it("still joins a code just inside its lifetime", async () => {
      const customer = await account(false);
      const technician = await account(true);
      const session = await created(customer);
      await ageSession(session.code, DEFAULT_CODE_TTL_SECONDS - 60);
      expect((await post(technician, "/api/sessions/join", { code: session.code })).status).toBe(200);
    });

    it("never shows an expired code again: a reload lists it ended, and « Démarrer » gives a new one", async () => {
      const customer = await account(false);
      const stale = await created(customer);
      await ageSession(stale.code, DEFAULT_CODE_TTL_SECONDS + 1);

      const mine = await request(server.url).get("/api/sessions/mine").set("Cookie", customer.cookie);
      expect(mine.body.sessions).toHaveLength(1);
      expect(mine.body.sessions[0]).toMatchObject({ code: stale.code, status: "disconnected" });
      expect(mine.body.sessions[0].endTime).not.toBeNull();

      const again = await post(customer, "/api/sessions");
      expect(again.status).toBe(201);
      expect(again.body.session.code).not.toBe(stale.code);
      const [row] = await database.db.select().from(sessions).where(eq(sessions.code, stale.code));
      expect(row!.endTime).not.toBeNull();
    });

    it("ends expired codes by itself and tells the customer's open screen; fresh and joined sessions stay", async () => {
      const customer = await account(false);
      const other = await account(false);
      const joinedCustomer = await account(false);
      const technician = await account(true);
      const socket = await connectSocket(server.url, customer.cookie);
      opened.push(socket);
      const announced = nextEvent(socket, "session:updated");
      const stale = await created(customer);
      await announced;
      const fresh = await created(other);
      const joined = await created(joinedCustomer);
      expect((await post(technician, "/api/sessions/join", { code: joined.code })).status).toBe(200);
      await ageSession(stale.code, DEFAULT_CODE_TTL_SECONDS + 1);
      await ageSession(joined.code, DEFAULT_CODE_TTL_SECONDS + 1);

      const pushed = nextEvent(socket, "session:updated");
      const result = await server.sessions.expireCodes();

      expect(result).toMatchObject({ ok: true });
      expect((await pushed)[0]).toMatchObject({ code: stale.code, status: "disconnected", startTime: null });
      const rows = await database.db.select().from(sessions);
      const byCode = new Map(rows.map((row) => [row.code, row]));
      expect(byCode.get(stale.code)!.endTime).not.toBeNull();
      expect(byCode.get(fresh.code)!.endTime).toBeNull();
      expect(byCode.get(joined.code)).toMatchObject({ status: "connected", endTime: null });
    });

    it("ends an expired open session when its customer starts again without reloading", async () => {
      const customer = await account(false);
      const stale = await created(customer);
      await ageSession(stale.code, DEFAULT_CODE_TTL_SECONDS + 1);
      const again = await post(customer, "/api/sessions");
      expect(again.status).toBe(201);
      expect(again.body.session.code).not.toBe(stale.code);
    });
  });

  describe("joins", () => {
    it(`refuses the ${joinFailures.points + 1}th failed join of a technician with 429, even for a good code; others still join`, async () => {
      const customer = await account(false);
      const guesser = await account(true);
      const colleague = await account(true);
      const session = await created(customer);

      for (let attempt = 0; attempt < joinFailures.points; attempt++) {
        const wrong = await post(guesser, "/api/sessions/join", { code: generateSessionCode() });
        expect(wrong.status).toBe(404);
        expect(wrong.body).toEqual({ message: "Session non trouvée" });
      }
      const refused = await post(guesser, "/api/sessions/join", { code: session.code });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        message: withRealWait(SESSION_MESSAGES.tooManyJoins, Number(refused.headers["retry-after"])),
      });
      const retryAfter = Number(refused.headers["retry-after"]);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(joinFailures.durationSeconds);
      const [row] = await database.db.select().from(sessions).where(eq(sessions.code, session.code));
      expect(row!.status).toBe("disconnected");

      expect((await post(colleague, "/api/sessions/join", { code: session.code })).status).toBe(200);
    });

    it("counts guesses sent in parallel: exactly the limit gets an answer, the rest 429", async () => {
      const guesser = await account(true);
      const answers = await Promise.all(
        Array.from({ length: joinFailures.points * 3 }, () =>
          post(guesser, "/api/sessions/join", { code: generateSessionCode() }),
        ),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 404)).toHaveLength(joinFailures.points);
      expect(statuses.filter((status) => status === 429)).toHaveLength(joinFailures.points * 2);
    });

    it("does not count a join that works as a failure", async () => {
      const customer = await account(false);
      const technician = await account(true);
      for (let attempt = 0; attempt < joinFailures.points - 1; attempt++) {
        expect((await post(technician, "/api/sessions/join", { code: generateSessionCode() })).status).toBe(404);
      }
      const session = await created(customer);
      expect((await post(technician, "/api/sessions/join", { code: session.code })).status).toBe(200);
      expect((await post(technician, "/api/sessions/join", { code: generateSessionCode() })).status).toBe(404);
      expect((await post(technician, "/api/sessions/join", { code: generateSessionCode() })).status).toBe(429);
    });
  });

  describe("creations", () => {
    it(`refuses the ${creations.points + 1}th new session of an account with 429; getting one's open session back is free`, async () => {
      const customer = await account(false);
      for (let index = 0; index < creations.points; index++) {
        const session = await created(customer);
        // A double click or a second tab: the same session, not counted.
        expect((await post(customer, "/api/sessions")).status).toBe(200);
        expect((await post(customer, `/api/sessions/${session.code}/disconnect`)).status).toBe(200);
      }
      const refused = await post(customer, "/api/sessions");
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        message: withRealWait(SESSION_MESSAGES.tooManySessions, Number(refused.headers["retry-after"])),
      });
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      expect(await database.db.$count(sessions, sql`${sessions.userId} = ${customer.id}`)).toBe(creations.points);
      // Other accounts are not affected.
      expect((await post(await account(false), "/api/sessions")).status).toBe(201);
    });
  });

  describe("report password checks", () => {
    it("count wrong passwords only, in the same store", async () => {
      const technician = await account(true);
      for (let attempt = 0; attempt < VERIFY_ATTEMPTS_PER_MINUTE + 2; attempt++) {
        expect((await post(technician, "/api/reports/verify", { password: technician.password })).status).toBe(200);
      }
      for (let attempt = 0; attempt < VERIFY_ATTEMPTS_PER_MINUTE; attempt++) {
        expect((await post(technician, "/api/reports/verify", { password: "pas-le-bon" })).status).toBe(403);
      }
      const refused = await post(technician, "/api/reports/verify", { password: technician.password });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    });
  });
});
