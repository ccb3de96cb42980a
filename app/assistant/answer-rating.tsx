/**
 * "Utile" / "Pas utile" under one stored answer of the assistant (issue 17
 * §4), in the "Assistant virtuel" panel. A click stores the rating at once
 * (`PUT /api/assistant/messages/:id/rating`) and the buttons show it
 * (`aria-pressed`); an optional comment ("Un commentaire ? (facultatif)",
 * "Envoyer") follows, then "Merci pour votre avis.". A reload shows the
 * stored rating (`AssistantMessage.rating`). Refusals are the API's French
 * messages, under the buttons.
 */
import { ThumbsDown, ThumbsUp } from "lucide-react";
import { useId, useRef, useState, type FormEvent } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Textarea } from "#app/components/ui/field.tsx";
import { rateAnswer } from "./ratings-client.ts";
import {
  RATING_COMMENT_MAX_CHARS,
  RATING_LABELS,
  RATING_MESSAGES,
  RATING_VALUES,
  type AnswerRating as StoredRating,
  type RatingValue,
} from "./ratings-protocol.ts";

type Props = {
  /** The stored answer's id. */
  messageId: string;
  /** The account's rating of it, if any (from the conversation, then from each answer of the API). */
  rating?: StoredRating;
  /** Called with the stored rating after each accepted change, so the conversation keeps it. */
  onRated: (rating: StoredRating) => void;
  /** The panel's line saying where ratings go (read with the buttons). */
  noticeId: string;
};

const ICONS = { useful: ThumbsUp, "not-useful": ThumbsDown } as const;

/** The rating controls of one answer; see the module comment. */
export function AnswerRating({ messageId, rating, onRated, noticeId }: Props) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  // A rating read from the server was already sent: thanks; a click just now opens the comment.
  const [step, setStep] = useState<"choose" | "comment" | "thanks">(rating ? "thanks" : "choose");
  const [draft, setDraft] = useState("");
  // Set when the comment was just sent: the thanks takes the focus as it appears.
  const focusThanks = useRef(false);

  async function choose(value: RatingValue) {
    if (busy || (rating?.value === value && step !== "thanks")) return;
    setBusy(true);
    setError("");
    const result = await rateAnswer(messageId, { rating: value });
    setBusy(false);
    if (!result.ok) return setError(result.message);
    const stored = { value: result.data.rating.value, comment: result.data.rating.comment };
    onRated(stored);
    setDraft(stored.comment ?? "");
    setStep("comment");
  }

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !rating) return;
    setBusy(true);
    setError("");
    const result = await rateAnswer(messageId, { rating: rating.value, comment: draft.trim() });
    setBusy(false);
    if (!result.ok) return setError(result.message);
    onRated({ value: result.data.rating.value, comment: result.data.rating.comment });
    // The form goes away with the focus: it moves to the thanks, which says what happened.
    focusThanks.current = true;
    setStep("thanks");
  }

  return (
    <div className="flex flex-col gap-2 text-sm">
      <div
        role="group"
        aria-label="Votre avis sur cette réponse"
        aria-describedby={noticeId}
        className="flex flex-wrap gap-2"
      >
        {RATING_VALUES.map((value) => {
          const Icon = ICONS[value];
          const pressed = rating?.value === value;
          return (
            <Button
              key={value}
              type="button"
              variant={pressed ? "primary" : "secondary"}
              aria-pressed={pressed}
              disabled={busy}
              onClick={() => void choose(value)}
              className="min-h-9 px-3 py-1 text-sm"
            >
              <Icon aria-hidden="true" className="size-4" />
              {RATING_LABELS[value]}
            </Button>
          );
        })}
      </div>
      {step === "comment" && rating ? (
        <form onSubmit={send} className="flex flex-col gap-2">
          <label htmlFor={`${id}-commentaire`} className="font-medium text-slate-100">
            Un commentaire ? (facultatif)
          </label>
          <Textarea
            id={`${id}-commentaire`}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            maxLength={RATING_COMMENT_MAX_CHARS}
            rows={2}
            className="min-h-16 text-sm"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-erreur` : undefined}
          />
          <div>
            <Button type="submit" variant="secondary" disabled={busy} className="min-h-9 px-3 py-1 text-sm">
              Envoyer<span className="sr-only"> le commentaire</span>
            </Button>
          </div>
        </form>
      ) : null}
      {step === "thanks" && rating ? (
        <p
          ref={(node) => {
            if (node && focusThanks.current) {
              focusThanks.current = false;
              node.focus();
            }
          }}
          tabIndex={-1}
          className="text-slate-200 focus-visible:outline-none"
        >
          {RATING_MESSAGES.thanks}
          {rating.comment ? (
            <span className="mt-1 block whitespace-pre-line break-words text-slate-300">
              Votre commentaire : « {rating.comment} »
            </span>
          ) : null}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-erreur`} role="alert" className="font-medium text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}
