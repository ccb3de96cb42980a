/**
 * Changes to what the public pages show (issue 29: the shop's settings, its prices), announced to the
 * page cache so it renders the affected pages again (`page-cache.ts`, docs/decisions/025). A service that
 * changes shop data calls `changed()`; `createApp` subscribes its cache. In one process only: a service
 * that learns of another process's change (polling, NOTIFY) announces it here too.
 */
export type PageChanges = {
  /** `paths`: the page paths to render again (e.g. one brand page); none: every page in memory. */
  changed(paths?: readonly string[]): void;
  /** Calls `listener` on every change; returns the unsubscribe function. */
  subscribe(listener: (paths?: readonly string[]) => void): () => void;
};

export function createPageChanges(): PageChanges {
  const listeners = new Set<(paths?: readonly string[]) => void>();
  return {
    changed(paths) {
      for (const listener of listeners) listener(paths);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
