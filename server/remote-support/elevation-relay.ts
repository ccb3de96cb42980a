/**
 * Issue 36 §4, « Past UAC » (`elevation-protocol.ts`), on the Socket.IO server of `device-realtime.ts`:
 *
 * - Browser `device:elevate` (`ElevateRequest`): the session's joined technician only, within a small budget per
 *   socket (each request opens a question on the customer's screen); the app must be paired, connected, on
 *   Windows and not elevated already. Then `device:elevate` to the app's room; acknowledged `ElevateAck`.
 * - App `device:resume-ticket`: a single-use ticket for this app's session and pairing
 *   (`DeviceService.issueResumeTicket`), in the acknowledgement only: never logged, never stored in clear.
 * - App `device:elevation` (`ElevationReport`): what became of the request; a request that went nowhere voids
 *   its ticket, and the technician is told (browser `device:elevation`, sent by `device-realtime.ts`).
 * The app's events are already within its connection's event budget (`device-socket.ts`).
 */
import type { Logger } from "pino";
import type { Socket } from "socket.io";
import type { ClientToServerEvents, ServerToClientEvents } from "#app/remote-support/protocol.ts";
import { normalizeSessionCode } from "#app/remote-support/protocol.ts";
import {
  ELEVATION_MESSAGES,
  ElevateRequest,
  ElevationReport,
  type ElevateAck,
  type ElevationOutcome,
  type ResumeTicketAck,
} from "#app/remote-support/elevation-protocol.ts";
import { DEVICE_MESSAGES } from "#app/remote-support/device-protocol.ts";
import { can, type Caller } from "#server/access.ts";
import { sharedRefusalLog } from "#server/refusal-log.ts";
import type { DeviceService } from "./device-service.ts";
import type { AppSocket } from "./device-socket.ts";
import { TokenBucket } from "./limits.ts";

type BrowserSocket = Socket<ClientToServerEvents, ServerToClientEvents, object, { caller: Caller }>;

/** Requests per technician socket: a few in a row, then one every 10 s (the customer answers each one). */
const ELEVATE_BUDGET = { burst: 3, perSecond: 0.1 } as const;

/** What a technician may ask, and whom it reaches. */
export type ElevationRelayOptions = {
  devices: DeviceService;
  logger: Logger;
  /** Emits `device:elevate` to the app of `pairingId` (its room, in whichever process it is connected). */
  toApp(pairingId: string): void;
};

/** Adds `device:elevate` to a signed-in browser socket (see the module comment). */
export function attachElevationHandlers(socket: BrowserSocket, options: ElevationRelayOptions): void {
  const { devices, logger } = options;
  const budget = new TokenBucket(ELEVATE_BUDGET.burst, ELEVATE_BUDGET.perSecond);
  const refusals = sharedRefusalLog(logger, "relance en administrateur : demandes refusées (budget dépassé)");

  /** Whether the request may go to the app; the French reason otherwise. */
  const check = async (code: string): Promise<{ ok: true; pairingId: string } | { ok: false; message: string }> => {
    const caller = socket.data.caller;
    const state = await devices.controlState(normalizeSessionCode(code));
    if (!state || state.technicianId !== caller.userId || !can(caller, "session:join"))
      return { ok: false, message: DEVICE_MESSAGES.controlRefused };
    const snapshot = await devices.snapshot(state.sessionId);
    const device = snapshot?.device;
    if (!snapshot || snapshot.ended || !device?.pairingId) return { ok: false, message: DEVICE_MESSAGES.notPaired };
    if (!snapshot.deviceConnected) return { ok: false, message: DEVICE_MESSAGES.deviceGone };
    // Only Windows has UAC; an app already elevated (or older than issue 36: null) has nothing to gain.
    if (device.platform !== "windows" || device.elevated !== false)
      return { ok: false, message: ELEVATION_MESSAGES.notPossible };
    return { ok: true, pairingId: device.pairingId };
  };

  socket.on("device:elevate", (request, ack) => {
    const reply = (result: ElevateAck) => {
      if (typeof ack === "function") ack(result);
    };
    if (!budget.take()) {
      refusals("elevate");
      return reply({ ok: false, message: DEVICE_MESSAGES.tooMuchInput });
    }
    const checked = ElevateRequest.safeParse(request);
    if (!checked.success) return reply({ ok: false, message: DEVICE_MESSAGES.badBody });
    check(checked.data.code)
      .then((result) => {
        if (!result.ok) return reply(result);
        options.toApp(result.pairingId);
        reply({ ok: true });
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, "relance en administrateur : demande non relayée");
        reply({ ok: false, message: ELEVATION_MESSAGES.notPossible });
      });
  });
}

/**
 * Adds `device:resume-ticket` and `device:elevation` to an authenticated app socket (see the module comment).
 */
export function handleElevationSocket(
  socket: AppSocket,
  options: {
    devices: DeviceService;
    logger: Logger;
    /** Tells the session's joined technician what became of the request (`device-realtime.ts`). */
    tellTechnician(sessionId: string, outcome: ElevationOutcome): Promise<void>;
  },
): void {
  const { devices, logger } = options;
  const identity = { ...socket.data };

  socket.on("device:resume-ticket", (ack) => {
    if (typeof ack !== "function") return;
    devices.issueResumeTicket(identity).then(
      (result) =>
        ack(
          result.ok
            ? ({ ok: true, ticket: result.ticket, expiresAt: result.expiresAt.toISOString() } as ResumeTicketAck)
            : { ok: false, message: result.message },
        ),
      () => ack({ ok: false, message: ELEVATION_MESSAGES.notPossible }),
    );
  });

  socket.on("device:elevation", (report) => {
    const checked = ElevationReport.safeParse(report);
    if (!checked.success) return;
    const { outcome } = checked.data;
    // A request that went nowhere leaves no ticket behind; a started one is redeemed (or expires) in 2 minutes.
    const dropped = outcome === "started" ? Promise.resolve() : devices.dropResumeTickets(identity);
    dropped
      .then(() => options.tellTechnician(identity.sessionId, outcome))
      .catch((error: unknown) => logger.error({ err: error }, "relance en administrateur : issue non transmise"));
  });
}
