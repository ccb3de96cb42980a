/**
 * One desktop app's `/device` connection (issues 15, 26, 28 §1): what the
 * app sends, checked before it costs anything.
 *
 * - Every event but picture frames spends the connection's event budget
 *   (`DeviceEventBudget`) before its handler runs; past it the event is
 *   dropped, never queued, and the refusals are logged as one line a minute
 *   under fixed keys (the event's name when it is one of the protocol's, else
 *   `autre`: issue 37 §5, a flood of random names wrote 13 810 attacker-chosen
 *   keys in one line); refusals spend their own budget
 *   (`REFUSALS_BEFORE_DISCONNECT`, refilled `REFUSALS_FORGIVEN_PER_SECOND`),
 *   and once it is spent the connection is closed, whatever was accepted in
 *   between (issue 37 §5: "200 in a row" let a flood through that passed one
 *   frame now and then).
 * - `device:status`: the same state twice is neither written nor pushed;
 *   one write at a time, and while it runs only the latest status waits.
 * - `device:consent`: control and/or view, written and pushed only on a change.
 * - `device:leave`: the customer stopped the app; it is unpaired at once.
 * - `device:frame`: checked (schema, size), counted in the connection's
 *   frame budget and the session's byte budget (`SCREEN_LIMITS`), then
 *   relayed, in order, to the joined technician only while the session may
 *   be seen (`ControlState.viewing`). Nothing of the picture is stored.
 */
import type { Logger } from "pino";
import type { Socket } from "socket.io";
import {
  DeviceStatus,
  type DeviceToServerEvents,
  type ServerToDeviceEvents,
} from "#app/remote-support/device-protocol.ts";
import { DeviceConsentBody, frameBytes, SCREEN_LIMITS, ScreenFrame } from "#app/remote-support/screen-protocol.ts";
import type { DeviceIdentity, DeviceService } from "./device-service.ts";
import { storableStrings } from "./device-state.ts";
import { sharedRefusalLog } from "#server/refusal-log.ts";
import { TokenBucket, type DeviceEventBudget } from "./limits.ts";

/**
 * Refusals after which the app's connection is closed (issue 28 §1), forgiven at `REFUSALS_FORGIVEN_PER_SECOND`
 * (issue 37 §5: counted whatever is accepted in between). The real app stays within its budget (a status on
 * change, a frame when acknowledged): only a broken or hostile client gets here.
 */
export const REFUSALS_BEFORE_DISCONNECT = 200;
/** Refusals a connection is forgiven per second: past this rate for 10 s or so, it is closed. */
export const REFUSALS_FORGIVEN_PER_SECOND = 20;

/** The protocol's event names: the only keys a refusal is logged under (others are `autre`). */
const DEVICE_EVENTS: ReadonlySet<string> = new Set<keyof DeviceToServerEvents>([
  "device:status",
  "device:consent",
  "device:frame",
  "device:leave",
  "device:clipboard",
  "device:resume-ticket",
  "device:elevation",
  "device:chat",
  "device:file",
]);

export type AppSocket = Socket<DeviceToServerEvents, ServerToDeviceEvents, object, DeviceIdentity>;

/** Frames of one connection waiting for their turn to be relayed; past it a frame is dropped (the app paces itself far below). */
const MAX_PENDING_FRAMES = 8;

export type DeviceSocketOptions = {
  devices: DeviceService;
  logger: Logger;
  eventBudget: DeviceEventBudget;
  frameBudget: DeviceEventBudget;
  /** The byte budget of the session (shared by its app's connections), or null when none is left to track. */
  sessionBytes: (sessionId: string) => TokenBucket;
  /** Relays a checked frame to the technician (`device-realtime.ts`). */
  relayFrame: (identity: DeviceIdentity, frame: ScreenFrame, technicianId: string) => void;
};

/**
 * Wires the handlers of one authenticated app socket (see the module comment). Returns `refuse`, which logs a
 * refusal under a fixed reason and spends the socket's refusal budget (closing it past that), for the guards
 * added after this one (`guardPairing`).
 */
export function handleDeviceSocket(
  socket: AppSocket,
  options: DeviceSocketOptions,
): { refuse: (reason: string) => void } {
  const { devices, logger } = options;
  const identity = { ...socket.data };
  const events = new TokenBucket(options.eventBudget.burst, options.eventBudget.perSecond);
  const frames = new TokenBucket(options.frameBudget.burst, options.frameBudget.perSecond);
  const bytes = options.sessionBytes(identity.sessionId);
  const refusals = sharedRefusalLog(logger, "logiciel de bureau : événements refusés (budget dépassé)");
  const failed = (what: string) => (error: unknown) => logger.error({ err: error }, what);

  // Each refusal is cheap, but Socket.IO still decodes every packet a flooder sends: 10 000 of them held another
  // user's request for 100+ ms. Past its refusal budget the connection is closed, and the rest of the flood is
  // never decoded.
  const forgiven = new TokenBucket(REFUSALS_BEFORE_DISCONNECT, REFUSALS_FORGIVEN_PER_SECOND);
  let closed = false;
  const refuse = (reason: string) => {
    refusals(reason);
    if (!closed && !forgiven.take()) {
      closed = true;
      refusals("connexion fermée");
      socket.disconnect(true);
    }
  };
  socket.use(([event], next) => {
    if (event === "device:frame") {
      if (!frames.take()) return refuse("frame-rate");
      // Issue 38 §2: a file's chunks and acknowledgements have their own budget (`file-relay.ts`), far above events'.
    } else if (event !== "device:file" && !events.take())
      return refuse(typeof event === "string" && DEVICE_EVENTS.has(event) ? event : "autre");
    next();
  });

  let lastStatus = "";
  let writing = false;
  let waiting: DeviceStatus | null = null;
  const writeStatus = (status: DeviceStatus): void => {
    writing = true;
    devices
      .deviceStatus(identity, status)
      .catch(failed("logiciel de bureau : état non enregistré"))
      .finally(() => {
        writing = false;
        const next = waiting;
        waiting = null;
        if (next) writeStatus(next);
      });
  };
  socket.on("device:status", (status) => {
    const checked = DeviceStatus.safeParse(status);
    if (!checked.success || !storableStrings(checked.data)) return;
    const serialized = JSON.stringify(checked.data);
    if (serialized === lastStatus) return;
    lastStatus = serialized;
    if (writing) waiting = checked.data;
    else writeStatus(checked.data);
  });

  socket.on("device:consent", (body) => {
    const checked = DeviceConsentBody.safeParse(body);
    if (!checked.success) return;
    devices.deviceConsent(identity, checked.data).catch(failed("logiciel de bureau : consentement non enregistré"));
  });

  socket.on("device:leave", () => {
    devices.deviceLeft(identity).catch(failed("logiciel de bureau : départ non enregistré"));
  });

  let pending = 0;
  let previous: Promise<void> = Promise.resolve();
  socket.on("device:frame", (frame) => {
    const checked = ScreenFrame.safeParse(frame);
    if (!checked.success) return refusals("frame-invalid");
    const size = frameBytes(checked.data);
    if (size > SCREEN_LIMITS.frameBytes) return refusals("frame-size");
    if (pending >= MAX_PENDING_FRAMES) return refusals("frame-pending");
    if (!bytes.take(size)) return refusals("frame-bytes");
    pending += 1;
    previous = previous.then(async () => {
      try {
        const state = await devices.controlState(identity.code);
        if (state?.pairingId === identity.pairingId && state.viewing && state.technicianId)
          options.relayFrame(identity, checked.data, state.technicianId);
      } catch (error) {
        failed("logiciel de bureau : image non relayée")(error);
      } finally {
        pending -= 1;
      }
    });
  });
  return { refuse };
}
