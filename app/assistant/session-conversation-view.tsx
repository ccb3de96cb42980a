/**
 * Issue 18 §4: « Conversation avec l'assistant » in the technician's active
 * session panel and, folded (`collapsible`), beside the chat of the
 * full-screen remote view, which opens first on joining: the customer's
 * assistant conversation attached to the session by « Parler à un
 * technicien », as a list of messages labelled "Client" / "Assistant" with
 * their time (fr-FR). Nothing is shown for a session started without one.
 * The server answers it to the session's participants only. Issue 40: an
 * answer's links read as their names and paths, not links (following one
 * would leave the session).
 */
import { useEffect, useId, useState } from "react";
import { getSessionConversation } from "#app/remote-support/client/api.ts";
import { cn } from "#app/utils/cn.ts";
import { ReplyText } from "./reply-text";
import { formatMessageTime, HANDOFF_MESSAGES, type SessionConversationMessage } from "./session-conversation";

/**
 * The conversation attached to session `code`, read when the code changes.
 * `collapsible`: a disclosure, open at first, its list scrolling past 16 rem.
 */
export function SessionConversationView({ code, collapsible = false }: { code: string; collapsible?: boolean }) {
  const headingId = useId();
  const [conversation, setConversation] = useState<SessionConversationMessage[] | null>(null);

  useEffect(() => {
    let cancelled = false;
    setConversation(null);
    void getSessionConversation(code).then((result) => {
      if (cancelled) return;
      if (result.ok) setConversation(result.data.conversation);
      // The status only: the conversation is the customer's.
      else console.error("Conversation de l'assistant illisible", result.status);
    });
    return () => {
      cancelled = true;
    };
  }, [code]);

  if (!conversation || conversation.length === 0) return null;
  const list = (
    <ol
      aria-labelledby={headingId}
      // Scrolled by keyboard too when it overflows (WCAG 2.1.1).
      tabIndex={collapsible ? 0 : undefined}
      className={cn(
        "flex flex-col gap-2",
        collapsible &&
          "max-h-64 overflow-y-auto rounded-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300",
      )}
    >
      {conversation.map((message, position) => (
        <li
          key={position}
          className={cn(
            "rounded-lg px-3 py-2 whitespace-pre-line break-words text-slate-50",
            message.role === "user" ? "bg-sky-950" : "bg-slate-800",
          )}
        >
          <span className="block text-sm font-semibold text-slate-200">
            {message.role === "user" ? HANDOFF_MESSAGES.customer : HANDOFF_MESSAGES.assistant}
            {" · "}
            <time dateTime={message.createdAt}>{formatMessageTime(message.createdAt)}</time>
          </span>
          {message.role === "user" ? message.content : <ReplyText text={message.content} linkable={false} />}
        </li>
      ))}
    </ol>
  );
  if (collapsible) {
    return (
      <details open className="flex flex-col gap-2">
        <summary className="cursor-pointer text-lg font-semibold text-white">
          <h3 id={headingId} className="inline">
            {HANDOFF_MESSAGES.heading}
          </h3>
        </summary>
        {list}
      </details>
    );
  }
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2">
      <h3 id={headingId} className="text-lg font-semibold text-white">
        {HANDOFF_MESSAGES.heading}
      </h3>
      {list}
    </section>
  );
}
