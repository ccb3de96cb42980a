/**
 * The technicians' "Assistant" view (issue 17 §4), in the remote-support
 * dashboard: "Avis sur l'assistant", what customers said of the assistant's
 * answers, the first thing a shop owner reads to improve it. The counts of
 * the last 30 days, then the rated exchanges newest first, "Pas utile" only
 * unless "Tout afficher" is chosen: date (fr-FR), comment, and the
 * conversation's last messages with "Client" / "Assistant" labels, the rated
 * answer marked. "Actualiser" reads again, "Voir plus" reads the next page.
 * No account is named: the API does not send it. Issue 40: an answer's links
 * read as their names and paths (`ReplyText`, not followed from here).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { formatDateTime } from "#app/remote-support/client/format.ts";
import { cn } from "#app/utils/cn.ts";
import { getRatings } from "./ratings-client.ts";
import { ReplyText } from "./reply-text.tsx";
import { RATING_LABELS, type RatingCounts, type RatingFilterParam, type StaffRating } from "./ratings-protocol.ts";

const FILTERS: [RatingFilterParam, string][] = [
  ["pas-utile", "Seulement « Pas utile »"],
  ["tous", "Tout afficher"],
];

type Page = { ratings: StaffRating[]; counts: RatingCounts; nextBefore: string | null };

/** The counts line in French. */
function countsText({ useful, notUseful, days }: RatingCounts): string {
  return `Sur les ${days} derniers jours : ${notUseful} « Pas utile » et ${useful} « Utile ».`;
}

/** The dashboard's "Assistant" view; see the module comment. */
export function RatingsView() {
  const [filter, setFilter] = useState<RatingFilterParam>("pas-utile");
  const [page, setPage] = useState<Page | null>(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  /** The rating to take the focus as it appears: the first one "Voir plus" brought. */
  const focusIndex = useRef<number | null>(null);
  // Only the latest read may land: a slow answer for the former filter must not replace the new one.
  const latest = useRef(0);

  const load = useCallback(async (next: RatingFilterParam) => {
    const call = ++latest.current;
    setBusy(true);
    setError("");
    const result = await getRatings(next);
    if (call !== latest.current) return;
    setBusy(false);
    if (result.ok) setPage(result.data);
    else setError(result.message);
  }, []);

  useEffect(() => {
    void load(filter);
  }, [filter, load]);

  async function more() {
    if (!page?.nextBefore) return;
    const call = ++latest.current;
    const shown = page.ratings.length;
    setBusy(true);
    setError("");
    const result = await getRatings(filter, page.nextBefore);
    if (call !== latest.current) return;
    setBusy(false);
    if (!result.ok) return setError(result.message);
    // "Voir plus" may vanish with the last page: the focus goes to the first rating it brought.
    focusIndex.current = shown;
    setPage({ ...result.data, ratings: [...page.ratings, ...result.data.ratings] });
  }

  return (
    <section aria-labelledby="avis-assistant-titre" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="avis-assistant-titre" className="text-2xl font-bold text-white">
          Avis sur l'assistant
        </h2>
        <Button type="button" variant="secondary" disabled={busy} onClick={() => void load(filter)}>
          Actualiser
        </Button>
      </div>
      {page ? <p className="text-slate-200">{countsText(page.counts)}</p> : null}
      <div role="group" aria-label="Avis affichés" className="flex flex-wrap gap-2">
        {FILTERS.map(([key, label]) => (
          <Button
            key={key}
            type="button"
            variant={filter === key ? "primary" : "secondary"}
            aria-pressed={filter === key}
            onClick={() => setFilter(key)}
          >
            {label}
          </Button>
        ))}
      </div>
      <p role="alert" className="font-medium text-red-300">
        {error}
      </p>
      {page === null ? (
        error ? null : (
          <p className="text-slate-300">Chargement…</p>
        )
      ) : page.ratings.length === 0 ? (
        <p className="text-slate-300">
          {filter === "pas-utile"
            ? "Aucun avis « Pas utile » pour l'instant : rien à corriger dans les réponses notées."
            : "Aucun avis pour l'instant."}
        </p>
      ) : (
        <ul className="flex flex-col gap-4">
          {page.ratings.map((rating, index) => (
            <li key={rating.id}>
              <RatingCard
                rating={rating}
                claimFocus={() => {
                  if (focusIndex.current !== index) return false;
                  focusIndex.current = null;
                  return true;
                }}
              />
            </li>
          ))}
        </ul>
      )}
      {page?.nextBefore ? (
        <div>
          <Button type="button" variant="secondary" disabled={busy} onClick={() => void more()}>
            Voir plus
          </Button>
        </div>
      ) : null}
    </section>
  );
}

function RatingCard({ rating, claimFocus }: { rating: StaffRating; claimFocus: () => boolean }) {
  const last = rating.conversation.length - 1;
  return (
    <Card className="flex flex-col gap-3">
      <h3
        ref={(node) => {
          if (node && claimFocus()) node.focus();
        }}
        tabIndex={-1}
        className="text-lg font-semibold text-white focus-visible:outline-none"
      >
        {RATING_LABELS[rating.value]}
        <span className="font-normal text-slate-300"> · le {formatDateTime(rating.updatedAt)}</span>
      </h3>
      <p className="whitespace-pre-line break-words text-slate-100">
        {rating.comment ? (
          <>
            <span className="font-semibold">Commentaire : </span>« {rating.comment} »
          </>
        ) : (
          <span className="text-slate-300">Sans commentaire.</span>
        )}
      </p>
      <ol aria-label="Extrait de la conversation" className="flex flex-col gap-2">
        {rating.conversation.map((message, position) => {
          const rated = position === last && message.role === "assistant";
          return (
            <li
              key={position}
              className={cn(
                "rounded-lg px-3 py-2 whitespace-pre-line break-words",
                message.role === "user" ? "bg-sky-950 text-slate-50" : "bg-slate-800 text-slate-50",
                rated && "border-l-4 border-amber-300",
              )}
            >
              <span className="block text-sm font-semibold text-slate-200">
                {message.role === "user" ? "Client" : "Assistant"}
                {rated ? <span className="text-amber-200"> · réponse notée</span> : null}
              </span>
              {message.role === "user" ? message.content : <ReplyText text={message.content} linkable={false} />}
            </li>
          );
        })}
      </ol>
    </Card>
  );
}
