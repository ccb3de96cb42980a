/**
 * An assistant answer as the customer reads it (issue 40, « Customers of
 * remote help » §2; issue 18 §4 for the booking link): its text with line
 * breaks kept, and each page it points to as a link named for where it leads
 * (« Prendre rendez-vous : Écran, Galaxy S21 », « Nous contacter »), never a
 * raw path. Only same-site paths become links (`reply-links.ts`); everything
 * is rendered as React elements, so an answer can hold no HTML.
 */
import { Fragment, type ReactNode } from "react";
import { Link } from "react-router";
import { replySegments } from "./reply-links";

/**
 * `text` with its links. `linkable` false (the technician's copy of a
 * conversation, where leaving the page would close the session view): each
 * link is its name followed by its path in parentheses, as plain text.
 */
export function ReplyText({ text, linkable = true }: { text: string; linkable?: boolean }): ReactNode {
  return replySegments(text).map((segment, index) => {
    if (segment.kind === "text") return <Fragment key={index}>{segment.text}</Fragment>;
    if (!linkable) return <Fragment key={index}>{`${segment.name} (${segment.to})`}</Fragment>;
    return (
      <Link
        key={index}
        to={segment.to}
        className="font-medium text-sky-300 underline underline-offset-4 hover:text-sky-200"
      >
        {segment.name}
      </Link>
    );
  });
}
