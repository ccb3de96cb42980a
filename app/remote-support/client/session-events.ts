/**
 * How every open tab learns that the sign-in ended (issue 5: "signing out in
 * another tab or deleting the account takes every open tab out of the area";
 * spec §4 "Auth events"). Two paths, because each misses a case (the second
 * is `auth-broadcast.ts`, kept apart so the signed-out view loads no Socket.IO):
 * - the server's Socket.IO `auth:ended` reaches every tab of the sign-in
 *   session, also in other browsers' tabs of a deleted account, but only once
 *   the sign-out reached the server;
 * - a `BroadcastChannel` between this browser's tabs is immediate and works
 *   even while a tab's socket is reconnecting (with a `storage` event as the
 *   fallback for browsers without BroadcastChannel).
 *
 * And how a tab keeps its connection (issue 13 §4): it reconnects by itself
 * after every kind of loss, a server restart included, except after
 * `auth:ended` (or a handshake refused for want of a sign-in), which takes
 * the tab out of the area instead.
 */
import { io, type Socket } from "socket.io-client";
import {
  RECONNECT_OPTIONS,
  SESSION_MESSAGES,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from "#app/remote-support/protocol.ts";

export type RealtimeSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * The signed-in tab's Socket.IO connection (same origin, authenticated by the
 * sign-in cookie), reconnecting by itself (issue 13 §4):
 * - a network loss or a server that closed the connection ("transport
 *   close": what a restarting server does after `server:restarting`): the
 *   client's own backoff (`RECONNECT_OPTIONS`), forever;
 * - "io server disconnect", which the client library treats as final: this
 *   tab tries again after 0.25–1.25 s, unless `auth:ended` came first;
 * - a refused handshake: "Utilisateur non connecté" is handled as
 *   `auth:ended` (its listeners are called: the page re-reads the account);
 *   any other refusal (the server could not read the sign-in yet) is retried.
 * `disconnect()` by the page stops every retry.
 * `target` is for tests in Node only: the server's URL and the Cookie header (a page uses its own origin and cookie).
 */
export function connectRealtime(target: { url?: string; cookie?: string } = {}): RealtimeSocket {
  const options = { withCredentials: true, transports: ["websocket", "polling"], ...RECONNECT_OPTIONS };
  const socket: RealtimeSocket = target.url
    ? io(target.url, {
        ...options,
        transports: ["websocket"],
        extraHeaders: target.cookie ? { cookie: target.cookie } : {},
      })
    : io(options);
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const retryLater = () => {
    clearTimeout(retry);
    retry = setTimeout(
      () => {
        if (!stopped && !socket.active) socket.connect();
      },
      250 + Math.random() * 1_000,
    );
  };
  socket.on("auth:ended", () => {
    stopped = true;
    clearTimeout(retry);
  });
  socket.on("disconnect", (reason) => {
    if (reason === "io server disconnect" && !stopped) retryLater();
  });
  socket.on("connect_error", (error) => {
    // Active: the client's manager retries by itself (server down, network lost).
    if (socket.active || stopped) return;
    if (error.message === SESSION_MESSAGES.notSignedIn) {
      // Called on the socket, as an emitted event would be (`once` wrappers need it).
      for (const listener of socket.listeners("auth:ended")) listener.call(socket);
      return;
    }
    retryLater();
  });
  // A tab that closes its connection (leaving the area, another account) must not be reopened by a pending retry;
  // `close()` goes through `disconnect()`.
  const disconnect = socket.disconnect.bind(socket);
  socket.disconnect = () => {
    stopped = true;
    clearTimeout(retry);
    return disconnect();
  };
  return socket;
}
