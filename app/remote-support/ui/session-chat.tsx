/**
 * The in-session chat panel between technician and customer (issue 6). Its
 * state (lines, sending, keeping them on the server) is `useSessionChat`,
 * in `client/use-session-chat.ts` (issue 14); since issue 38 §1 over the
 * server's Socket.IO link, so it works in every session (site or app) as
 * soon as a technician is connected, whether the screen is shared or not.
 */
import { Send } from "lucide-react";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/field.tsx";
import { cn } from "#app/utils/cn.ts";
import { QueuedSubmitStatus, useQueuedSubmit } from "#app/utils/use-queued-submit.tsx";
import { useTypedBeforeHydration } from "#app/utils/use-typed-before-hydration.ts";
import { formatTime } from "#app/remote-support/client/format.ts";
import { useSessionChat } from "#app/remote-support/client/use-session-chat.ts";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";
import { CHAT_MAX_CHARS } from "#app/remote-support/protocol.ts";

type Props = {
  /** The connected session's code (a technician joined); null: nobody to write to yet. */
  code: string | null;
  side: "customer" | "technician";
  /** The page's Socket.IO connection (null until it is open). */
  socket: RealtimeSocket | null;
  /** How the other side is named ("Technicien", the customer's name). */
  otherName: string;
  className?: string;
};

/** The chat panel: a log of messages and a one-line form (Enter sends). */
export function SessionChat({ code, side, socket, otherName, className }: Props) {
  const id = useId();
  const { lines, say, error: refusal } = useSessionChat(code, side, socket);
  const connected = code !== null && socket !== null;
  const [draft, setDraft] = useState("");
  const [error, setError] = useState("");
  const draftRef = useRef<HTMLInputElement>(null);
  // A message typed while a reloaded page loads is kept when React takes over (issue 27).
  const keepTyped = useTypedBeforeHydration("session-chat-message", draftRef, draft, setDraft);
  // Entrée pressed before that is sent once the connection is up, with « envoi… » meanwhile (issue 39 §2).
  const formRef = useRef<HTMLFormElement>(null);
  const { formProps: queueSubmit } = useQueuedSubmit("session-chat-message", formRef, connected);
  const logRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    // Scrolls the log itself (not the page) to the newest message.
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [lines.length]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = draft.trim();
    if (!text) return;
    if (!say(text)) return setError("Message non envoyé : la connexion au serveur est interrompue. Réessayez.");
    setError("");
    setDraft("");
  }

  return (
    <section aria-labelledby={`${id}-titre`} className={cn("flex min-h-0 flex-col gap-3", className)}>
      <h3 id={`${id}-titre`} className="text-lg font-semibold text-white">
        Discussion
      </h3>
      <div
        ref={logRef}
        role="log"
        aria-live="polite"
        aria-label="Messages de la session"
        className="max-h-64 min-h-16 overflow-y-auto rounded-lg border border-slate-700 bg-slate-950/60 p-3"
      >
        <ol className="flex flex-col gap-2">
          {lines.length === 0 ? <li className="text-slate-400">Aucun message pour l'instant.</li> : null}
          {lines.map((line) => (
            <li key={line.id} className={cn("flex flex-col", line.mine ? "items-end" : "items-start")}>
              <span className="text-sm text-slate-300">
                {line.mine ? "Vous" : <bdi>{otherName}</bdi>} · {line.pending ? "envoi…" : formatTime(line.at)}
              </span>
              <span
                className={cn(
                  "max-w-full rounded-lg px-3 py-1.5 break-words",
                  line.mine ? "bg-sky-900 text-white" : "bg-slate-800 text-slate-50",
                )}
              >
                {line.text}
              </span>
            </li>
          ))}
        </ol>
      </div>
      <form ref={formRef} {...queueSubmit} onSubmit={submit} className="flex gap-2">
        <label htmlFor={`${id}-message`} className="sr-only">
          Votre message
        </label>
        <Input
          ref={draftRef}
          {...keepTyped}
          id={`${id}-message`}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          placeholder="Votre message…"
          maxLength={CHAT_MAX_CHARS}
          autoComplete="off"
          aria-describedby={`${id}-erreur`}
        />
        <QueuedSubmitStatus />
        <Button type="submit" disabled={!connected || !draft.trim()} aria-label="Envoyer le message">
          <Send aria-hidden="true" className="size-5" />
        </Button>
      </form>
      <p id={`${id}-erreur`} role="alert" className="text-sm text-red-300">
        {error || refusal}
      </p>
    </section>
  );
}
