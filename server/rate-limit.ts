/**
 * Every rate limit of the server (forms, sign-in, assistant, report
 * passwords, session joins and creations, signaling), built by one factory
 * over one store (issue 13 §10).
 *
 * - With `DATABASE_URL` (PostgreSQL), counters live in the `rate_limits`
 *   table (migration 0006) through rate-limiter-flexible's PostgreSQL store:
 *   several server processes share them and a restart does not reset them.
 * - With the embedded PGlite, one process owns the data folder anyway:
 *   counters stay in memory (a restart resets them).
 *
 * Keys are prefixed with the limiter's `name`, so one table holds them all.
 * Callers should key by account id or IP address, never by e-mail in clear
 * (`hashKey` makes a stable, non-reversible key of personal data).
 */
import { createHash } from "node:crypto";
import ipaddr from "ipaddr.js";
import type pg from "pg";
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";

/** Where counters live: this process's memory, or a PostgreSQL pool (the `rate_limits` table). */
export type RateLimitStore = { kind: "memory" } | { kind: "postgres"; pool: pg.Pool };

export type RateLimitRule = {
  /** Short stable name, also the key prefix in the shared table (e.g. `sign-in-ip`). */
  name: string;
  /** Points allowed per window. */
  points: number;
  /** Window length, seconds. */
  durationSeconds: number;
  /** Once exhausted, refuse for this long, seconds (default: until the window ends). */
  blockDurationSeconds?: number;
};

/** The table created by migration 0006 (rate-limiter-flexible's own layout). */
export const RATE_LIMIT_TABLE = "rate_limits";

export const MEMORY_STORE: RateLimitStore = { kind: "memory" };

/** A limiter for `rule` in `store`. Its methods reject with `RateLimiterRes` when refused, or an `Error` when the store fails. */
export function createRateLimiter(store: RateLimitStore, rule: RateLimitRule): RateLimiterAbstract {
  const common = {
    keyPrefix: rule.name,
    points: rule.points,
    duration: rule.durationSeconds,
    blockDuration: rule.blockDurationSeconds ?? 0,
  };
  if (store.kind === "memory") return new RateLimiterMemory(common);
  return new RateLimiterPostgres({
    ...common,
    storeClient: store.pool,
    storeType: "pool",
    tableName: RATE_LIMIT_TABLE,
    // The table comes from our migrations, not from the library at run time.
    tableCreated: true,
    clearExpiredByTimeout: false,
  });
}

/** The outcome of `consume`: allowed, or refused with the wait in whole seconds (≥ 1). */
export type LimitOutcome = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Takes `points` from `key`.
 * @throws the store's error (not a refusal) when the database cannot be reached.
 */
export async function consume(limiter: RateLimiterAbstract, key: string, points = 1): Promise<LimitOutcome> {
  try {
    await limiter.consume(key, points);
    return { allowed: true };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return { allowed: false, retryAfterSeconds: retryAfter(rejection) };
    throw rejection;
  }
}

/**
 * Whether `key` has already used up its points, without spending one (for
 * limits that count failures only: check first, `penalise` after a failure).
 */
export async function exhausted(limiter: RateLimiterAbstract, key: string): Promise<LimitOutcome> {
  const state = await limiter.get(key);
  if (state && state.consumedPoints >= limiter.points) return { allowed: false, retryAfterSeconds: retryAfter(state) };
  return { allowed: true };
}

/** Counts one failure against `key`; a refusal is not an error here (the key is already exhausted). */
export async function penalise(limiter: RateLimiterAbstract, key: string): Promise<void> {
  await consume(limiter, key);
}

function retryAfter(state: RateLimiterRes): number {
  return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
}

/**
 * The key of a per-address limit for IP address `ip` (issue 37 §10): an IPv4 address (also written as IPv6,
 * `::ffff:a.b.c.d`) as is; an IPv6 address by its /64 network, since one subscriber gets a whole /64 and could
 * otherwise use a new address for every try (as rate-limiting libraries advise). Anything unreadable: as given.
 */
export function ipLimitKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const parsed = ipaddr.parse(ip);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  const parts = v6.parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(":")}::/64`;
}

/** A stable key for personal data (e-mail): the limit works, the table holds no address. */
export function hashKey(value: string): string {
  return createHash("sha256").update(value.trim().toLowerCase()).digest("base64url").slice(0, 32);
}
