import { describe, expect, it } from "vitest";
import { parseEnv } from "#server/env.ts";
import {
  DEFAULT_APP_SESSION_LIMIT,
  DEFAULT_CODE_TTL_SECONDS,
  DEFAULT_SESSION_LIMITS,
  TokenBucket,
  sessionLimitsFromEnv,
} from "./limits.ts";

describe("TokenBucket (issue 13 §3, per-connection signaling budget)", () => {
  it("lets a burst through at once, then refills at its rate, never above its capacity", () => {
    let now = 0;
    const bucket = new TokenBucket(3, 2, () => now);
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
    now += 499;
    expect(bucket.take()).toBe(false);
    now += 1;
    expect(bucket.take()).toBe(true);
    now += 60_000;
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
  });

  it("weighs a take by its amount (bytes), refusing one larger than what is left without spending it", () => {
    let now = 0;
    const bucket = new TokenBucket(100, 10, () => now);
    expect(bucket.take(60)).toBe(true);
    expect(bucket.take(50)).toBe(false);
    expect(bucket.take(40)).toBe(true);
    now += 1_000;
    expect(bucket.take(10)).toBe(true);
    expect(bucket.take(1)).toBe(false);
  });
});

describe("session limits from the environment (issue 13 §8, issue 26, issue 28 §7)", () => {
  it("default to the documented values and follow the SESSION_* variables", () => {
    expect(sessionLimitsFromEnv(parseEnv({}))).toEqual({
      codeTtlSeconds: DEFAULT_CODE_TTL_SECONDS,
      limits: DEFAULT_SESSION_LIMITS,
      appSessionLimit: DEFAULT_APP_SESSION_LIMIT,
    });
    const custom = sessionLimitsFromEnv(
      parseEnv({
        SESSION_CODE_TTL_S: "600",
        SESSION_JOIN_FAILURE_LIMIT: "3",
        SESSION_JOIN_FAILURE_WINDOW_S: "60",
        SESSION_JOIN_LIMIT: "20",
        SESSION_JOIN_WINDOW_S: "120",
        SESSION_CREATE_LIMIT: "4",
        SESSION_CREATE_WINDOW_S: "30",
        SESSION_APP_CREATE_LIMIT: "2",
        SESSION_APP_CREATE_WINDOW_S: "90",
        SESSION_LOOKUP_FAILURE_LIMIT: "7",
        SESSION_LOOKUP_FAILURE_WINDOW_S: "45",
      }),
    );
    expect(custom).toEqual({
      codeTtlSeconds: 600,
      limits: {
        joinFailures: { points: 3, durationSeconds: 60 },
        joins: { points: 20, durationSeconds: 120 },
        creations: { points: 4, durationSeconds: 30 },
        lookupFailures: { points: 7, durationSeconds: 45 },
      },
      appSessionLimit: { points: 2, durationSeconds: 90 },
    });
    expect(() => parseEnv({ SESSION_CODE_TTL_S: "0" })).toThrow(/SESSION_CODE_TTL_S/);
  });
});
