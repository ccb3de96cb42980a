/**
 * How every open tab learns that the sign-in ended (issue 5: "signing out in
 * another tab or deleting the account takes every open tab out of the area";
 * spec §4 "Auth events"). Two paths, because each misses a case:
 * - the server's Socket.IO `auth:ended` reaches every tab of the sign-in
 *   session, also in other browsers' tabs of a deleted account, but only once
 *   the sign-out reached the server;
 * - a `BroadcastChannel` between this browser's tabs is immediate and works
 *   even while a tab's socket is reconnecting (with a `storage` event as the
 *   fallback for browsers without BroadcastChannel).
 */
import { io, type Socket } from "socket.io-client";
import type { ClientToServerEvents, ServerToClientEvents } from "../protocol";

export type RealtimeSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const CHANNEL = "atelier-soft-assist-auth";
const STORAGE_KEY = "atelier-soft-assist-signed-out";

/** Tells the other tabs of this browser that the account signed out (or in: they reload their view). */
export function announceAuthChange(kind: "signed-out" | "signed-in"): void {
  if (typeof BroadcastChannel !== "undefined") {
    const channel = new BroadcastChannel(CHANNEL);
    channel.postMessage(kind);
    channel.close();
    return;
  }
  try {
    // A new value each time, so the `storage` event fires even for the same kind twice.
    localStorage.setItem(STORAGE_KEY, `${kind}:${Date.now()}`);
  } catch {
    // Storage disabled: the server's `auth:ended` still reaches the other tabs.
  }
}

/** Calls `listener` when another tab announces a change; returns the unsubscribe function. */
export function onAuthChangeElsewhere(listener: (kind: "signed-out" | "signed-in") => void): () => void {
  if (typeof BroadcastChannel !== "undefined") {
    const channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = (event: MessageEvent) => {
      if (event.data === "signed-out" || event.data === "signed-in") listener(event.data);
    };
    return () => channel.close();
  }
  const onStorage = (event: StorageEvent) => {
    if (event.key !== STORAGE_KEY || !event.newValue) return;
    listener(event.newValue.startsWith("signed-in") ? "signed-in" : "signed-out");
  };
  window.addEventListener("storage", onStorage);
  return () => window.removeEventListener("storage", onStorage);
}

/** The signed-in tab's Socket.IO connection (same origin, authenticated by the sign-in cookie). */
export function connectRealtime(): RealtimeSocket {
  return io({ withCredentials: true, transports: ["websocket", "polling"] });
}
