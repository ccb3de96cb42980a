import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  consume,
  createRateLimiter,
  exhausted,
  hashKey,
  MEMORY_STORE,
  penalise,
  type RateLimitStore,
} from "./rate-limit.ts";

describe.each(DATABASE_KINDS)("rate limits with %s", (kind) => {
  let database: TestDatabase;
  let store: RateLimitStore;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    store = database.pool ? { kind: "postgres", pool: database.pool } : MEMORY_STORE;
  });
  afterAll(() => database.dispose());

  it("allows the rule's points, then refuses with the wait in seconds", async () => {
    const limiter = createRateLimiter(store, { name: "test-consume", points: 3, durationSeconds: 60 });
    const outcomes = [];
    for (let i = 0; i < 4; i++) outcomes.push(await consume(limiter, "203.0.113.9"));
    expect(outcomes.slice(0, 3)).toEqual([{ allowed: true }, { allowed: true }, { allowed: true }]);
    expect(outcomes[3]).toMatchObject({ allowed: false });
    expect((outcomes[3] as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThanOrEqual(59);
    // Another key is untouched.
    expect(await consume(limiter, "203.0.113.10")).toEqual({ allowed: true });
  });

  it("counts failures only with exhausted + penalise", async () => {
    const limiter = createRateLimiter(store, { name: "test-failures", points: 2, durationSeconds: 60 });
    expect(await exhausted(limiter, "user-1")).toEqual({ allowed: true });
    await penalise(limiter, "user-1");
    expect(await exhausted(limiter, "user-1")).toEqual({ allowed: true });
    await penalise(limiter, "user-1");
    expect(await exhausted(limiter, "user-1")).toMatchObject({ allowed: false });
    await penalise(limiter, "user-1");
  });
});

// PostgreSQL only: PGlite keeps its counters in memory (one process owns its data folder).
for (const kind of DATABASE_KINDS.filter((candidate) => candidate === "postgres")) {
  describe(`shared rate limits on ${kind}`, () => {
    let database: TestDatabase;
    let store: RateLimitStore;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      store = { kind: "postgres", pool: database.pool! };
    });
    afterAll(() => database.dispose());

    it("shares counters between two limiters of one name (two server processes)", async () => {
      const a = createRateLimiter(store, { name: "test-shared", points: 2, durationSeconds: 60 });
      const b = createRateLimiter(store, { name: "test-shared", points: 2, durationSeconds: 60 });
      await consume(a, "k");
      await consume(b, "k");
      expect(await consume(a, "k")).toMatchObject({ allowed: false });
      const rows = await database.db.execute(sql`select key from rate_limits where key like 'test-shared%'`);
      expect((rows as unknown as { rows: { key: string }[] }).rows.map((row) => row.key)).toEqual(["test-shared:k"]);
    });
  });
}

describe("hashKey", () => {
  it("is stable, case-insensitive and does not contain the address", () => {
    expect(hashKey(" Lea@Exemple.fr")).toBe(hashKey("lea@exemple.fr"));
    expect(hashKey("lea@exemple.fr")).not.toContain("lea");
    expect(hashKey("lea@exemple.fr")).not.toBe(hashKey("paul@exemple.fr"));
  });
});
