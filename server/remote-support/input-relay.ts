/**
 * Issue 15, the technician's mouse and keyboard on their way to the app (`device-protocol.ts`): `input` from
 * a signed-in browser socket becomes `device:input` in the app's room. Checked on arrival, before any queue
 * or query, so a flood costs neither the database nor memory (issue 37): the sender's role (a technician),
 * the batch's shape and size, the session code's shape (no byte PostgreSQL refuses), the socket's event
 * budget (`INPUT_LIMITS`), at most `MAX_PENDING_BATCHES` waiting. Then, in arrival order (a click must not
 * overtake the move before it), the session's cached `ControlState`: only its joined technician, only while
 * control is active. A socket that relayed input and disconnects sends `device:release` (a browser closed
 * mid-drag leaves no button held).
 */
import type { Logger } from "pino";
import type { Socket } from "socket.io";
import {
  DEVICE_MESSAGES,
  INPUT_LIMITS,
  InputBatch,
  type InputAck,
  type InputEvent,
} from "#app/remote-support/device-protocol.ts";
import { SessionCode, type ClientToServerEvents, type ServerToClientEvents } from "#app/remote-support/protocol.ts";
import { can, type Caller } from "#server/access.ts";
import { sharedRefusalLog } from "#server/refusal-log.ts";
import type { DeviceService } from "./device-service.ts";
import { TokenBucket } from "./limits.ts";

type BrowserSocket = Socket<ClientToServerEvents, ServerToClientEvents, object, { caller: Caller }>;

/**
 * Batches admitted but not yet relayed, per socket (a burst while the session is read, ≤ 32 × `batchChars`):
 * past it, a batch is refused.
 */
export const MAX_PENDING_BATCHES = 32;

export type InputRelayOptions = {
  devices: DeviceService;
  logger: Logger;
  /** `device:input` to the app of `pairingId`, wherever it is connected. */
  sendInput(pairingId: string, batch: { events: InputEvent[]; screen: string | null }): void;
  /** `device:release` to the app of `pairingId`: it lets go of every key and button it holds. */
  release(pairingId: string): void;
};

/** Adds `input` and its release on disconnect to a signed-in browser socket (see the module comment). */
export function attachInputHandlers(socket: BrowserSocket, options: InputRelayOptions): void {
  const { devices, logger } = options;
  // Budget of this socket (issue 15): a 2 s burst, then `eventsPerSecond`.
  const bucket = new TokenBucket(INPUT_LIMITS.eventsPerSecond * 2, INPUT_LIMITS.eventsPerSecond);
  // A flood must not turn into a flood of logs: one summary line a minute for the whole process.
  const inputRefusals = sharedRefusalLog(logger, "contrôle : budget dépassé");
  /** Apps this socket sent input to: released if the socket goes. */
  const controlled = new Set<string>();
  let pending = 0;

  const admit = (batch: unknown): { ok: true; batch: InputBatch; code: string } | { ok: false; message: string } => {
    // A customer never controls anything: refused before any work.
    if (!can(socket.data.caller, "session:join")) return { ok: false, message: DEVICE_MESSAGES.controlRefused };
    const chars = JSON.stringify(batch ?? null)?.length ?? 0;
    if (chars > INPUT_LIMITS.batchChars) return { ok: false, message: DEVICE_MESSAGES.tooMuchInput };
    const checked = InputBatch.safeParse(batch);
    if (!checked.success) {
      const events = (batch as { events?: unknown } | null)?.events;
      const tooMany = Array.isArray(events) && events.length > INPUT_LIMITS.batchEvents;
      return { ok: false, message: tooMany ? DEVICE_MESSAGES.tooMuchInput : DEVICE_MESSAGES.controlRefused };
    }
    const code = SessionCode.safeParse(checked.data.code);
    if (!code.success) return { ok: false, message: DEVICE_MESSAGES.controlRefused };
    if (pending < MAX_PENDING_BATCHES && bucket.take(checked.data.events.length))
      return { ok: true, batch: checked.data, code: code.data };
    inputRefusals("input");
    return { ok: false, message: DEVICE_MESSAGES.tooMuchInput };
  };

  const forward = async (batch: InputBatch, code: string): Promise<InputAck> => {
    const state = await devices.controlState(code);
    const caller = socket.data.caller;
    // The joined technician only (not another technician), and only while control is active.
    if (!state || state.technicianId !== caller.userId || !can(caller, "session:join"))
      return { ok: false, message: DEVICE_MESSAGES.controlRefused };
    if (state.refusal !== null || !state.pairingId)
      return { ok: false, message: state.refusal ?? DEVICE_MESSAGES.notPaired };
    controlled.add(state.pairingId);
    options.sendInput(state.pairingId, { events: batch.events, screen: state.screen });
    return { ok: true };
  };

  let previous: Promise<void> = Promise.resolve();
  socket.on("input", (batch, ack) => {
    const reply = (result: InputAck) => {
      if (typeof ack === "function") ack(result);
    };
    const admitted = admit(batch);
    if (!admitted.ok) return reply(admitted);
    pending++;
    previous = previous.then(() =>
      forward(admitted.batch, admitted.code)
        .then(reply, (error: unknown) => {
          logger.error({ err: error }, "contrôle : événements non relayés");
          reply({ ok: false, message: DEVICE_MESSAGES.controlRefused });
        })
        .finally(() => pending--),
    );
  });
  socket.on("disconnect", () => {
    for (const pairingId of controlled) options.release(pairingId);
    controlled.clear();
  });
}
