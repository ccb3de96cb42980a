/**
 * Issue 28 §8: what a participant adds to a session (`POST …/events`, and the
 * customer's `POST …/surface`) is budgeted per participant and session, and a
 * state (sharing, control, the shared surface) is stored, and pushed, only
 * when it changes. With the server's default budgets, counted in the
 * `rate_limits` table on PostgreSQL and in memory on PGlite, as
 * `server/services.ts` wires them.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SESSION_MESSAGES, type SessionEventView } from "#app/remote-support/protocol.ts";
import { sessionEvents, sessions } from "#database/schema.ts";
import { MEMORY_STORE, type RateLimitStore } from "#server/rate-limit.ts";
import { DATABASE_KINDS, emptyTables, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  createAccounts,
  startRemoteSupportServer,
  TEST_SESSION_OPTIONS,
  type RemoteSupportServer,
  type Role,
  type TestAccount,
} from "#tests/support/remote-support.ts";
import { DEFAULT_SESSION_EVENT_BUDGETS } from "./limits.ts";
import { asAccount, openSession } from "./device-testing.ts";

const { events: eventBudget, surfaces: surfaceBudget } = DEFAULT_SESSION_EVENT_BUDGETS;

describe.each(DATABASE_KINDS)("events of a session within budget on %s", (kind) => {
  let database: TestDatabase;
  let server: RemoteSupportServer;
  let accounts: Record<Role, TestAccount>;
  let as: ReturnType<typeof asAccount>;

  const post = (who: Role, code: string, body: object) => as(who, "post", `/api/sessions/${code}/events`).send(body);
  const surface = (code: string, width: number, height = 720) =>
    as("customer", "post", `/api/sessions/${code}/surface`).send({ displaySurface: "monitor", width, height });
  const stored = async (code: string) => {
    const [session] = await database.db.select().from(sessions).where(eq(sessions.code, code));
    const rows = await database.db.select().from(sessionEvents).where(eq(sessionEvents.sessionId, session!.id));
    return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).map((row) => row.kind);
  };

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const rateLimits: RateLimitStore = database.pool ? { kind: "postgres", pool: database.pool } : MEMORY_STORE;
    // Budgets are per session: each test opens its own, and the store may outlive tests.
    server = await startRemoteSupportServer(database, {
      sessionOptions: { ...TEST_SESSION_OPTIONS, rateLimits },
      deviceOptions: { rateLimits },
    });
    accounts = await createAccounts(server, database);
    as = asAccount(server, accounts);
  });
  beforeEach(async () => {
    // One open session per customer: each test starts its own.
    await emptyTables(database.db);
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });

  it("stores sharing, control and the surface only when they change, and pushes nothing for a repeat", async () => {
    const code = await openSession(as);
    const [session] = await database.db.select().from(sessions).where(eq(sessions.code, code));
    const changes: string[] = [];
    // Only this session's changes: the service announces every session's.
    const unsubscribe = server.devices.subscribe((event) => {
      if (event.type === "changed" && event.sessionId === session!.id) changes.push(event.type);
    });
    try {
      // The surface first (the app's row, which the control toggles drive); the same one again changes nothing.
      expect((await surface(code, 1280)).status).toBe(200);
      await expect.poll(() => changes.length).toBe(1);
      const again = await surface(code, 1280);
      expect(again.status).toBe(200);
      expect(again.body.device).toMatchObject({ wholeScreen: true });
      expect((await surface(code, 1920, 1080)).status).toBe(200);
      await expect.poll(() => changes.length).toBe(2);

      const started = await post("customer", code, { kind: "sharing-started" });
      expect(started.status).toBe(201);
      const repeats = await Promise.all([1, 2, 3].map(() => post("customer", code, { kind: "sharing-started" })));
      expect(repeats.map((response) => response.status)).toEqual([200, 200, 200]);
      for (const repeat of repeats) expect(repeat.body.event).toEqual(started.body.event);
      expect((await post("customer", code, { kind: "sharing-stopped" })).status).toBe(201);
      expect((await post("customer", code, { kind: "sharing-stopped" })).status).toBe(200);

      // Sent twice at once: stored once.
      const toggles = await Promise.all([1, 2].map(() => post("technician", code, { kind: "control-on" })));
      expect(toggles.map((response) => response.status).sort()).toEqual([200, 201]);
      await expect.poll(() => changes.length).toBe(3);
      const off = await post("technician", code, { kind: "control-off" });
      expect(off.status).toBe(201);
      expect((off.body.event as SessionEventView).kind).toBe("control-off");
      expect((await post("technician", code, { kind: "control-off" })).status).toBe(200);
      await expect.poll(() => changes.length).toBe(4);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(changes).toHaveLength(4);
    } finally {
      unsubscribe();
    }
    expect(await stored(code)).toEqual(["joined", "sharing-started", "sharing-stopped", "control-on", "control-off"]);
  });

  it(`refuses past ${eventBudget.points} events per participant and session, even sent at once, storing none of them`, async () => {
    const code = await openSession(as);
    const flood = await Promise.all(
      Array.from({ length: eventBudget.points + 20 }, (_, index) =>
        post("customer", code, { kind: "chat", text: `Message ${index}` }),
      ),
    );
    const statuses = flood.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(eventBudget.points);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    const refused = flood.find((response) => response.status === 429)!;
    expect(refused.body).toEqual({ message: SESSION_MESSAGES.tooManyEvents });
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(eventBudget.durationSeconds);
    // Every kind counts; nothing refused was kept for later.
    expect((await post("customer", code, { kind: "sharing-started" })).status).toBe(429);
    expect((await stored(code)).filter((kind) => kind === "chat")).toHaveLength(eventBudget.points);
    expect(await stored(code)).not.toContain("sharing-started");

    // The other side has its own budget, and so has the customer in another session.
    expect((await post("technician", code, { kind: "chat", text: "Je suis là." })).status).toBe(201);
    const other = await openSession(as, "otherCustomer", "otherTechnician");
    expect((await post("otherCustomer", other, { kind: "sharing-started" })).status).toBe(201);
  });

  it(`refuses past ${surfaceBudget.points} surfaces per customer and session`, async () => {
    const code = await openSession(as);
    const flood = await Promise.all(
      Array.from({ length: surfaceBudget.points + 10 }, (_, index) => surface(code, 800 + index)),
    );
    const statuses = flood.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(surfaceBudget.points);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
    const refused = flood.find((response) => response.status === 429)!;
    expect(refused.body).toEqual({ message: SESSION_MESSAGES.tooManyEvents });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
  });
});
