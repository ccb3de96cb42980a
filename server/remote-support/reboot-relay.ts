/**
 * Issue 38 §3, « Reboot and reconnect » (`reboot-protocol.ts`), on the Socket.IO server of `device-realtime.ts`:
 *
 * - Browser `reboot:request` (`RebootRequest`): the session's joined technician only, within a small budget per
 *   socket (each request opens a question on the customer's screen); the app must be paired and connected, and no
 *   reboot already under way. Then `device:reboot` to the app's room; acknowledged `RebootAck`.
 * - App `device:reboot-ticket`: a single-use resume ticket valid `REBOOT_TICKET_TTL_S` for this app's session and
 *   pairing (`DeviceService.issueResumeTicket(…, "reboot")`), in the acknowledgement only: never logged, never
 *   stored in clear. Issuing it is announced: the technician's view says « Redémarrage en cours… ».
 * - App `device:reboot-report` (`RebootReport`): declined or failed voids the ticket (announced: the view says
 *   the picture again); restarting keeps it until it is redeemed or expires. The technician is told each outcome
 *   (`reboot:news`).
 * The app's events are already within its connection's event budget (`device-socket.ts`).
 */
import type { Logger } from "pino";
import type { Socket } from "socket.io";
import type { ClientToServerEvents, ServerToClientEvents } from "#app/remote-support/protocol.ts";
import { normalizeSessionCode } from "#app/remote-support/protocol.ts";
import { DEVICE_MESSAGES } from "#app/remote-support/device-protocol.ts";
import type { ResumeTicketAck } from "#app/remote-support/elevation-protocol.ts";
import {
  REBOOT_MESSAGES,
  RebootReport,
  RebootRequest,
  rebootMessage,
  type RebootAck,
  type RebootNews,
} from "#app/remote-support/reboot-protocol.ts";
import { can, type Caller } from "#server/access.ts";
import { sharedRefusalLog } from "#server/refusal-log.ts";
import type { DeviceService } from "./device-service.ts";
import type { AppSocket } from "./device-socket.ts";
import { TokenBucket } from "./limits.ts";

type BrowserSocket = Socket<ClientToServerEvents, ServerToClientEvents, object, { caller: Caller }>;

/** Requests per technician socket: a few in a row, then one every 10 s (the customer answers each one). */
const REBOOT_BUDGET = { burst: 3, perSecond: 0.1 } as const;

export type RebootRelayOptions = {
  devices: DeviceService;
  logger: Logger;
  /** Emits `device:reboot` to the app of `pairingId` (its room, in whichever process it is connected). */
  toApp(pairingId: string): void;
};

/** Adds `reboot:request` to a signed-in browser socket (see the module comment). */
export function attachRebootHandlers(socket: BrowserSocket, options: RebootRelayOptions): void {
  const { devices, logger } = options;
  const budget = new TokenBucket(REBOOT_BUDGET.burst, REBOOT_BUDGET.perSecond);
  const refusals = sharedRefusalLog(logger, "redémarrage de l'ordinateur : demandes refusées (budget dépassé)");

  /** Whether the request may go to the app; the French reason otherwise. */
  const check = async (code: string): Promise<{ ok: true; pairingId: string } | { ok: false; message: string }> => {
    const caller = socket.data.caller;
    const state = await devices.controlState(normalizeSessionCode(code));
    if (!state || state.technicianId !== caller.userId || !can(caller, "session:join"))
      return { ok: false, message: DEVICE_MESSAGES.controlRefused };
    const snapshot = await devices.snapshot(state.sessionId);
    const pairingId = snapshot?.device?.pairingId;
    if (!snapshot || snapshot.ended || !pairingId) return { ok: false, message: DEVICE_MESSAGES.notPaired };
    if (!snapshot.deviceConnected) return { ok: false, message: DEVICE_MESSAGES.deviceGone };
    if (snapshot.rebootUntil) return { ok: false, message: REBOOT_MESSAGES.restarting };
    return { ok: true, pairingId };
  };

  socket.on("reboot:request", (request, ack) => {
    const reply = (result: RebootAck) => {
      if (typeof ack === "function") ack(result);
    };
    if (!budget.take()) {
      refusals("reboot");
      return reply({ ok: false, message: DEVICE_MESSAGES.tooMuchInput });
    }
    const checked = RebootRequest.safeParse(request);
    if (!checked.success) return reply({ ok: false, message: DEVICE_MESSAGES.badBody });
    check(checked.data.code)
      .then((result) => {
        if (!result.ok) return reply(result);
        options.toApp(result.pairingId);
        reply({ ok: true });
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, "redémarrage de l'ordinateur : demande non relayée");
        reply({ ok: false, message: REBOOT_MESSAGES.notPossible });
      });
  });
}

/** Adds `device:reboot-ticket` and `device:reboot-report` to an authenticated app socket (see the module comment). */
export function handleRebootSocket(
  socket: AppSocket,
  options: {
    devices: DeviceService;
    logger: Logger;
    /** Sends `news` to the browsers of the technician `technicianId` (`reboot:news`). */
    toTechnician(technicianId: string, news: RebootNews): void;
  },
): void {
  const { devices, logger } = options;
  const identity = { ...socket.data };

  socket.on("device:reboot-ticket", (ack) => {
    if (typeof ack !== "function") return;
    devices.issueResumeTicket(identity, "reboot").then(
      (result) =>
        ack(
          result.ok
            ? ({ ok: true, ticket: result.ticket, expiresAt: result.expiresAt.toISOString() } as ResumeTicketAck)
            : { ok: false, message: result.message },
        ),
      () => ack({ ok: false, message: REBOOT_MESSAGES.notPossible }),
    );
  });

  socket.on("device:reboot-report", (report) => {
    const checked = RebootReport.safeParse(report);
    if (!checked.success) return;
    const { outcome } = checked.data;
    // A request that went nowhere leaves no ticket behind; a restart's is redeemed (or expires) in 15 minutes.
    const dropped = outcome === "restarting" ? Promise.resolve() : devices.dropResumeTickets(identity, "reboot");
    dropped
      .then(() => devices.snapshot(identity.sessionId))
      .then((snapshot) => {
        if (!snapshot?.technicianId) return;
        options.toTechnician(snapshot.technicianId, { code: snapshot.code, outcome, message: rebootMessage(outcome) });
      })
      .catch((error: unknown) => logger.error({ err: error }, "redémarrage de l'ordinateur : issue non transmise"));
  });
}

/** What `createRebootRelay` needs of `device-realtime.ts`: its two namespaces and their room names. */
export type RebootRelayContext = {
  devices: DeviceService;
  logger: Logger;
  /** The app's namespace (`/device`). */
  namespace: { to(room: string): { emit(event: "device:reboot"): boolean } };
  /** The browsers' namespace, whose `user:` rooms reach the technician (typed loosely by its owner). */
  browsers: { to(rooms: string[]): object };
  userRoom(userId: string): string;
  deviceRoom(pairingId: string): string;
};

/** Both sides of the relay, for `device-realtime.ts` to add to each browser socket and each app socket. */
export function createRebootRelay(context: RebootRelayContext): {
  onBrowserSocket(socket: BrowserSocket): void;
  onAppSocket(socket: AppSocket): void;
} {
  const { devices, logger } = context;
  return {
    onBrowserSocket: (socket) =>
      attachRebootHandlers(socket, {
        devices,
        logger,
        toApp: (pairingId) => void context.namespace.to(context.deviceRoom(pairingId)).emit("device:reboot"),
      }),
    onAppSocket: (socket) =>
      handleRebootSocket(socket, {
        devices,
        logger,
        toTechnician(technicianId, news) {
          // `reboot:news` is one of `ServerToClientEvents` (protocol.ts); the owner's emitter type lists fewer.
          const room = context.browsers.to([context.userRoom(technicianId)]) as {
            emit(event: "reboot:news", payload: RebootNews): boolean;
          };
          room.emit("reboot:news", news);
        },
      }),
  };
}
