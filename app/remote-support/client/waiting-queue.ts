/**
 * Issue 27: the technician dashboard's waiting queue, framework-free (the
 * React side is `use-waiting-queue.ts`). It holds the newest `QueueSnapshot`
 * it got: read from `GET /api/sessions/queue` on start and after every
 * reconnection (pushes may have been missed), then kept by the server's
 * `queue:updated` pushes. A snapshot older than the one held (`at`, the
 * database's clock) is ignored, so a push of another server process that
 * arrives late never brings back a customer already taken. A session taken
 * here, or found taken or gone by « Prendre en charge », is dropped at once
 * and for good: no session ever waits again once joined or ended.
 */
import type { Socket } from "socket.io-client";
import { getWaitingQueue } from "./api.ts";
import type { QueueEntry, QueueServerEvents, QueueSnapshot } from "#app/remote-support/queue.ts";
import type { RealtimeSocket } from "./session-events.ts";

/** `entries` null until first read; `at` the held snapshot's instant (ISO 8601). */
export type WaitingQueueState = { entries: QueueEntry[] | null; at: string | null };

export type WaitingQueueStore = {
  get(): WaitingQueueState;
  /** Calls `listener` after each change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** Keeps `snapshot` unless the one held is newer. */
  apply(snapshot: QueueSnapshot): void;
  /** Removes session `code` from the list now and from every later snapshot. */
  drop(code: string): void;
  /** Reads the queue from the API (an error is logged, the list kept). */
  load(): Promise<void>;
  /** Follows `socket`'s pushes and reconnections; returns the function that stops. */
  attach(socket: RealtimeSocket): () => void;
};

/** A store over `fetchQueue` (default the API's `getWaitingQueue`; tests pass their own). */
export function createWaitingQueueStore(fetchQueue = getWaitingQueue): WaitingQueueStore {
  let state: WaitingQueueState = { entries: null, at: null };
  const dropped = new Set<string>();
  const listeners = new Set<() => void>();
  const set = (next: WaitingQueueState) => {
    state = next;
    for (const listener of listeners) listener();
  };
  const visible = (entries: readonly QueueEntry[]) => entries.filter((entry) => !dropped.has(entry.code));

  const store: WaitingQueueStore = {
    get: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    apply(snapshot) {
      if (state.at !== null && Date.parse(snapshot.at) < Date.parse(state.at)) return;
      set({ entries: visible(snapshot.entries), at: snapshot.at });
    },
    drop(code) {
      dropped.add(code);
      if (state.entries?.some((entry) => entry.code === code)) set({ ...state, entries: visible(state.entries) });
    },
    async load() {
      const result = await fetchQueue();
      if (result.ok) store.apply(result.data);
      // The status only: names stay out of the console.
      else console.error("File d'attente illisible", result.status);
    },
    attach(socket) {
      const events = socket as unknown as Socket<QueueServerEvents>;
      const onUpdated = (snapshot: QueueSnapshot) => store.apply(snapshot);
      const onConnect = () => void store.load();
      events.on("queue:updated", onUpdated);
      socket.on("connect", onConnect);
      return () => {
        events.off("queue:updated", onUpdated);
        socket.off("connect", onConnect);
      };
    },
  };
  return store;
}
