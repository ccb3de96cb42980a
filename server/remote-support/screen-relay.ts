/**
 * Issue 26, the technician's side of the app's picture (`screen-protocol.ts`):
 * `screen:ack`, `screen:select` and `screen:refresh` from a signed-in browser
 * socket. Each checks its sender (the session's joined technician, from the
 * relay's cached `ControlState`), spends the socket's budget before anything
 * else, and reaches the app's room:
 * - `screen:ack` → `device:ack` (paces the app);
 * - `screen:refresh` → `device:screen` with `refresh` raised (a full picture);
 * - `screen:select` → the monitor stored (`DeviceService.selectScreen`), whose
 *   change pushes a new `device:screen`.
 */
import type { Logger } from "pino";
import type { Socket } from "socket.io";
import type { ClientToServerEvents, ServerToClientEvents } from "#app/remote-support/protocol.ts";
import { normalizeSessionCode } from "#app/remote-support/protocol.ts";
import { ScreenAck, ScreenRefresh, ScreenSelect, type ScreenDemand } from "#app/remote-support/screen-protocol.ts";
import { can, type Caller } from "#server/access.ts";
import type { DeviceService } from "./device-service.ts";
import type { ControlState } from "./device-state.ts";
import { sharedRefusalLog } from "#server/refusal-log.ts";
import { TokenBucket } from "./limits.ts";

type BrowserSocket = Socket<ClientToServerEvents, ServerToClientEvents, object, { caller: Caller }>;

/** Acknowledgements and refreshes per technician socket: a burst, then per second (the app sends ≤ 60 frames a second). */
const ACK_BUDGET = { burst: 240, perSecond: 120 } as const;
/** Monitor switches per technician socket (each writes to the database). */
const SELECT_BUDGET = { burst: 5, perSecond: 1 } as const;

export type ScreenRelayOptions = {
  devices: DeviceService;
  logger: Logger;
  /** Emits to the app of `pairingId` (local room when the app is connected here). */
  toApp(pairingId: string, event: "device:ack", seq: number): void;
  toApp(pairingId: string, event: "device:screen", demand: ScreenDemand): void;
  /** Raises the pairing's refresh counter. @returns the new value. */
  nextRefresh(pairingId: string): number;
};

/** Adds the three handlers to a signed-in browser socket (see the module comment). */
export function attachScreenHandlers(socket: BrowserSocket, options: ScreenRelayOptions): void {
  const { devices, logger } = options;
  const acks = new TokenBucket(ACK_BUDGET.burst, ACK_BUDGET.perSecond);
  const selects = new TokenBucket(SELECT_BUDGET.burst, SELECT_BUDGET.perSecond);
  const refusals = sharedRefusalLog(logger, "image du logiciel : demandes du technicien refusées");

  /** The session's state when the caller is its joined technician and an app is paired, else null. */
  const asTechnician = async (code: string): Promise<(ControlState & { pairingId: string }) | null> => {
    const caller = socket.data.caller;
    if (!can(caller, "session:join")) return null;
    const state = await devices.controlState(normalizeSessionCode(code));
    if (!state || state.technicianId !== caller.userId || !state.pairingId) return null;
    return { ...state, pairingId: state.pairingId };
  };
  const failed = (error: unknown) => logger.error({ err: error }, "image du logiciel : demande non relayée");

  socket.on("screen:ack", (ack) => {
    if (!acks.take()) return refusals("ack");
    const checked = ScreenAck.safeParse(ack);
    if (!checked.success) return;
    asTechnician(checked.data.code)
      .then((state) => {
        if (state?.viewing) options.toApp(state.pairingId, "device:ack", checked.data.seq);
      })
      .catch(failed);
  });

  socket.on("screen:refresh", (refresh) => {
    if (!acks.take()) return refusals("refresh");
    const checked = ScreenRefresh.safeParse(refresh);
    if (!checked.success) return;
    asTechnician(checked.data.code)
      .then((state) => {
        if (!state?.viewing) return;
        const demand = { active: true, screen: state.screen, refresh: options.nextRefresh(state.pairingId) };
        options.toApp(state.pairingId, "device:screen", demand);
      })
      .catch(failed);
  });

  socket.on("screen:select", (select) => {
    if (!selects.take()) return refusals("select");
    const checked = ScreenSelect.safeParse(select);
    if (!checked.success) return;
    devices
      .selectScreen(socket.data.caller, normalizeSessionCode(checked.data.code), checked.data.screen)
      .catch(failed);
  });
}
