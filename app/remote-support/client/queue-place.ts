/**
 * Issue 27: a waiting customer's place in the queue, framework-free (the
 * React side is `use-queue-place.ts`). Read from `GET /api/sessions/:code/place`
 * at start and after every reconnection (a push sent while the page was not
 * listening is not lost), then kept by the server's `queue:place` pushes for
 * that session. Null while the session does not wait (joined, ended, or the
 * server does not see the page yet).
 */
import type { Socket } from "socket.io-client";
import type { QueuePlace, QueueServerEvents } from "#app/remote-support/queue.ts";
import { getQueuePlace } from "./api.ts";
import type { RealtimeSocket } from "./session-events.ts";

/**
 * Calls `onPlace` with session `code`'s place now and on every change, through `socket`; returns the function
 * that stops. `fetchPlace` defaults to the API's `getQueuePlace` (tests pass their own).
 */
export function watchQueuePlace(
  socket: RealtimeSocket,
  code: string,
  onPlace: (place: QueuePlace | null) => void,
  fetchPlace = getQueuePlace,
): () => void {
  let stopped = false;
  // A push newer than a read in flight wins: the read's answer is dropped if a push came after it was sent.
  let generation = 0;
  const read = async () => {
    const asked = ++generation;
    const result = await fetchPlace(code);
    if (stopped || asked !== generation) return;
    if (result.ok) onPlace(result.data.place);
  };
  const events = socket as unknown as Socket<QueueServerEvents>;
  const onUpdate = (update: { code: string; place: QueuePlace | null }) => {
    if (update.code !== code) return;
    generation++;
    onPlace(update.place);
  };
  const onConnect = () => void read();
  events.on("queue:place", onUpdate);
  socket.on("connect", onConnect);
  void read();
  return () => {
    stopped = true;
    events.off("queue:place", onUpdate);
    socket.off("connect", onConnect);
  };
}
