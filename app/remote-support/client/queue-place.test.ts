/**
 * Issue 27, a waiting customer's place (`watchQueuePlace`): read at start and
 * after each reconnection, then following the pushes for that session only;
 * a read answered after a newer push does not undo it.
 */
import { describe, expect, it } from "vitest";
import type { QueuePlace } from "#app/remote-support/queue.ts";
import type { ApiResult } from "./api.ts";
import { watchQueuePlace } from "./queue-place.ts";
import type { RealtimeSocket } from "./session-events.ts";

function stubSocket() {
  const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  const socket = {
    on(event: string, listener: (...args: unknown[]) => void) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(listener);
      return socket;
    },
    off(event: string, listener: (...args: unknown[]) => void) {
      listeners.get(event)?.delete(listener);
      return socket;
    },
  };
  const push = (event: string, ...args: unknown[]) => {
    for (const listener of listeners.get(event) ?? []) listener(...args);
  };
  return { socket: socket as unknown as RealtimeSocket, push, listeners };
}

const place = (n: number): QueuePlace => ({ place: n, total: 3, estimatedMinutes: 15 * n });
const answer = (value: QueuePlace | null): ApiResult<{ place: QueuePlace | null }> => ({
  ok: true,
  status: 200,
  data: { place: value },
});

describe("watchQueuePlace", () => {
  it("reads the place, follows the pushes of its session, and reads again after a reconnection", async () => {
    const { socket, push, listeners } = stubSocket();
    const seen: (QueuePlace | null)[] = [];
    let next = place(3);
    const stop = watchQueuePlace(
      socket,
      "ACDE34",
      (value) => seen.push(value),
      async () => answer(next),
    );
    await Promise.resolve();
    await Promise.resolve();
    expect(seen).toEqual([place(3)]);
    push("queue:place", { code: "OTHER1", place: place(1) });
    push("queue:place", { code: "ACDE34", place: place(2) });
    expect(seen).toEqual([place(3), place(2)]);
    next = place(1);
    push("connect");
    await Promise.resolve();
    await Promise.resolve();
    expect(seen).toEqual([place(3), place(2), place(1)]);
    stop();
    expect(listeners.get("queue:place")?.size).toBe(0);
  });

  it("drops a read answered after a newer push", async () => {
    const { socket, push } = stubSocket();
    const seen: (QueuePlace | null)[] = [];
    let reply!: (value: ApiResult<{ place: QueuePlace | null }>) => void;
    watchQueuePlace(
      socket,
      "ACDE34",
      (value) => seen.push(value),
      () => new Promise((resolve) => (reply = resolve)),
    );
    push("queue:place", { code: "ACDE34", place: null });
    reply(answer(place(2)));
    await Promise.resolve();
    await Promise.resolve();
    expect(seen).toEqual([null]);
  });
});
