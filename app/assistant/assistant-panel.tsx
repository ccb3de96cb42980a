/**
 * The "Assistant virtuel" panel of the customer screen (issue 7; spec §2
 * "Customer assistant screen", §5 chat, §8). The conversation is the
 * server's (`/api/assistant/messages`): a reload shows it again, "Nouvelle
 * conversation" clears it. A reply arrives piece by piece (server-sent
 * events read from the POST's body) under a visible "L'assistant écrit…";
 * the log is `aria-busy` meanwhile, so a screen reader reads each reply once,
 * whole. Empty or blank messages are not sent (spec §5).
 *
 * Issue 17 §4: each stored answer (not the greeting, not one being written
 * or that failed) can be rated "Utile" / "Pas utile" (`answer-rating.tsx`);
 * one line under the conversation says where ratings go.
 *
 * Issue 18 §4: « Parler à un technicien » (`technician-handoff.tsx`) starts
 * a support session with this conversation attached. Issue 40: the pages an
 * answer points to are named links (`reply-text.tsx`), the booking form's
 * with its model and repair.
 */
import { EventSourceParserStream } from "eventsource-parser/stream";
import { Bot, Send, Trash2 } from "lucide-react";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Input } from "#app/components/ui/field.tsx";
import { cn } from "#app/utils/cn.ts";
import { QueuedSubmitStatus, useQueuedSubmit } from "#app/utils/use-queued-submit.tsx";
import { useTypedBeforeHydration } from "#app/utils/use-typed-before-hydration.ts";
import {
  ASSISTANT_MESSAGE_MAX_CHARS,
  ASSISTANT_MESSAGES,
  assistantShopMessages,
  type AssistantConversationResponse,
  type AssistantMessage,
} from "./protocol";
import { AnswerRating } from "./answer-rating";
import { RATING_MESSAGES } from "./ratings-protocol";
import { ReplyText } from "./reply-text";
import { TechnicianHandoff } from "./technician-handoff";
import { useShop } from "#app/shop/use-shop.ts";

/** `pending`: being written; `unsaved`: a reply the server never stored (the connection broke), so not ratable. */
type Line = AssistantMessage & { pending?: boolean; unsaved?: boolean };

const ratable = (line: Line) => line.role === "assistant" && !line.pending && !line.unsaved && line.content !== "";

/** The server's French message, else `fallback` (the spec's failure message with the shop's contacts). */
async function readError(response: Response, fallback: string): Promise<string> {
  const payload = (await response.json().catch(() => null)) as { message?: unknown } | null;
  return typeof payload?.message === "string" ? payload.message : fallback;
}

export function AssistantPanel() {
  // Issue 29: the current identity (root loader data), for the greeting and the failure message.
  const shopMessages = assistantShopMessages(useShop());
  const id = useId();
  const [lines, setLines] = useState<Line[]>([]);
  const [draft, setDraft] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const logRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  // A question typed while the page loads is kept when React takes over (issue 27).
  const keepTyped = useTypedBeforeHydration("assistant-message", inputRef, draft, setDraft);
  // Entrée pressed before that is sent once React is ready, with « envoi… » meanwhile (issue 39 §2).
  const formRef = useRef<HTMLFormElement>(null);
  // The conversation read first: an answer sent before would be replaced by it, and seem lost.
  const [loaded, setLoaded] = useState(false);
  const { formProps: queueSubmit, queue } = useQueuedSubmit("assistant-message", formRef, loaded);

  useEffect(() => {
    let cancelled = false;
    void fetch("/api/assistant/messages", { headers: { Accept: "application/json" } })
      .then(async (response) => {
        // Only logged (below): the spec's message with the shop's contacts is for the conversation.
        if (!response.ok) throw new Error(await readError(response, "conversation illisible"));
        return (await response.json()) as AssistantConversationResponse;
      })
      .then((data) => {
        if (!cancelled) setLines(data.messages);
      })
      .catch((caught: unknown) => console.error("Erreur lors du chargement de la conversation", caught))
      .finally(() => {
        if (!cancelled) setLoaded(true);
      });
    return () => {
      cancelled = true;
    };
  }, []);

  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [lines]);

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const content = draft.trim();
    // Spec §5: an empty or whitespace-only message is not sent.
    if (!content || busy) return;
    if (!loaded) return queue();
    setBusy(true);
    setError("");
    setDraft("");
    const now = new Date().toISOString();
    const replyId = `reponse-${now}`;
    setLines((current) => [
      ...current,
      { id: `envoi-${now}`, role: "user", content, createdAt: now, pending: true },
      { id: replyId, role: "assistant", content: "", createdAt: now, pending: true },
    ]);
    const update = (change: (line: Line) => Line) =>
      setLines((current) => current.map((line) => (line.id === replyId ? change(line) : line)));
    try {
      const response = await fetch("/api/assistant/messages", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
        body: JSON.stringify({ content }),
      });
      if (!response.ok || !response.body) {
        const message = await readError(response, shopMessages.failed);
        setLines((current) => current.filter((line) => !line.pending));
        setDraft(content);
        setError(message);
        return;
      }
      const events = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
      for await (const message of events) {
        if (message.event === "delta") {
          const { text } = JSON.parse(message.data) as { text: string };
          update((line) => ({ ...line, content: line.content + text }));
        } else if (message.event === "user") {
          const stored = JSON.parse(message.data) as AssistantMessage;
          setLines((current) => current.map((line) => (line.role === "user" && line.pending ? stored : line)));
        } else if (message.event === "done") {
          const stored = JSON.parse(message.data) as AssistantMessage;
          setLines((current) => current.map((line) => (line.id === replyId ? stored : line)));
        }
      }
    } catch (caught) {
      console.error("Erreur de l'assistant", caught);
      update((line) => ({
        ...line,
        content: line.content || shopMessages.failed,
        pending: false,
        unsaved: true,
      }));
    } finally {
      setBusy(false);
      inputRef.current?.focus();
    }
  }

  async function restart() {
    const response = await fetch("/api/assistant/messages", { method: "DELETE" });
    if (!response.ok) return setError(await readError(response, shopMessages.failed));
    setLines([]);
    setError("");
    inputRef.current?.focus();
  }

  const writing = busy && lines.at(-1)?.pending === true;
  const noticeId = `${id}-avis`;
  return (
    <Card className="flex flex-col gap-4" data-slot="assistant-virtuel">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={`${id}-titre`} className="flex items-center gap-2 text-2xl font-bold text-white">
          <Bot aria-hidden="true" className="size-6 text-sky-300" />
          Assistant virtuel
        </h2>
        <Button type="button" variant="ghost" onClick={restart} disabled={busy || lines.length === 0}>
          <Trash2 aria-hidden="true" className="size-5" />
          Nouvelle conversation
        </Button>
      </div>
      <div
        ref={logRef}
        role="log"
        aria-live="polite"
        aria-busy={busy}
        aria-labelledby={`${id}-titre`}
        className="flex max-h-[28rem] min-h-40 flex-col gap-3 overflow-y-auto rounded-lg border border-slate-700 bg-slate-950/60 p-3"
      >
        <p className="max-w-[90%] self-start rounded-lg bg-slate-800 px-3 py-2 text-slate-50">
          {shopMessages.greeting}
        </p>
        {lines.map((line) =>
          line.role === "user" ? (
            <p
              key={line.id}
              className="max-w-[90%] self-end rounded-lg bg-sky-900 px-3 py-2 whitespace-pre-line break-words text-white"
            >
              <span className="sr-only">Vous : </span>
              {line.content}
            </p>
          ) : line.content ? (
            <div key={line.id} className="flex max-w-[90%] flex-col gap-2 self-start">
              <p className={cn("rounded-lg bg-slate-800 px-3 py-2 whitespace-pre-line break-words text-slate-50")}>
                <span className="sr-only">Assistant : </span>
                <ReplyText text={line.content} />
              </p>
              {ratable(line) ? (
                <AnswerRating
                  messageId={line.id}
                  rating={line.rating}
                  noticeId={noticeId}
                  onRated={(rating) =>
                    setLines((current) => current.map((other) => (other.id === line.id ? { ...other, rating } : other)))
                  }
                />
              ) : null}
            </div>
          ) : null,
        )}
      </div>
      {lines.some(ratable) ? (
        <p id={noticeId} className="text-sm text-slate-300">
          {RATING_MESSAGES.notice}
        </p>
      ) : null}
      <p role="status" className="min-h-6 text-slate-300">
        {writing ? "L'assistant écrit…" : ""}
      </p>
      <form ref={formRef} {...queueSubmit} onSubmit={send} className="flex gap-2">
        <label htmlFor={`${id}-message`} className="sr-only">
          Votre message à l'assistant
        </label>
        <Input
          ref={inputRef}
          {...keepTyped}
          id={`${id}-message`}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          placeholder={ASSISTANT_MESSAGES.placeholder}
          maxLength={ASSISTANT_MESSAGE_MAX_CHARS}
          autoComplete="off"
          aria-describedby={`${id}-erreur`}
        />
        <QueuedSubmitStatus />
        <Button type="submit" disabled={busy || !draft.trim()} aria-label="Envoyer">
          <Send aria-hidden="true" className="size-5" />
        </Button>
      </form>
      <p id={`${id}-erreur`} role="alert" className="text-red-300">
        {error}
      </p>
      <TechnicianHandoff disabled={busy} />
    </Card>
  );
}
