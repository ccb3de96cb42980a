/**
 * Issue 37 §1, the last checks of the app's picture before it reaches the technician (`screen-protocol.ts`,
 * step 4), per pairing, after those of `device-socket.ts` (schema, size, the session's bytes): a hostile app
 * stayed inside every byte budget with 112 KB JPEGs that decode to 7 600 × 7 600 px, and froze the technician's tab.
 *
 * A frame is relayed only when, in this order:
 * - its content is sound (`frameProblem`): every rectangle inside the picture, every JPEG's SOF size equal to its
 *   rectangle (refusal `frame-outside`, `frame-jpeg`);
 * - fewer than `SCREEN_LIMITS.framesInFlight` frames of the pairing were relayed and not yet acknowledged
 *   (`frame-in-flight`). An acknowledgement is seen as the `device:ack` the app's socket is sent, from whichever
 *   server process the technician's socket lives on (`onAnyOutgoing`, the adapter delivers there); a frame
 *   unacknowledged for `SCREEN_LIMITS.serverAckTimeoutMs` is forgotten (the app counts it lost later), and so are
 *   all of them when the app is told to stop streaming (`device:screen` inactive: it forgets them too);
 * - its decoded pixels (`framePixels`) fit the pairing's budget (`pairingPixelsPerSecond`, burst
 *   `pairingBurstPixels`; `frame-pixels`).
 * Refusals are counted in the app link's refusal log (one line a minute); a refused frame is never acknowledged.
 * The state of a pairing outlives its sockets (a reconnection does not refill the budget), and pairings idle for
 * `IDLE_PAIRING_MS` are forgotten, at most `MAX_PAIRINGS` kept.
 */
import type { Logger } from "pino";
import { framePixels, frameProblem, SCREEN_LIMITS, type ScreenFrame } from "#app/remote-support/screen-protocol.ts";
import { sharedRefusalLog, type RefusalLog } from "#server/refusal-log.ts";
import type { DeviceIdentity } from "./device-service.ts";
import { TokenBucket } from "./limits.ts";

/** A pairing without any frame or acknowledgement this long is forgotten, ms. */
export const IDLE_PAIRING_MS = 60_000;
/** Pairings tracked at most by one process (past it, idle ones go first, then the oldest). */
export const MAX_PAIRINGS = 10_000;
/** The refusal log shared with `device-socket.ts`: one summary line for every refusal of the app link. */
export const APP_REFUSALS_MESSAGE = "logiciel de bureau : événements refusés (budget dépassé)";

type PairingState = {
  pixels: TokenBucket;
  /** Relayed and unacknowledged frames: seq → when relayed (ms), in relay order. */
  inFlight: Map<number, number>;
  lastUsed: number;
};

export type ScreenGateOptions = {
  logger: Logger;
  /** The clock, ms (`performance.now` by default). */
  now?: () => number;
};

export type ScreenGate = {
  /** Whether `frame` of `pairingId` may be relayed now; if so it counts as in flight and spends its pixels. */
  admit(pairingId: string, frame: ScreenFrame): boolean;
  /** The technician drew frame `seq` (and every frame relayed before it). */
  acknowledged(pairingId: string, seq: number): void;
  /** The app was told to stop streaming: it forgets its frames in flight, so does the gate. */
  stopped(pairingId: string): void;
  /** Pairings tracked (tests). */
  size(): number;
};

/** The gate of one server process (see the module comment). */
export function createScreenGate({ logger, now = () => performance.now() }: ScreenGateOptions): ScreenGate {
  const pairings = new Map<string, PairingState>();
  const refusals: RefusalLog = sharedRefusalLog(logger, APP_REFUSALS_MESSAGE);

  const sweep = (at: number) => {
    for (const [id, state] of pairings) if (at - state.lastUsed >= IDLE_PAIRING_MS) pairings.delete(id);
    // Still full: the least recently used go (a Map iterates in insertion order, `touch` re-inserts).
    for (const id of pairings.keys()) {
      if (pairings.size < MAX_PAIRINGS) break;
      pairings.delete(id);
    }
  };
  const stateOf = (pairingId: string, at: number): PairingState => {
    let state = pairings.get(pairingId);
    if (state) pairings.delete(pairingId);
    else {
      if (pairings.size >= MAX_PAIRINGS) sweep(at);
      const bucket = new TokenBucket(SCREEN_LIMITS.pairingBurstPixels, SCREEN_LIMITS.pairingPixelsPerSecond, now);
      state = { pixels: bucket, inFlight: new Map(), lastUsed: at };
    }
    state.lastUsed = at;
    pairings.set(pairingId, state);
    return state;
  };

  return {
    admit(pairingId, frame) {
      const problem = frameProblem(frame);
      if (problem) {
        refusals(`frame-${problem}`);
        return false;
      }
      const at = now();
      const state = stateOf(pairingId, at);
      for (const [seq, relayedAt] of state.inFlight) {
        if (at - relayedAt >= SCREEN_LIMITS.serverAckTimeoutMs) state.inFlight.delete(seq);
      }
      if (state.inFlight.size >= SCREEN_LIMITS.framesInFlight) {
        refusals("frame-in-flight");
        return false;
      }
      if (!state.pixels.take(framePixels(frame))) {
        refusals("frame-pixels");
        return false;
      }
      state.inFlight.delete(frame.seq); // a seq reused (after 2³¹) goes to the end
      state.inFlight.set(frame.seq, at);
      return true;
    },
    acknowledged(pairingId, seq) {
      const state = pairings.get(pairingId);
      if (!state?.inFlight.has(seq)) return;
      for (const relayed of state.inFlight.keys()) {
        state.inFlight.delete(relayed);
        if (relayed === seq) break;
      }
      state.lastUsed = now();
    },
    stopped(pairingId) {
      pairings.get(pairingId)?.inFlight.clear();
    },
    size: () => pairings.size,
  };
}

/** What `gateFrames` needs of an app socket. */
type WatchedSocket = {
  data: Pick<DeviceIdentity, "pairingId">;
  nsp: object;
  onAnyOutgoing(listener: (event: string, ...args: unknown[]) => void): unknown;
};
type Relay = (from: DeviceIdentity, frame: ScreenFrame, technicianId: string) => void;

/** One gate per `/device` namespace (so per server instance, tests included). */
const gates = new WeakMap<object, ScreenGate>();

/**
 * The wiring of `device-realtime.ts` in one call: watches the `device:ack` and `device:screen` that app `socket`
 * is sent, and returns `relay` guarded by the namespace's gate (created on first use).
 */
export function gateFrames(socket: WatchedSocket, logger: Logger, relay: Relay): Relay {
  let gate = gates.get(socket.nsp);
  if (!gate) gates.set(socket.nsp, (gate = createScreenGate({ logger })));
  const pairingId = socket.data.pairingId;
  const watched = gate;
  socket.onAnyOutgoing((event, payload) => {
    if (event === "device:ack" && typeof payload === "number") watched.acknowledged(pairingId, payload);
    else if (event === "device:screen" && (payload as { active?: unknown } | null)?.active === false)
      watched.stopped(pairingId);
  });
  return (from, frame, technicianId) => {
    if (watched.admit(from.pairingId, frame)) relay(from, frame, technicianId);
  };
}
