/**
 * Issue 27: the waiting queue for a React screen (`createWaitingQueueStore`
 * in `waiting-queue.ts`): read once on mount, then live through `socket`'s
 * pushes (null on the server and while no connection exists).
 */
import { useEffect, useState, useSyncExternalStore } from "react";
import type { RealtimeSocket } from "./session-events.ts";
import { createWaitingQueueStore, type WaitingQueueState, type WaitingQueueStore } from "./waiting-queue.ts";

const NOT_READ: WaitingQueueState = { entries: null, at: null };

/** The queue and its store (`drop` after a claim). */
export function useWaitingQueue(socket: RealtimeSocket | null): WaitingQueueState & { store: WaitingQueueStore } {
  const [store] = useState(() => createWaitingQueueStore());
  useEffect(() => {
    void store.load();
  }, [store]);
  useEffect(() => (socket ? store.attach(socket) : undefined), [store, socket]);
  const state = useSyncExternalStore(store.subscribe, store.get, () => NOT_READ);
  return { ...state, store };
}
