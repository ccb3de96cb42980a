/**
 * Test helpers of issue 27's waiting queue (`waiting-queue.ts`,
 * `queue-realtime.ts`), shared by `waiting-queue.test.ts` and
 * `queue-cluster.test.ts`: the queue's events on a test socket, waited for
 * until they say what the test expects. Test code only.
 */
import { io as connect, type Socket } from "socket.io-client";
import { DEVICE_NAMESPACE, type DeviceQueuePlace } from "#app/remote-support/device-protocol.ts";
import type { OpeningSlot } from "#app/config/shop.ts";
import type { QueuePlace, QueueServerEvents, QueueSnapshot } from "#app/remote-support/queue.ts";
import type { TestSocket } from "#tests/support/remote-support.ts";
import type { DeviceClient } from "./device-testing.ts";

/** The socket's queue events (typed by `QueueServerEvents`, as the browser views them). */
const queueEvents = (socket: TestSocket) => socket as unknown as Socket<QueueServerEvents>;

/** Resolves with the first value `listen` hands to `accept` that passes it; rejects after `timeoutMs`. */
function until<T>(
  listen: (handler: (value: T) => void) => () => void,
  accept: (value: T) => boolean,
  what: string,
  timeoutMs: number,
): Promise<T> {
  return new Promise((resolve, reject) => {
    let last: T | undefined;
    const stop = listen((value) => {
      last = value;
      if (!accept(value)) return;
      clearTimeout(timer);
      stop();
      resolve(value);
    });
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`${what} attendu en ${timeoutMs} ms ; dernier reçu : ${JSON.stringify(last)}`));
    }, timeoutMs);
  });
}

/** The next `queue:updated` whose entries' names are `names`, in this order. */
export function queueShowing(socket: TestSocket, names: readonly string[], timeoutMs = 8_000): Promise<QueueSnapshot> {
  return until<QueueSnapshot>(
    (handler) => {
      queueEvents(socket).on("queue:updated", handler);
      return () => queueEvents(socket).off("queue:updated", handler);
    },
    (snapshot) => JSON.stringify(snapshot.entries.map((entry) => entry.userName)) === JSON.stringify(names),
    `une file d'attente ${JSON.stringify(names)}`,
    timeoutMs,
  );
}

/** The next `queue:place` for session `code` equal to `expected` (null: out of the queue). */
export function placeOf(
  socket: TestSocket,
  code: string,
  expected: QueuePlace | null,
  timeoutMs = 8_000,
): Promise<QueuePlace | null> {
  return until<{ code: string; place: QueuePlace | null }>(
    (handler) => {
      queueEvents(socket).on("queue:place", handler);
      return () => queueEvents(socket).off("queue:place", handler);
    },
    (update) => update.code === code && JSON.stringify(update.place) === JSON.stringify(expected),
    `la place ${JSON.stringify(expected)} de ${code}`,
    timeoutMs,
  ).then((update) => update.place);
}

/** An app's `/device` connection whose `device:queue` pushes are all kept, from before it connects. */
export type WaitingApp = {
  app: DeviceClient;
  /** Resolves once the latest place received is `expected` (null: out of the queue), whatever hours came with it. */
  place(expected: QueuePlace | null, timeoutMs?: number): Promise<void>;
  /** Issue 29: resolves once the latest push carries these opening hours. */
  hours(expected: readonly OpeningSlot[], timeoutMs?: number): Promise<void>;
};

/** The place alone of a push (the hours of issue 29 left aside), as the tests of issue 27 compare it. */
const placeAlone = (pushed: DeviceQueuePlace | null): QueuePlace | null =>
  pushed && { place: pushed.place, total: pushed.total, estimatedMinutes: pushed.estimatedMinutes };

/** Connects as the app with `token`, listening to `device:queue` before the connection exists. */
export async function connectWaitingApp(url: string, token: string): Promise<WaitingApp> {
  const app: DeviceClient = connect(url + DEVICE_NAMESPACE, {
    transports: ["websocket"],
    reconnection: false,
    forceNew: true,
    autoConnect: false,
    auth: { token },
  });
  let latest: DeviceQueuePlace | null | undefined;
  const waiters = new Set<() => void>();
  app.on("device:queue", (place) => {
    latest = place;
    for (const waiter of waiters) waiter();
  });
  await new Promise<void>((resolve, reject) => {
    app.once("connect", () => resolve());
    app.once("connect_error", reject);
    app.connect();
  });
  /** Resolves once the latest push passes `matches`; rejects after `timeoutMs`, naming `what`. */
  const latestMatching = (matches: (pushed: DeviceQueuePlace | null) => boolean, what: string, timeoutMs: number) => {
    const check = () => latest !== undefined && matches(latest);
    if (check()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter = () => {
        if (!check()) return;
        clearTimeout(timer);
        waiters.delete(waiter);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`${what} attendu ; dernier reçu : ${JSON.stringify(latest)}`));
      }, timeoutMs);
      waiters.add(waiter);
    });
  };
  return {
    app,
    place: (expected, timeoutMs = 8_000) =>
      latestMatching(
        (pushed) => JSON.stringify(placeAlone(pushed)) === JSON.stringify(expected),
        `place ${JSON.stringify(expected)}`,
        timeoutMs,
      ),
    hours: (expected, timeoutMs = 8_000) =>
      latestMatching(
        (pushed) => JSON.stringify(pushed?.openingHours) === JSON.stringify(expected),
        `horaires ${JSON.stringify(expected)}`,
        timeoutMs,
      ),
  };
}
