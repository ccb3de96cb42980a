/**
 * The budgets of remote support (issue 13 §3 signaling floods, §8 session
 * codes; issue 28 §7 unknown codes, §8 recorded events), their defaults and
 * the small local token bucket; enforced by `sessions.ts` (codes, joins,
 * creations, per-session signaling, events), `code-lookups.ts` (unknown
 * codes), `device-service.ts` (surfaces) and `realtime.ts` (per-connection
 * signaling).
 *
 * Signaling, measured in Chromium 150 on this project's machines: one peer
 * connection with a video track and the `control` data channel gathers 4 host
 * candidates (one IPv4 and one IPv6 address, two transports until BUNDLE is
 * negotiated); a customer's machine with Wi-Fi, Ethernet, a VPN, several IPv6
 * addresses, STUN and three TURN URLs multiplies that to a few dozen (≈ 50).
 * An offer is about 5 000 characters, a candidate about 290 bytes of JSON. The defaults
 * let a full gathering plus an ICE restart through at once, and refuse a
 * flood within its first second.
 */
import type { Env } from "#server/env.ts";

/** A count per window: `points` per `durationSeconds` and key. */
export type LimitRule = { points: number; durationSeconds: number };

/**
 * Issue 13 §8, per account (the `rate_limits` store: shared by server
 * processes on PostgreSQL). `joinFailures`: joins that did not connect (wrong,
 * expired, ended, taken code), reserved before the attempt so parallel
 * guesses count too; `joins`: every join attempt; `creations`: new sessions
 * (getting one's open session back does not count). Issue 28 §7,
 * `lookupFailures`: calls addressed to a session by code
 * (`/api/sessions/:code/…`) answered « Session non trouvée » (no such code, or
 * a session the caller takes no part in); past it, every such call of the
 * account is refused until the window ends (`code-lookups.ts`).
 */
export type SessionLimits = {
  joinFailures: LimitRule;
  joins: LimitRule;
  creations: LimitRule;
  lookupFailures: LimitRule;
};

export const DEFAULT_SESSION_LIMITS: SessionLimits = {
  joinFailures: { points: 10, durationSeconds: 600 },
  joins: { points: 60, durationSeconds: 3600 },
  creations: { points: 10, durationSeconds: 600 },
  // The pages only ask about sessions the caller takes part in, so a miss is rare (an address typed by hand, a session
  // purged by retention); 30 leave room for those and make walking 244 million codes hopeless.
  lookupFailures: { points: 30, durationSeconds: 600 },
};

/**
 * Issue 28 §8, per account and session (the `rate_limits` store), counted
 * before anything is stored, so requests sent in parallel count too; past it
 * 429 with `Retry-After`, never queued. `events`: what a participant adds to
 * the session's record (`POST /api/sessions/:code/events`: chat lines, sharing
 * and control toggles); a person types a few chat lines a minute and toggles
 * sharing or control a few times a session. `surfaces`: what the customer's
 * browser says it shares (`POST …/surface`), sent when sharing starts and
 * when the shared picture changes size, at most once a second
 * (`screen-share.tsx`): twice that, so that network jitter never refuses one
 * the page sent. The 600 events in 27 s of the attack are refused after the
 * first 60.
 */
export type SessionEventBudgets = { events: LimitRule; surfaces: LimitRule };
export const DEFAULT_SESSION_EVENT_BUDGETS: SessionEventBudgets = {
  events: { points: 60, durationSeconds: 60 },
  surfaces: { points: 120, durationSeconds: 60 },
};

/**
 * Issue 26, per IP address (the `rate_limits` store): sessions the desktop app starts without an account
 * (`SESSION_APP_CREATE_LIMIT` per `SESSION_APP_CREATE_WINDOW_S`). Counted before creating, so parallel requests
 * count too; a customer who restarts the app a few times in an hour stays far under it.
 */
export const DEFAULT_APP_SESSION_LIMIT: LimitRule = { points: 5, durationSeconds: 3600 };

/** Issue 13 §8: a session nobody joined within this time can no longer be joined, seconds (`SESSION_CODE_TTL_S`). */
export const DEFAULT_CODE_TTL_SECONDS = 1800;

/**
 * Issue 13 §3, per session, counted in the `signaling` table itself (shared
 * by every server process, exact, in the statement that stores the signal):
 * - `messagesPerWindow` signals stored per sender within the last `windowSeconds`;
 * - `maxStoredBytes`: bytes of JSON stored for the whole session (both
 *   sides), until it ends and its rows are deleted.
 */
export type SessionSignalBudget = { messagesPerWindow: number; windowSeconds: number; maxStoredBytes: number };

export const DEFAULT_SESSION_SIGNAL_BUDGET: SessionSignalBudget = {
  messagesPerWindow: 300,
  windowSeconds: 60,
  // ≈ 13 complete negotiations of 50 candidates each way, or 100 of the usual size; far under 1 MB.
  maxStoredBytes: 512 * 1024,
};

/**
 * Issue 13 §3, per Socket.IO connection, in this process's memory: token
 * buckets of messages and bytes (`burst*` at once, refilled at `*PerSecond`),
 * and at most `maxPending` signals waiting for their turn (one at a time per
 * connection, in order); past any of them a signal is refused at once.
 */
export type SocketSignalBudget = {
  burstMessages: number;
  messagesPerSecond: number;
  burstBytes: number;
  bytesPerSecond: number;
  maxPending: number;
};

export const DEFAULT_SOCKET_SIGNAL_BUDGET: SocketSignalBudget = {
  // A full gathering of a few dozen candidates, its offer, and an ICE restart soon after.
  burstMessages: 100,
  messagesPerSecond: 10,
  // Above the largest message (128 KB): a 64 KB offer always fits in a full bucket.
  burstBytes: 256 * 1024,
  bytesPerSecond: 64 * 1024,
  // A browser sends candidates without waiting for acknowledgements: a burst of host candidates must fit.
  maxPending: 32,
};

/**
 * A token bucket: holds at most `capacity` tokens, refilled continuously at
 * `perSecond`; `take(n)` spends `n` when there are that many.
 * `now` (ms, monotonic) is injectable for tests.
 */
export class TokenBucket {
  private readonly capacity: number;
  private readonly perSecond: number;
  private readonly now: () => number;
  private tokens: number;
  private last: number;

  constructor(capacity: number, perSecond: number, now: () => number = () => performance.now()) {
    this.capacity = capacity;
    this.perSecond = perSecond;
    this.now = now;
    this.tokens = capacity;
    this.last = now();
  }

  /** Spends `amount` tokens if available. @returns whether they were. */
  take(amount = 1): boolean {
    const now = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens < amount) return false;
    this.tokens -= amount;
    return true;
  }
}

/** The limits of issue 13 §8, issue 26 and issue 28 §7 as configured (`SESSION_*` variables, see `.env.example`). */
export function sessionLimitsFromEnv(env: Env): {
  codeTtlSeconds: number;
  limits: SessionLimits;
  appSessionLimit: LimitRule;
} {
  return {
    codeTtlSeconds: env.SESSION_CODE_TTL_S,
    limits: {
      joinFailures: { points: env.SESSION_JOIN_FAILURE_LIMIT, durationSeconds: env.SESSION_JOIN_FAILURE_WINDOW_S },
      joins: { points: env.SESSION_JOIN_LIMIT, durationSeconds: env.SESSION_JOIN_WINDOW_S },
      creations: { points: env.SESSION_CREATE_LIMIT, durationSeconds: env.SESSION_CREATE_WINDOW_S },
      lookupFailures: {
        points: env.SESSION_LOOKUP_FAILURE_LIMIT,
        durationSeconds: env.SESSION_LOOKUP_FAILURE_WINDOW_S,
      },
    },
    appSessionLimit: { points: env.SESSION_APP_CREATE_LIMIT, durationSeconds: env.SESSION_APP_CREATE_WINDOW_S },
  };
}

/**
 * Issue 28 §1: the budget of one desktop app's connection for everything but
 * picture frames (`device:status`, `device:consent`, unknown events): a
 * burst, then a steady rate, events. The app sends its status on every
 * (re)connection and when something changed (read every 5 s), and consent
 * when the customer acts: far under it.
 */
export type DeviceEventBudget = { burst: number; perSecond: number };
export const DEFAULT_DEVICE_EVENT_BUDGET: DeviceEventBudget = { burst: 20, perSecond: 1 };

/**
 * Issue 26: picture frames per app connection (a burst, then per second),
 * besides the session's byte budget (`SCREEN_LIMITS`). 20 frames a second of
 * a fast-changing screen, each picture split in up to a few frames.
 */
export const DEFAULT_FRAME_BUDGET: DeviceEventBudget = { burst: 120, perSecond: 60 };
