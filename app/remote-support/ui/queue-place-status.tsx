/**
 * Issue 27: under « En attente d'un technicien… » on the customer's session
 * screen, their place in the waiting queue and the estimated wait, or the
 * shop's hours while it is closed (`queuePlaceText`, the same words as the
 * desktop app's). Announced politely when it changes; nothing while the
 * session does not wait.
 */
import { formatOpeningHours } from "#app/config/shop.ts";
import { useShop } from "#app/shop/use-shop.ts";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";
import { useNow } from "#app/remote-support/client/use-now.ts";
import { useQueuePlace } from "#app/remote-support/client/use-queue-place.ts";
import type { SessionView } from "#app/remote-support/protocol.ts";
import { queuePlaceText } from "#app/remote-support/queue.ts";

/** How often "open or closed" is looked at again, ms. */
const CLOCK_MS = 60_000;

export function QueuePlaceStatus({ session, socket }: { session: SessionView; socket: RealtimeSocket | null }) {
  const shop = useShop();
  const waiting = session.status === "disconnected" && session.endTime === null;
  const place = useQueuePlace(waiting ? session.code : null, socket);
  const now = useNow(CLOCK_MS);
  const lines = place
    ? queuePlaceText(place, {
        now: new Date(now),
        slots: shop.openingHours,
        hours: formatOpeningHours(shop.openingHours),
      })
    : [];
  return (
    <div role="status" aria-live="polite" className="flex flex-col gap-1 text-slate-200 empty:hidden">
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
    </div>
  );
}
