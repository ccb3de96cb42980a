/**
 * Realtime of the desktop support app (issue 15, `device-protocol.ts`), on
 * the Socket.IO server of `realtime.ts`:
 *
 * - Namespace `DEVICE_NAMESPACE` for the app: handshake `auth: { token }`
 *   (the device token, looked up by its hash) or refused with
 *   `DEVICE_MESSAGES.tokenInvalid`; no cookie, and no Origin (the engine's
 *   `allowRequest` lets a missing Origin through, never a foreign one). Room
 *   `device:<pairing id>`. Handles `device:status` and `device:consent`.
 * - On every change (`DeviceService` events): `session:device` (the view,
 *   with the session code) to the session's customer and joined technician,
 *   `device:state` to the app; `device:release`, `device:ended`.
 * - `input` from a browser socket (`onBrowserSocket`, `input-relay.ts`): the sender must be the
 *   session's joined technician and control active (toggle, consent, app
 *   connected and able to inject, whole screen shared), within the socket's
 *   budget (`INPUT_LIMITS`); then `device:input` to the app's room. The
 *   session's state comes from the service's per-process cache, dropped on
 *   every change here and, through the adapter (`serverSideEmit`), in every
 *   other process; so a relay costs no query in the steady state
 *   (docs/decisions/010). A technician socket that relayed input and
 *   disconnects sends `device:release`.
 * - Issue 27: copy–paste both ways while control is allowed (`clipboard-relay.ts`).
 * - Issue 36 §4: « Relancer en administrateur » (`elevation-relay.ts`); a replaced app (relaunched as
 *   administrator) is told `device:replaced` and disconnected, without `device:ended`.
 * - Issue 38 §3: « Redémarrer l'ordinateur » (`reboot-relay.ts`).
 * - Issue 37 §2 (`device-links.ts`): connections counted per address and per token in the middleware; one live
 *   socket per pairing (a new one disconnects the others, in every process, without that counting as the app
 *   leaving); frame, event and byte budgets per pairing (session), kept a while after the last socket.
 * - Every `DEVICE_HEARTBEAT_MS` this process confirms its apps' connections
 *   (`last_seen_at`), so an app of a killed process stops counting as connected.
 */
import type { Logger } from "pino";
import type { Namespace, Socket } from "socket.io";
import {
  DEVICE_MESSAGES,
  DEVICE_NAMESPACE,
  type DeviceToServerEvents,
  type ServerToDeviceEvents,
} from "#app/remote-support/device-protocol.ts";
import { type ClientToServerEvents, type ServerToClientEvents } from "#app/remote-support/protocol.ts";
import type { Caller } from "#server/access.ts";
import type { SessionService } from "./sessions.ts";
import type { DeviceIdentity, DeviceService, DeviceServiceEvent } from "./device-service.ts";
import { toControlState, toDeviceState, toDeviceView } from "./device-state.ts";
import { DEFAULT_DEVICE_EVENT_BUDGET, DEFAULT_FRAME_BUDGET, type DeviceEventBudget } from "./limits.ts";
import { ipLimitKey } from "#server/rate-limit.ts";
import { createDeviceLinks, guardPairing, type DeviceLinkLimits } from "./device-links.ts";
import { handleDeviceSocket, type AppSocket } from "./device-socket.ts";
import { attachScreenHandlers } from "./screen-relay.ts";
import { attachInputHandlers } from "./input-relay.ts";
import { APP_REFUSALS_MESSAGE, gateFrames } from "./screen-gate.ts";
import type { ScreenDemand } from "#app/remote-support/screen-protocol.ts";
import { sharedRefusalLog } from "#server/refusal-log.ts";
import { createClipboardRelay } from "./clipboard-relay.ts";
import { attachElevationHandlers, handleElevationSocket } from "./elevation-relay.ts";
import { createRebootRelay } from "./reboot-relay.ts";
import { elevationMessage, type ElevationOutcome } from "#app/remote-support/elevation-protocol.ts";

/** How often this process confirms its apps' connections, ms (`DEVICE_FRESH_S` is 90 s). */
export const DEVICE_HEARTBEAT_MS = 30_000;

/** Between server processes: a session's device changed (drop the cached control state), or an app must end. */
type DeviceInterServerEvents = {
  "device:invalidate": (sessionId: string) => void;
  "device:end": (pairingId: string, message: string) => void;
  "device:replace": (pairingId: string) => void;
  /** Issue 37 §2: socket `keep` of `pairingId` connected: every other socket of it is disconnected. */
  "device:supersede": (pairingId: string, keep: string) => void;
};
type DeviceNamespace = Namespace<DeviceToServerEvents, ServerToDeviceEvents, DeviceInterServerEvents, DeviceIdentity>;
type DeviceSocket = Socket<DeviceToServerEvents, ServerToDeviceEvents, DeviceInterServerEvents, DeviceIdentity>;
/** The browser sockets of `realtime.ts`, as far as this module needs them. */
type BrowserSocket = Socket<ClientToServerEvents, ServerToClientEvents, object, { caller: Caller }>;
/** What `io.of("/")`'s `to(rooms).emit` must offer. */
type BrowserEmitter = {
  to(rooms: string[]): {
    emit(event: "session:device" | "screen:frame" | "clipboard:text" | "device:elevation", ...args: unknown[]): boolean;
  };
};

/** The Socket.IO room of one pairing of the app (a new pairing, a new room: the replaced app hears nothing more). */
export const deviceRoom = (pairingId: string) => `device:${pairingId}`;

export type DeviceRealtimeOptions = {
  /** The Socket.IO server's namespace for the app (`io.of(DEVICE_NAMESPACE)`). */
  namespace: Namespace;
  /** The main namespace, to reach the browsers' `user:<id>` rooms. */
  browsers: BrowserEmitter;
  userRoom: (userId: string) => string;
  devices: DeviceService;
  sessions: SessionService;
  logger: Logger;
  /** Several server processes share rooms (postgres adapter): tell the others about changes. */
  crossProcess: boolean;
  /** Issue 28 §1: each app connection's budget of events other than frames (default `DEFAULT_DEVICE_EVENT_BUDGET`). */
  eventBudget?: DeviceEventBudget;
  /** Issue 26: each app connection's budget of frames (default `DEFAULT_FRAME_BUDGET`). */
  frameBudget?: DeviceEventBudget;
  /** Issue 37 §2: connection rates and how long budgets outlive sockets (default `DEFAULT_DEVICE_LINK_LIMITS`). */
  linkLimits?: DeviceLinkLimits;
  /** Issue 38 §1: adds handlers of other modules (the chat) to each authenticated app socket. */
  onAppSocket?: (socket: AppSocket) => void;
};

export type DeviceRealtime = {
  /** Adds the `input` handler (and the release on disconnect) to a signed-in browser socket. */
  onBrowserSocket(socket: BrowserSocket): void;
  /** Issue 38: a chat line (§1) or a file message (§2) to the app of `pairingId`, wherever its socket is. */
  emitToApp<E extends "device:chat" | "device:file">(
    pairingId: string,
    event: E,
    ...payload: Parameters<ServerToDeviceEvents[E]>
  ): void;
  /** Stops the heartbeat and the subscriptions. */
  close(): void;
};

/** Attaches the `/device` namespace and the input relay (see the module comment). */
export function attachDeviceRealtime(options: DeviceRealtimeOptions): DeviceRealtime {
  const { devices, sessions, logger, browsers, userRoom, crossProcess } = options;
  const eventBudget = options.eventBudget ?? DEFAULT_DEVICE_EVENT_BUDGET;
  const frameBudget = options.frameBudget ?? DEFAULT_FRAME_BUDGET;
  const namespace = options.namespace as unknown as DeviceNamespace;
  if (namespace.name !== DEVICE_NAMESPACE) throw new Error(`espace de noms inattendu : ${namespace.name}`);

  const links = createDeviceLinks({ limits: options.linkLimits, frameBudget, eventBudget });
  const linkRefusals = sharedRefusalLog(logger, APP_REFUSALS_MESSAGE);
  namespace.use(async (socket, next) => {
    const token: unknown = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    if (typeof token !== "string" || token.length < 16 || token.length > 200)
      return next(new Error(DEVICE_MESSAGES.tokenInvalid));
    // Issue 37 §2: before the token costs a query.
    const tooMany = links.admit(token, ipLimitKey(socket.handshake.address));
    if (tooMany) {
      linkRefusals("connection-rate");
      return next(new Error(tooMany));
    }
    try {
      const identity = await devices.authenticate(token);
      if (!identity) return next(new Error(DEVICE_MESSAGES.tokenInvalid));
      socket.data = identity;
      next();
    } catch (error) {
      logger.error({ err: error }, "Socket.IO : logiciel de bureau non authentifié (base de données)");
      next(new Error(DEVICE_MESSAGES.deviceGone));
    }
  });

  const failed = (what: string) => (error: unknown) => logger.error({ err: error }, what);

  // Issue 27: copy–paste both ways while control is allowed (`clipboard-relay.ts`).
  // Issue 38 §3: « Redémarrer l'ordinateur » (`reboot-relay.ts`).
  /**
   * The room of the app of `pairingId`: this process's sockets alone when the app is connected here (usual:
   * no detour through the adapter, PostgreSQL NOTIFY), else every process's.
   */
  const appRoom = (pairingId: string) => {
    const room = deviceRoom(pairingId);
    const here = namespace.adapter.rooms.get(room)?.size ?? 0;
    return (here > 0 ? namespace.local : namespace).to(room);
  };
  const reboot = createRebootRelay({ devices, logger, namespace, browsers, userRoom, deviceRoom });
  const clipboard = createClipboardRelay({
    devices,
    logger,
    toApp: (pairingId, payload) => appRoom(pairingId).emit("device:clipboard", payload),
    toTechnician: (technicianId, payload) => browsers.to([userRoom(technicianId)]).emit("clipboard:text", payload),
  });

  /** Issue 37 §2: sockets disconnected because a newer one of their pairing connected (not the app leaving). */
  const superseded = new Set<string>();
  function supersedeLocal(pairingId: string, keep: string): void {
    for (const id of [...(namespace.adapter.rooms.get(deviceRoom(pairingId)) ?? [])]) {
      const old = namespace.sockets.get(id);
      if (id === keep || !old) continue;
      superseded.add(id);
      old.disconnect(true);
    }
  }
  /** Issue 26: per app pairing, raised whenever a full picture is asked (`ScreenDemand.refresh`). */
  const refreshes = new Map<string, number>();

  namespace.on("connection", (socket: DeviceSocket) => {
    const identity = { ...socket.data };
    supersedeLocal(identity.pairingId, socket.id);
    if (crossProcess) namespace.serverSideEmit("device:supersede", identity.pairingId, socket.id);
    void socket.join(deviceRoom(identity.pairingId));
    const budgets = links.attach(identity.pairingId, identity.sessionId);
    devices.deviceConnected(identity, socket.id).catch(failed("logiciel de bureau : connexion non enregistrée"));
    const { refuse } = handleDeviceSocket(socket as unknown as AppSocket, {
      devices,
      logger,
      eventBudget,
      frameBudget,
      // Issue 37 §2: the session's, kept `linkLimits.keepMs` after its last socket.
      sessionBytes: () => budgets.bytes,
      relayFrame: gateFrames(socket, logger, (from, frame, technicianId) => {
        browsers.to([userRoom(technicianId)]).emit("screen:frame", { ...frame, code: from.code });
      }),
    });
    guardPairing(socket as unknown as AppSocket, budgets.pairing, refuse);
    clipboard.onDeviceSocket(socket as unknown as AppSocket);
    options.onAppSocket?.(socket as unknown as AppSocket);
    handleElevationSocket(socket as unknown as AppSocket, { devices, logger, tellTechnician });
    reboot.onAppSocket(socket as unknown as AppSocket);
    socket.on("disconnect", () => {
      links.detach(identity.pairingId, identity.sessionId);
      if (superseded.delete(socket.id)) return;
      devices.deviceDisconnected(identity, socket.id).catch(failed("logiciel de bureau : déconnexion non enregistrée"));
    });
  });

  /** Issue 26: what the app of `pairingId` must stream, from the relay's state of its session. */
  function demandOf(pairingId: string, state: { viewing: boolean; screen: string | null }): ScreenDemand {
    return { active: state.viewing, screen: state.screen, refresh: refreshes.get(pairingId) ?? 0 };
  }

  /** Pushes the views of `sessionId` to its browsers and its app. */
  async function push(sessionId: string): Promise<void> {
    const snapshot = await devices.snapshot(sessionId);
    if (!snapshot) return;
    // Issue 26: an app-started session has no customer account, only its technician's browsers to tell (none
    // before the join). Never `to([])`: no room at all means every browser.
    const rooms = [snapshot.userId, snapshot.technicianId].filter((id) => id !== null).map(userRoom);
    if (rooms.length > 0) browsers.to(rooms).emit("session:device", { ...toDeviceView(snapshot), code: snapshot.code });
    const pairingId = snapshot.device?.pairingId;
    if (!pairingId) return;
    namespace.to(deviceRoom(pairingId)).emit("device:state", toDeviceState(snapshot));
    namespace.to(deviceRoom(pairingId)).emit("device:screen", demandOf(pairingId, toControlState(snapshot, 0)));
  }

  /**
   * This process's part of ending an app: released, told, then disconnected, all local so in that order (the
   * cluster adapter delivers a room broadcast locally only after publishing it: a disconnect would overtake it).
   */
  function endLocal(pairingId: string, message: string): void {
    namespace.local.to(deviceRoom(pairingId)).emit("device:release");
    namespace.local.to(deviceRoom(pairingId)).emit("device:ended", message);
    namespace.local.in(deviceRoom(pairingId)).disconnectSockets(true);
  }
  /** Issue 36 §4: as `endLocal`, but the app gave way to itself relaunched as administrator: it exits quietly. */
  function replaceLocal(pairingId: string): void {
    namespace.local.to(deviceRoom(pairingId)).emit("device:release");
    namespace.local.to(deviceRoom(pairingId)).emit("device:replaced");
    namespace.local.in(deviceRoom(pairingId)).disconnectSockets(true);
  }
  /** Issue 36 §4: what became of a « Relancer en administrateur », to the session's joined technician. */
  async function tellTechnician(sessionId: string, outcome: ElevationOutcome): Promise<void> {
    const snapshot = await devices.snapshot(sessionId);
    if (!snapshot?.technicianId) return;
    browsers
      .to([userRoom(snapshot.technicianId)])
      .emit("device:elevation", { code: snapshot.code, outcome, message: elevationMessage(outcome) });
  }
  namespace.on("device:invalidate", (sessionId) => devices.invalidate(sessionId));
  namespace.on("device:end", endLocal);
  namespace.on("device:replace", replaceLocal);
  namespace.on("device:supersede", supersedeLocal);

  const unsubscribeDevices = devices.subscribe((event: DeviceServiceEvent) => {
    if (event.type === "changed") {
      if (crossProcess) namespace.serverSideEmit("device:invalidate", event.sessionId);
      push(event.sessionId).catch(failed("logiciel de bureau : état non diffusé"));
    } else if (event.type === "release") {
      namespace.to(deviceRoom(event.pairingId)).emit("device:release");
    } else if (event.type === "replaced") {
      replaceLocal(event.pairingId);
      if (crossProcess) namespace.serverSideEmit("device:replace", event.pairingId);
    } else {
      endLocal(event.pairingId, event.message);
      if (crossProcess) namespace.serverSideEmit("device:end", event.pairingId, event.message);
    }
  });
  const unsubscribeSessions = sessions.subscribe((event) => {
    if (event.type !== "session") return;
    void devices.sessionChanged(event.session.id, event.session.endTime !== null);
  });

  const heartbeat = setInterval(() => {
    const pairingIds = [...new Set([...namespace.sockets.values()].map((socket) => socket.data.pairingId))];
    devices.touch(pairingIds).catch(failed("logiciel de bureau : présence non confirmée"));
  }, DEVICE_HEARTBEAT_MS);
  heartbeat.unref();

  return {
    emitToApp(pairingId, event, ...payload) {
      (appRoom(pairingId) as { emit(event: string, ...args: unknown[]): unknown }).emit(event, ...payload);
    },
    onBrowserSocket(socket) {
      clipboard.onBrowserSocket(socket);
      attachElevationHandlers(socket, {
        devices,
        logger,
        toApp: (pairingId) => appRoom(pairingId).emit("device:elevate"),
      });
      reboot.onBrowserSocket(socket);
      attachScreenHandlers(socket, {
        devices,
        logger,
        toApp(pairingId: string, event: "device:ack" | "device:screen", payload: number | ScreenDemand) {
          const target = appRoom(pairingId);
          if (event === "device:ack") target.emit("device:ack", payload as number);
          else target.emit("device:screen", payload as ScreenDemand);
        },
        nextRefresh(pairingId) {
          const next = (refreshes.get(pairingId) ?? 0) + 1;
          // Bounded: pairings of sessions long over must not pile up.
          if (refreshes.size >= 10_000) refreshes.clear();
          refreshes.set(pairingId, next);
          return next;
        },
      });
      attachInputHandlers(socket, {
        devices,
        logger,
        sendInput: (pairingId, batch) => appRoom(pairingId).emit("device:input", batch),
        release: (pairingId) => namespace.to(deviceRoom(pairingId)).emit("device:release"),
      });
    },
    close() {
      clearInterval(heartbeat);
      unsubscribeDevices();
      unsubscribeSessions();
    },
  };
}
