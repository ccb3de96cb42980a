/**
 * Issue 27, the dashboard's « File d'attente »: the customers waiting for a
 * technician, oldest first, live (`use-waiting-queue.ts`). Each entry says
 * the name given, « depuis le logiciel » or « depuis le site », the system,
 * how long they have waited (minutes, ticking without a request) and since
 * when, and the assistant conversation when they came from it (read when
 * the technician opens it). « Prendre en charge » joins the session without
 * typing its code; when another technician was first, the entry leaves the
 * list at once and the server's French answer is said (`role="alert"`). The
 * count of waiting customers is announced politely; the ticking times are
 * not. Times are fr-FR, in the browser's time zone.
 */
import { SHOP_TIME_ZONE } from "#app/booking/time-zone.ts";
import { useId, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { cn } from "#app/utils/cn.ts";
import { claimWaitingSession, getSessionConversation } from "#app/remote-support/client/api.ts";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";
import { useNow } from "#app/remote-support/client/use-now.ts";
import { useWaitingQueue } from "#app/remote-support/client/use-waiting-queue.ts";
import type { SessionView } from "#app/remote-support/protocol.ts";
import {
  formatWaited,
  QUEUE_MESSAGES,
  queueOriginLabel,
  waitedMinutes,
  type QueueEntry,
} from "#app/remote-support/queue.ts";
import {
  formatMessageTime,
  HANDOFF_MESSAGES,
  type SessionConversationMessage,
} from "#app/assistant/session-conversation.ts";

/** How often the waiting times are recomputed, ms: they are shown in whole minutes. */
const TICK_MS = 15_000;
const arrivalFormat = new Intl.DateTimeFormat("fr-FR", {
  hour: "2-digit",
  minute: "2-digit",
  timeZone: SHOP_TIME_ZONE,
});

/** « Aucun client en attente. », « 1 client en attente », « 3 clients en attente ». */
export function waitingCountText(count: number): string {
  if (count === 0) return "Aucun client en attente.";
  return `${count} client${count > 1 ? "s" : ""} en attente`;
}

type Props = {
  socket: RealtimeSocket | null;
  /** The session this technician took: the dashboard makes it its active one and opens the remote view. */
  onJoined: (session: SessionView) => void;
};

/** The queue read and followed here, over `socket`. */
export function WaitingQueue({ socket, onJoined }: Props) {
  return <WaitingQueueList queue={useWaitingQueue(socket)} onJoined={onJoined} />;
}

/**
 * The queue held by the caller (issue 40: the dashboard holds it, so its « Sessions » tab counts the waiting
 * customers from the same live list, one read and one store).
 */
export function WaitingQueueList({
  queue: { entries, store },
  onJoined,
}: {
  queue: ReturnType<typeof useWaitingQueue>;
  onJoined: Props["onJoined"];
}) {
  const headingId = useId();
  const now = useNow(TICK_MS);
  const [claiming, setClaiming] = useState<string | null>(null);
  const [error, setError] = useState("");

  async function claim(entry: QueueEntry) {
    setClaiming(entry.code);
    setError("");
    const result = await claimWaitingSession(entry.code);
    setClaiming(null);
    if (result.ok) {
      store.drop(entry.code);
      onJoined(result.data.session);
      return;
    }
    // Taken by another technician (409) or gone (410, 404): it will never wait again.
    if (result.status === 409 || result.status === 410 || result.status === 404) store.drop(entry.code);
    setError(result.message);
  }

  return (
    <Card className="flex flex-col gap-4 lg:col-span-2">
      <h2 id={headingId} className="text-2xl font-bold text-white">
        File d'attente
      </h2>
      <p role="status" className="text-slate-300">
        {entries === null ? "Chargement de la file d'attente…" : waitingCountText(entries.length)}
      </p>
      <p role="alert" className="text-base font-medium text-red-300">
        {error}
      </p>
      {entries && entries.length > 0 ? (
        <ol aria-labelledby={headingId} className="flex flex-col gap-3">
          {entries.map((entry, index) => (
            <WaitingEntry
              key={entry.code}
              entry={entry}
              position={index + 1}
              now={now}
              busy={claiming !== null}
              claiming={claiming === entry.code}
              onClaim={() => void claim(entry)}
            />
          ))}
        </ol>
      ) : null}
    </Card>
  );
}

type EntryProps = {
  entry: QueueEntry;
  position: number;
  now: number;
  busy: boolean;
  claiming: boolean;
  onClaim: () => void;
};

function WaitingEntry({ entry, position, now, busy, claiming, onClaim }: EntryProps) {
  const nameId = useId();
  const minutes = waitedMinutes(entry.waitingSince, now);
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-slate-700 bg-slate-950/60 p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex flex-col gap-1">
          <h3 id={nameId} className="text-lg font-semibold break-words text-white">
            {position}. <bdi>{entry.userName}</bdi>
          </h3>
          <p className="text-slate-200">
            {/* Issue 38 §4: the computer's short line when the customer sent its facts. */}
            {queueOriginLabel(entry.origin)} · {entry.computer ?? entry.system ?? QUEUE_MESSAGES.unknownSystem}
          </p>
          <p className="text-slate-300">
            En attente depuis <span className="font-semibold text-amber-200 tabular-nums">{formatWaited(minutes)}</span>{" "}
            (arrivée à <time dateTime={entry.waitingSince}>{arrivalFormat.format(new Date(entry.waitingSince))}</time>)
          </p>
        </div>
        <Button
          type="button"
          onClick={onClaim}
          disabled={busy}
          aria-label={`${QUEUE_MESSAGES.claim} ${entry.userName}`}
        >
          {claiming ? "Prise en charge…" : QUEUE_MESSAGES.claim}
        </Button>
      </div>
      {entry.conversationMessages > 0 ? (
        <QueueConversation code={entry.code} messages={entry.conversationMessages} />
      ) : null}
    </li>
  );
}

/** The assistant conversation handed over, folded; read from the server the first time it is opened. */
function QueueConversation({ code, messages }: { code: string; messages: number }) {
  const [conversation, setConversation] = useState<SessionConversationMessage[] | null>(null);
  const [failed, setFailed] = useState(false);
  const read = () => {
    if (conversation) return;
    void getSessionConversation(code).then((result) => {
      if (result.ok) setConversation(result.data.conversation ?? []);
      else setFailed(true);
    });
  };
  return (
    <details onToggle={(event) => event.currentTarget.open && read()} className="flex flex-col gap-2">
      <summary className="cursor-pointer font-semibold text-sky-200">
        {HANDOFF_MESSAGES.heading} ({messages} message{messages > 1 ? "s" : ""})
      </summary>
      {failed ? (
        <p className="text-red-300">La conversation n'a pas pu être lue.</p>
      ) : conversation === null ? (
        <p className="text-slate-300">Chargement…</p>
      ) : (
        <ol
          className="mt-2 flex max-h-64 flex-col gap-2 overflow-y-auto"
          tabIndex={0}
          aria-label={HANDOFF_MESSAGES.heading}
        >
          {conversation.map((message, index) => (
            <li
              key={index}
              className={cn(
                "rounded-lg px-3 py-2 break-words whitespace-pre-line text-slate-50",
                message.role === "user" ? "bg-sky-950" : "bg-slate-800",
              )}
            >
              <span className="block text-sm font-semibold text-slate-200">
                {message.role === "user" ? HANDOFF_MESSAGES.customer : HANDOFF_MESSAGES.assistant}
                {" · "}
                <time dateTime={message.createdAt}>{formatMessageTime(message.createdAt)}</time>
              </span>
              {message.content}
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}
