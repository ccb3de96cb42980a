/**
 * Issue 37 §2, the app link's budgets per pairing rather than per socket (`device-realtime.ts` wires it): one token
 * opened 11 sockets and relayed 1 073 frames/s (budget 60/s), and the session's byte bucket died with its last
 * socket (connect, send, close, repeat: 57.7 MB in 6.3 s where 25 MB should pass).
 *
 * - Connections are counted in the `/device` middleware, before the token costs a query: per address
 *   (`perAddress`) and per token (`perToken`), token buckets (a burst, then per second); past either the handshake
 *   is refused with `DEVICE_LINK_MESSAGES.tooManyConnections` (French, the app shows it).
 * - Per pairing: a frame budget and an event budget (`frames`, `events`), besides each socket's own
 *   (`device-socket.ts`); per session: the byte budget (`SCREEN_LIMITS`). All of them outlive the sockets:
 *   forgotten only `keepMs` after the last socket of their pairing (session) left, so reconnecting refills nothing.
 * - Maps are bounded (`MAX_LINK_KEYS` each): idle entries go first, then the oldest.
 * This process's memory only: with several processes a pairing has its one live socket on one of them
 * (`device-realtime.ts` disconnects the others), and the connection rates count per process.
 */
import { createHash } from "node:crypto";
import { SCREEN_LIMITS } from "#app/remote-support/screen-protocol.ts";
import { TokenBucket, type DeviceEventBudget } from "./limits.ts";

/** The French refusal of a handshake past a connection rate (`connect_error`). */
export const DEVICE_LINK_MESSAGES = {
  tooManyConnections: "Trop de connexions du logiciel en peu de temps : patientez une minute puis relancez-le.",
} as const;

/**
 * Issue 37 §2: connection rates (`perToken`, `perAddress`: connections, a burst then per second), and how long a
 * pairing's budgets outlive its last socket (`keepMs`, ms). The real app connects once, and again after a network
 * loss (Socket.IO backs off 1 to 5 s): 10 at once then one every 6 s per token never refuse it. Per address the
 * limit is only a backstop, 600 at once then 10 a second: the address is the connection's (a reverse proxy's
 * for every app behind it, `TRUST_PROXY` is not applied to Socket.IO handshakes yet), and every app reconnects at
 * once after a server restart, which the app takes as final if refused. 916 connect/close cycles of one token in
 * 5 s become 10 or so.
 */
export type DeviceLinkLimits = { perToken: DeviceEventBudget; perAddress: DeviceEventBudget; keepMs: number };
export const DEFAULT_DEVICE_LINK_LIMITS: DeviceLinkLimits = {
  perToken: { burst: 10, perSecond: 1 / 6 },
  perAddress: { burst: 600, perSecond: 10 },
  keepMs: 60_000,
};

/** Entries kept at most in each map of one process (connection rates, pairings, sessions). */
export const MAX_LINK_KEYS = 10_000;

type Kept<T> = { value: T; sockets: number; lastUsed: number };

/** A bounded map whose entries live while in use, and `keepMs` after their last user left. */
class KeptMap<T> {
  private readonly entries = new Map<string, Kept<T>>();
  private readonly keepMs: number;
  private readonly now: () => number;
  constructor(keepMs: number, now: () => number) {
    this.keepMs = keepMs;
    this.now = now;
  }

  private sweep(at: number): void {
    for (const [key, entry] of this.entries)
      if (entry.sockets <= 0 && at - entry.lastUsed >= this.keepMs) this.entries.delete(key);
    for (const key of this.entries.keys()) {
      if (this.entries.size < MAX_LINK_KEYS) break;
      this.entries.delete(key);
    }
  }

  /** The entry of `key`, created by `create` when absent or forgotten; moved to the newest end. */
  get(key: string, create: () => T): Kept<T> {
    const at = this.now();
    let entry = this.entries.get(key);
    if (entry && entry.sockets <= 0 && at - entry.lastUsed >= this.keepMs) entry = undefined;
    this.entries.delete(key);
    if (!entry) {
      if (this.entries.size >= MAX_LINK_KEYS) this.sweep(at);
      entry = { value: create(), sockets: 0, lastUsed: at };
    }
    entry.lastUsed = at;
    this.entries.set(key, entry);
    return entry;
  }

  /** A user of `key` left: its entry is kept `keepMs` after the last one. */
  release(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    entry.sockets = Math.max(0, entry.sockets - 1);
    entry.lastUsed = this.now();
  }

  get size(): number {
    return this.entries.size;
  }
}

export type DeviceLinksOptions = {
  limits?: DeviceLinkLimits;
  /** Per pairing, across its sockets (`DEFAULT_FRAME_BUDGET`, `DEFAULT_DEVICE_EVENT_BUDGET`). */
  frameBudget: DeviceEventBudget;
  eventBudget: DeviceEventBudget;
  /** The clock, ms (`performance.now` by default). */
  now?: () => number;
};

/** One pairing's budgets, shared by its sockets. */
export type PairingBudgets = { frames: TokenBucket; events: TokenBucket };

export type DeviceLinks = {
  /** Counts a handshake of `token` from `address`. @returns null, or the French refusal. */
  admit(token: string, address: string): string | null;
  /** A socket of `pairingId` (session `sessionId`) connected: its pairing's budgets, and the session's bytes. */
  attach(pairingId: string, sessionId: string): { pairing: PairingBudgets; bytes: TokenBucket };
  /** That socket left: the budgets are kept `keepMs` after the last one. */
  detach(pairingId: string, sessionId: string): void;
  /** Pairings and sessions tracked (tests). */
  size(): { pairings: number; sessions: number };
};

/** The link budgets of one `/device` namespace (see the module comment). */
export function createDeviceLinks(options: DeviceLinksOptions): DeviceLinks {
  const limits = options.limits ?? DEFAULT_DEVICE_LINK_LIMITS;
  const now = options.now ?? (() => performance.now());
  // A connection rate refills its whole burst within this time: an idle key is worth nothing after it.
  const rateKeep = (budget: DeviceEventBudget) => (budget.burst / budget.perSecond) * 1000;
  const tokens = new KeptMap<TokenBucket>(rateKeep(limits.perToken), now);
  const addresses = new KeptMap<TokenBucket>(rateKeep(limits.perAddress), now);
  const pairings = new KeptMap<PairingBudgets>(limits.keepMs, now);
  const sessions = new KeptMap<TokenBucket>(limits.keepMs, now);
  const bucket = (budget: DeviceEventBudget) => () => new TokenBucket(budget.burst, budget.perSecond, now);

  return {
    admit(token, address) {
      // The token's hash only: no secret kept in memory.
      const key = createHash("sha256").update(token).digest("base64url");
      const byAddress = addresses.get(address, bucket(limits.perAddress)).value;
      if (!byAddress.take()) return DEVICE_LINK_MESSAGES.tooManyConnections;
      if (!tokens.get(key, bucket(limits.perToken)).value.take()) return DEVICE_LINK_MESSAGES.tooManyConnections;
      return null;
    },
    attach(pairingId, sessionId) {
      const pairing = pairings.get(pairingId, () => ({
        frames: bucket(options.frameBudget)(),
        events: bucket(options.eventBudget)(),
      }));
      const bytes = sessions.get(
        sessionId,
        () => new TokenBucket(SCREEN_LIMITS.sessionBurstBytes, SCREEN_LIMITS.sessionBytesPerSecond, now),
      );
      pairing.sockets += 1;
      bytes.sockets += 1;
      return { pairing: pairing.value, bytes: bytes.value };
    },
    detach(pairingId, sessionId) {
      pairings.release(pairingId);
      sessions.release(sessionId);
    },
    size: () => ({ pairings: pairings.size, sessions: sessions.size }),
  };
}

/** What `guardPairing` needs of an app socket. */
type GuardedSocket = {
  use(middleware: (packet: unknown[], next: (error?: Error) => void) => void): unknown;
};

/**
 * Issue 37 §2: every event of `socket` also spends its pairing's budget (frames or other events), after the
 * socket's own middleware (`device-socket.ts`, registered first); past it the event is dropped and `refuse` told
 * a fixed reason (`pairing-frame-rate`, `pairing-events`). `refuse` is the socket's own (`handleDeviceSocket`'s):
 * these refusals spend the same refusal budget as the socket's, so a flood that passes one event now and then
 * is closed all the same (§5).
 */
export function guardPairing(socket: GuardedSocket, budgets: PairingBudgets, refuse: (reason: string) => void): void {
  socket.use(([event], next) => {
    // Issue 38 §2: files are paced by their window and budgeted per socket in `file-relay.ts`.
    if (event === "device:file") return next();
    const frame = event === "device:frame";
    if ((frame ? budgets.frames : budgets.events).take()) return next();
    refuse(frame ? "pairing-frame-rate" : "pairing-events");
  });
}
