/**
 * The tab's Socket.IO connection, held outside React state (issue 16 §1).
 *
 * /soft-assist's screens are server-rendered inside a lazy boundary; until
 * their chunk arrives, React keeps the server's HTML. A new prop or context
 * value reaching that boundary before it hydrates makes React drop the HTML
 * and show the fallback (a full-page jump, CLS 0.5–1.1 measured). The route
 * therefore passes one store that never changes, and the screens read the
 * connection from it with `useRealtimeSocket` once they are hydrated.
 */
import { useSyncExternalStore } from "react";
import type { RealtimeSocket } from "./session-events.ts";

export type RealtimeStore = {
  /** The connection, or null while none is open (server render, signed out, before the client connects). */
  get(): RealtimeSocket | null;
  set(socket: RealtimeSocket | null): void;
  /** Calls `listener` after each `set`; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
};

/** A store holding `initial` (null by default). */
export function createRealtimeStore(initial: RealtimeSocket | null = null): RealtimeStore {
  let socket = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => socket,
    set(next) {
      socket = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/** The store's connection, re-rendering when it changes; null on the server and during hydration. */
export function useRealtimeSocket(store: RealtimeStore): RealtimeSocket | null {
  return useSyncExternalStore(store.subscribe, store.get, () => null);
}
