/**
 * Issue 26: sessions the desktop app starts are limited per IP address
 * (`appSessionLimit`, `SESSION_APP_CREATE_LIMIT` per `SESSION_APP_CREATE_WINDOW_S`),
 * counted before creating so parallel requests count too, in the shared
 * `rate_limits` store on PostgreSQL (two server processes share the count)
 * and in memory on PGlite, as `server/services.ts` wires them.
 */
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SESSION_MESSAGES } from "#app/remote-support/protocol.ts";
import { sessions } from "#database/schema.ts";
import { MEMORY_STORE } from "#server/rate-limit.ts";
import { DATABASE_KINDS, emptyTables, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import { startRemoteSupportServer, type RemoteSupportServer } from "#tests/support/remote-support.ts";
import { startAppSession } from "./device-testing.ts";
import { DEFAULT_APP_SESSION_LIMIT } from "./limits.ts";
import { withRealWait } from "./http.ts";

const LIMIT = { points: 3, durationSeconds: 3600 };

describe.each(DATABASE_KINDS)("sessions started by the app, per IP address, on %s", (kind) => {
  let database: TestDatabase;
  const servers: RemoteSupportServer[] = [];

  /** A server process with `limit`, counting where the real server counts on this database. */
  async function serverWith(limit = LIMIT): Promise<RemoteSupportServer> {
    const server = await startRemoteSupportServer(database, {
      sessionOptions: {
        rateLimits: database.pool ? { kind: "postgres", pool: database.pool } : MEMORY_STORE,
        appSessionLimit: limit,
      },
    });
    servers.push(server);
    return server;
  }
  const stored = async () => (await database.db.select().from(sessions)).length;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  beforeEach(async () => {
    await emptyTables(database.db);
    // Every request of these tests comes from 127.0.0.1: each test starts with that address's count at zero.
    await database.db.execute(sql`delete from rate_limits`);
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("lets exactly the limit through, then answers 429 in French with Retry-After, creating nothing more", async () => {
    const server = await serverWith();
    for (let i = 0; i < LIMIT.points; i++) expect((await startAppSession(server)).status).toBe(201);
    const refused = await startAppSession(server);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      message: withRealWait(SESSION_MESSAGES.tooManySessions, Number(refused.headers["retry-after"])),
    });
    const wait = Number(refused.headers["retry-after"]);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(LIMIT.durationSeconds);
    expect(refused.headers["cache-control"]).toBe("no-store");
    expect(await stored()).toBe(LIMIT.points);
  });

  it("counts requests sent in parallel before creating: exactly the limit is created", async () => {
    const server = await serverWith();
    const statuses = await Promise.all(Array.from({ length: 10 }, async () => (await startAppSession(server)).status));
    expect(statuses.filter((status) => status === 201)).toHaveLength(LIMIT.points);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10 - LIMIT.points);
    expect(await stored()).toBe(LIMIT.points);
  });

  it("does not count refused bodies (nothing was created)", async () => {
    const server = await serverWith({ points: 1, durationSeconds: 3600 });
    for (let i = 0; i < 3; i++) expect((await startAppSession(server, {})).status).toBe(400);
    expect((await startAppSession(server)).status).toBe(201);
  });

  // Two processes share a database only on PostgreSQL (PGlite is one process's): a test of that database alone.
  if (kind === "postgres")
    it("shares the count between server processes (the rate_limits table)", async () => {
      const first = await serverWith();
      const second = await serverWith();
      expect((await startAppSession(first)).status).toBe(201);
      expect((await startAppSession(second)).status).toBe(201);
      expect((await startAppSession(first)).status).toBe(201);
      expect((await startAppSession(second)).status).toBe(429);
      expect((await startAppSession(first)).status).toBe(429);
    });

  it("defaults to 5 sessions per hour", async () => {
    expect(DEFAULT_APP_SESSION_LIMIT).toEqual({ points: 5, durationSeconds: 3600 });
    const server = await startRemoteSupportServer(database, { sessionOptions: {} });
    servers.push(server);
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await startAppSession(server)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });
});
