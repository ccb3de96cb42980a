/**
 * Realtime for remote support (issue 5; spec §4 "Dashboard load" refreshes
 * on any change, §7 "Realtime" and "Insert into signaling"): Socket.IO on the
 * site's own HTTP server (path `/socket.io/`), every event typed by
 * `app/remote-support/protocol.ts`.
 *
 * - Handshake: authenticated by the account's session cookie (better-auth);
 *   no valid session → refused with the error "Utilisateur non connecté". A
 *   browser's handshake must come from the site's origin (cross-site
 *   WebSocket hijacking); clients without an Origin (scripts) still need the cookie.
 * - Rooms: `user:<id>` (all tabs of an account), `auth:<sign-in session id>`
 *   (tabs sharing one cookie), `technicians` (accounts with the
 *   `session:history` permission, `server/access.ts`: their dashboard lists).
 * - Pushes (from the session service, after commit): `session:updated`
 *   (SessionView) to the session's customer and joined technician, whose
 *   dashboard applies it as is (issue 14); `sessions:changed` (no data) to
 *   every technician, which no screen listens to any more.
 * - `signal` (offer, answer, ICE candidate…): validated, accepted only from
 *   the two participants of a connected session, stored in `signaling`,
 *   delivered to the other participant's `user:` room only; acknowledged
 *   `{ ok: true }` or `{ ok: false, message }`. Issue 13 §3: each connection
 *   has a budget (`SocketSignalBudget`: messages and bytes per second, and at
 *   most `maxPending` waiting), checked on arrival; past it the signal is
 *   refused at once, never queued. The session's own budget is the session
 *   service's (`relaySignal`).
 * - `auth:ended` then disconnection when the sign-in session ends: at once on
 *   sign-out, revocation or account deletion through better-auth (its
 *   session-delete hook), and otherwise (account deleted by `npm run user`,
 *   expiry) at the next check: every `revalidateIntervalMs` and before a
 *   `signal` when the last check is older than `EVENT_REVALIDATE_MS`. A role
 *   change moves the socket in or out of `technicians` at the same check.
 * - With PostgreSQL (`databaseUrl`), the postgres adapter carries room
 *   broadcasts between server processes (LISTEN/NOTIFY; larger payloads
 *   through the `socket_io_attachments` table, migration 0003). Messages
 *   of one sender leave in order; across processes a large one (stored in
 *   the table first) can still be overtaken by a small one sent right after,
 *   so clients queue ICE candidates until the remote description is set.
 * - Issue 27 (`queue-realtime.ts`): the waiting queue's pushes.
 * - Issue 15 (`device-realtime.ts`): the desktop app's namespace `/device`
 *   and the technician's `input` relay; a handshake without Origin (the app)
 *   passes `allowRequest`, a foreign one never does.
 * - Issue 38 §1 (`chat-relay.ts`): the session chat, `chat:send` and
 *   `session:chat` here, `device:chat` on the app's namespace. The `signal`
 *   handler of each socket is `signal-relay.ts`.
 */
import type { Server as HttpServer } from "node:http";
import { createAdapter } from "@socket.io/postgres-adapter";
import pg from "pg";
import type { Logger } from "pino";
import { Server, type Socket } from "socket.io";
import type { ClientToServerEvents, ServerToClientEvents } from "#app/remote-support/protocol.ts";
import type { Auth } from "#server/auth.ts";
import { can, requireSocketCaller, resolveCaller, type Caller } from "#server/access.ts";
import type { SessionService, SessionServiceEvent } from "./sessions.ts";
import { DEFAULT_SOCKET_SIGNAL_BUDGET, type SocketSignalBudget } from "./limits.ts";
import type { AppDatabase } from "#database/connection.ts";
import { connectedSessions, DEFAULT_SESSION_ABANDON_S, startPresence } from "./presence.ts";
import { DEVICE_NAMESPACE } from "#app/remote-support/device-protocol.ts";
import { attachDeviceRealtime, deviceRoom } from "./device-realtime.ts";
import { createChatRelay } from "./chat-relay.ts";
import { createFileRelay } from "./file-relay.ts";
import { handleSignalSocket } from "./signal-relay.ts";
import { closePostgresAdapters } from "./postgres-adapter-close.ts";
import { attachQueueRealtime } from "./queue-realtime.ts";
import type { DeviceService } from "./device-service.ts";
import type { ShopSource } from "#app/config/shop.ts";

/** Default period of the background session check, ms. */
export const REVALIDATE_INTERVAL_MS = 30_000;
/** A `signal` re-reads the sign-in session first when the last check is older than this, ms. */
export const EVENT_REVALIDATE_MS = 5_000;
/** How often unused codes past their lifetime are ended (issue 13 §8), ms: a minute late at most is fine for a 30-minute code. */
export const CODE_EXPIRY_SWEEP_MS = 30_000;
/** Largest Socket.IO message, bytes: a signaling message is at most 64 KB of JSON. */
export const MAX_MESSAGE_BYTES = 128 * 1024;

export type SocketData = {
  caller: Caller;
  /** The handshake's Cookie header, to re-check the sign-in session later. */
  cookie: string;
  /** When the sign-in session was last confirmed, ms since the epoch. */
  checkedAt: number;
};

/** Between server processes (postgres adapter): a sign-in session ended, end its sockets wherever they are. */
type InterServerEvents = { "auth-session-ended": (authSessionId: string) => void };
export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
type RealtimeSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

export type RealtimeOptions = {
  httpServer: HttpServer;
  auth: Auth;
  sessions: SessionService;
  logger: Logger;
  /** The site's public origin (`PUBLIC_URL`): the only handshake Origin accepted (none at all is too). */
  publicUrl: string;
  /** PostgreSQL: broadcasts cross server processes through the postgres adapter. Absent: this process only. */
  databaseUrl?: string;
  /** Background session check period, ms (default `REVALIDATE_INTERVAL_MS`). */
  revalidateIntervalMs?: number;
  /** Issue 13 §3: each connection's signaling budget (default `DEFAULT_SOCKET_SIGNAL_BUDGET`). */
  signalBudget?: SocketSignalBudget;
  /** Issue 13 §4: where connected sessions are read to end abandoned ones (`presence.ts`). Absent: none are ended. */
  db?: AppDatabase;
  /** Issue 13 §4: both participants without a socket this long (ms) → the server ends the session (default 120 s). */
  sessionAbandonMs?: number;
  /** Issue 15: the desktop app's namespace `/device` and the `input` relay (`device-realtime.ts`). Absent: neither. */
  devices?: DeviceService;
  /** Issue 18 §1: appointment changes, pushed to technicians as `agenda:changed`. Absent: none. */
  agenda?: { subscribe(listener: (change: { date: string }) => void): () => void };
  /** Issue 29: the shop's identity, read at each `device:queue` for its opening hours. Absent: `defaultShop`. */
  shop?: ShopSource;
};

export type Realtime = {
  io: RealtimeServer;
  /**
   * For a shutdown: tells every client `server:restarting` and drops its connection (clients reconnect by
   * themselves), stops the presence sweep and the adapter; leaves the HTTP server to its owner. Idempotent.
   */
  close(): Promise<void>;
};

/** socket.io-parser's `PacketType.EVENT`. */
const EVENT_PACKET = 2;

export const userRoom = (userId: string) => `user:${userId}`;
export const authRoom = (authSessionId: string) => `auth:${authSessionId}`;
export const TECHNICIANS_ROOM = "technicians";
/** Who is in `TECHNICIANS_ROOM`, told `sessions:changed`: those who read the lists it refreshes (issue 14). */
const watchesSessions = (caller: Caller) => can(caller, "session:history");

/** Attaches Socket.IO to `httpServer` (call before it listens). */
export function attachRealtime(options: RealtimeOptions): Realtime {
  const { auth, sessions, logger } = options;
  const publicOrigin = new URL(options.publicUrl).origin;

  // Two connections: the adapter's LISTEN, and one for every NOTIFY, so a process's broadcasts leave in order.
  const pool = options.databaseUrl ? new pg.Pool({ connectionString: options.databaseUrl, max: 2 }) : undefined;
  // An idle client's connection can drop (server restart); the adapter reconnects by itself.
  pool?.on("error", (error) => logger.warn({ err: error }, "Socket.IO : connexion PostgreSQL perdue"));
  let closing = false;

  const io: RealtimeServer = new Server(options.httpServer, {
    serveClient: false,
    maxHttpBufferSize: MAX_MESSAGE_BYTES,
    allowRequest: (req, callback) => {
      // Browsers send Origin on every WebSocket and cross-origin request: when present it must be PUBLIC_URL's,
      // whatever the Host says (issue 13 §9). Without one, the request is same-origin or not from a browser.
      const origin = req.headers.origin;
      const allowed = !origin || origin === publicOrigin;
      if (!allowed) logger.warn({ origin }, "Socket.IO : origine refusée");
      callback(allowed ? null : "origine refusée", allowed);
    },
    ...(pool
      ? {
          adapter: createAdapter(pool, {
            errorHandler: (error) => {
              if (!closing) logger.error({ err: error }, "Socket.IO : erreur de l'adaptateur PostgreSQL");
            },
          }),
        }
      : {}),
  });

  // Issue 38 §1: the session chat, for site and app sessions alike.
  const chat = createChatRelay({
    sessions,
    controlState: options.devices && ((code) => options.devices!.controlState(code)),
    logger,
    toBrowsers: (userIds, push) => void io.to(userIds.map(userRoom)).emit("session:chat", push),
    toApp: (pairingId, line) => device?.emitToApp(pairingId, "device:chat", line),
  });
  // Issue 38 §2: files both ways between the technician and the app, chunk by chunk.
  const files = createFileRelay({
    controlState: async (code) => (options.devices ? options.devices.controlState(code) : null),
    logger,
    toApp: (pairingId, delivery) => device?.emitToApp(pairingId, "device:file", delivery),
    toBrowser: (target, code, message) =>
      void io
        .to("socketId" in target ? target.socketId : userRoom(target.technicianId))
        .emit("file", { code, message }),
  });
  // Issue 15: the app's namespace, authenticated by its device token (no cookie); the relay of `input` below.
  const device = options.devices
    ? attachDeviceRealtime({
        namespace: io.of(DEVICE_NAMESPACE),
        browsers: io,
        userRoom,
        devices: options.devices,
        sessions,
        logger,
        crossProcess: pool !== undefined,
        onAppSocket: (socket) => {
          chat.onDeviceSocket(socket);
          files.onDeviceSocket(socket);
        },
      })
    : undefined;

  io.use(
    requireSocketCaller<RealtimeSocket>(auth, logger, (socket, caller) => {
      socket.data = { caller, cookie: socket.request.headers.cookie ?? "", checkedAt: Date.now() };
    }),
  );

  /**
   * `io.to(room).emit("signal", …)`, resolved once delivered here and
   * published to the other processes. `emit` does not wait for the cluster
   * adapter, which publishes first (a message over 8000 bytes in two
   * queries) and only then delivers locally: a small ICE candidate could
   * overtake the large offer sent just before it. The packet is what
   * `BroadcastOperator.emit` builds (socket.io-parser's EVENT type is 2).
   */
  async function deliverInOrder(room: string, message: { code: string; data: unknown }): Promise<void> {
    const packet = { type: EVENT_PACKET, data: ["signal", message] };
    await io.of("/").adapter.broadcast(packet, { rooms: new Set([room]), except: new Set(), flags: {} });
  }

  /**
   * Tells this process's tabs of one sign-in session that it ended, then
   * disconnects them. Each process does both itself (see `serverSideEmit`
   * below): as two separate cluster broadcasts, neither waiting for the
   * other, the disconnect could overtake the message.
   */
  function endLocalAuthSession(authSessionId: string): void {
    io.local.to(authRoom(authSessionId)).emit("auth:ended");
    io.local.in(authRoom(authSessionId)).disconnectSockets(true);
  }
  io.on("auth-session-ended", endLocalAuthSession);

  /**
   * Re-reads a socket's sign-in session. Ended → `auth:ended` and disconnect;
   * role changed → room membership follows. A database failure keeps the socket.
   * @returns whether the socket may go on.
   */
  async function revalidate(socket: RealtimeSocket): Promise<boolean> {
    const previous = socket.data.caller;
    let caller: Caller | null;
    try {
      ({ caller } = await resolveCaller(auth, { cookie: socket.data.cookie }, { refresh: false }));
    } catch (error) {
      logger.warn({ err: error }, "Socket.IO : session non revérifiée (base de données)");
      return true;
    }
    if (!caller || caller.authSessionId !== previous.authSessionId) {
      socket.emit("auth:ended");
      socket.disconnect(true);
      return false;
    }
    if (watchesSessions(caller) && !watchesSessions(previous)) void socket.join(TECHNICIANS_ROOM);
    if (!watchesSessions(caller) && watchesSessions(previous)) void socket.leave(TECHNICIANS_ROOM);
    socket.data.caller = caller;
    socket.data.checkedAt = Date.now();
    return true;
  }

  io.on("connection", (socket) => {
    const { caller } = socket.data;
    void socket.join([
      userRoom(caller.userId),
      authRoom(caller.authSessionId),
      ...(watchesSessions(caller) ? [TECHNICIANS_ROOM] : []),
    ]);
    device?.onBrowserSocket(socket);
    chat.onBrowserSocket(socket);
    files.onBrowserSocket(socket);

    handleSignalSocket(socket, {
      sessions,
      logger,
      budget: options.signalBudget ?? DEFAULT_SOCKET_SIGNAL_BUDGET,
      revalidate: () =>
        Date.now() - socket.data.checkedAt > EVENT_REVALIDATE_MS ? revalidate(socket) : Promise.resolve(true),
      deliver: (recipientId, message) => deliverInOrder(userRoom(recipientId), message),
    });
  });

  // Issue 27: the waiting queue, pushed to technicians and to each waiting customer (`queue-realtime.ts`).
  const queue = attachQueueRealtime({
    io: io as unknown as Server,
    devices: options.devices
      ? { namespace: io.of(DEVICE_NAMESPACE), service: options.devices, room: deviceRoom }
      : undefined,
    sessions,
    logger,
    userRoom,
    techniciansRoom: TECHNICIANS_ROOM,
    crossProcess: pool !== undefined,
    shop: options.shop,
  });
  const unsubscribeAgenda = options.agenda?.subscribe(({ date }) => {
    io.to(TECHNICIANS_ROOM).emit("agenda:changed", { date });
  });
  const unsubscribe = sessions.subscribe((event: SessionServiceEvent) => {
    if (event.type === "session") {
      const { session } = event;
      // Issue 26: an app-started session has no customer account (its app hears of it through `device-realtime.ts`),
      // and none has a technician before the join. Never `to([])`: no room at all means every socket.
      const rooms = [session.userId, session.technicianId].filter((id) => id !== null).map(userRoom);
      if (rooms.length > 0) io.to(rooms).emit("session:updated", session);
      io.to(TECHNICIANS_ROOM).emit("sessions:changed");
    } else if (event.type === "auth-session-ended") {
      endLocalAuthSession(event.authSessionId);
      // Other server processes (the in-memory adapter has none, and would warn).
      if (pool) io.serverSideEmit("auth-session-ended", event.authSessionId);
    }
  });

  // Issue 13 §4: sessions whose two participants are gone (tab closed, or never back after a restart) end after a grace.
  const presence = options.db
    ? startPresence({
        abandonAfterMs: options.sessionAbandonMs ?? DEFAULT_SESSION_ABANDON_S * 1000,
        openSessions: connectedSessions(options.db),
        presentUsers: async (userIds) => {
          const present = await io.in(userIds.map(userRoom)).fetchSockets();
          return new Set(present.map((socket) => socket.data.caller.userId));
        },
        endByServer: async (code) => {
          const result = await sessions.endByServer(code);
          return result.ok && result.session !== null;
        },
        logger,
      })
    : undefined;
  // Issue 13 §8: a customer's open screen learns that its unused code expired, without a reload.
  const codeExpiry = options.db ? setInterval(() => void sessions.expireCodes(), CODE_EXPIRY_SWEEP_MS) : undefined;
  codeExpiry?.unref();

  let checking = false;
  const timer = setInterval(async () => {
    if (checking) return;
    checking = true;
    try {
      for (const socket of [...io.of("/").sockets.values()]) {
        if (socket.connected) await revalidate(socket);
      }
    } finally {
      checking = false;
    }
  }, options.revalidateIntervalMs ?? REVALIDATE_INTERVAL_MS);
  timer.unref();

  let closed: Promise<void> | undefined;
  return {
    io,
    close() {
      closed ??= (async () => {
        closing = true;
        clearInterval(timer);
        presence?.stop();
        clearInterval(codeExpiry);
        unsubscribe();
        unsubscribeAgenda?.();
        chat.close();
        files.close();
        queue.close();
        device?.close();
        // Issue 13 §4: not disconnectSockets(true), which a browser's client takes as final ("io server disconnect")
        // and never reconnects. The tabs are told, then their connections dropped: a client sees "transport close"
        // and reconnects with backoff, to the next process. Sessions stay as they are (presence.ts gives them a grace).
        io.local.emit("server:restarting");
        // One turn later, so the caller has stopped accepting connections and the notice leaves before the close frame.
        await new Promise((resolve) => setImmediate(resolve));
        // Not io.close(): it would also close the HTTP server, whose shutdown belongs to server/index.ts.
        io.engine.close();
        const adapters = [io.of("/").adapter, ...(device ? [io.of(DEVICE_NAMESPACE).adapter] : [])];
        if (pool) await closePostgresAdapters(adapters, pool);
        else for (const adapter of adapters) await adapter.close();
      })();
      return closed;
    },
  };
}
