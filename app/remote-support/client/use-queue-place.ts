/**
 * Issue 27: the customer's place in the waiting queue for a React screen
 * (`watchQueuePlace` in `queue-place.ts`), while `code` is set (their
 * session waits for a technician); null otherwise.
 */
import { useEffect, useState } from "react";
import type { QueuePlace } from "#app/remote-support/queue.ts";
import { watchQueuePlace } from "./queue-place.ts";
import type { RealtimeSocket } from "./session-events.ts";

export function useQueuePlace(code: string | null, socket: RealtimeSocket | null): QueuePlace | null {
  const [place, setPlace] = useState<QueuePlace | null>(null);
  useEffect(() => {
    setPlace(null);
    if (!code || !socket) return;
    return watchQueuePlace(socket, code, setPlace);
  }, [code, socket]);
  return place;
}
