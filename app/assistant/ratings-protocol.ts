/**
 * Ratings of the assistant's answers (issue 17 §4), shared by the browser and
 * the server: the values, the French texts, the JSON shapes and the paths of
 * `PUT /api/assistant/messages/:id/rating` (the customer) and
 * `GET /api/assistant/ratings` (staff, "Avis sur l'assistant").
 *
 * Pure and zod-free (the bodies' schemas are in `rating-schemas.ts`): the
 * technicians' dashboard imports this without downloading zod.
 */

/** What a customer may say of one answer: "Utile" / "Pas utile". */
export const RATING_VALUES = ["useful", "not-useful"] as const;
export type RatingValue = (typeof RATING_VALUES)[number];

/** Button labels, and the words staff read. */
export const RATING_LABELS: Record<RatingValue, string> = { useful: "Utile", "not-useful": "Pas utile" };

/** Longest comment, characters (the database checks it too). */
export const RATING_COMMENT_MAX_CHARS = 1000;
/** Messages kept with a rating: the rated answer and up to 9 before it. */
export const RATING_SNAPSHOT_MESSAGES = 10;
/** The staff counts cover this many days, by last change. */
export const RATING_COUNT_DAYS = 30;
/** Ratings per page of the staff list. */
export const RATINGS_PAGE_SIZE = 20;

/** The staff list's filter as the address says it (`?avis=`), and as the server reads it. */
export const RATING_FILTERS = { "pas-utile": "not-useful", tous: "all" } as const;
export type RatingFilterParam = keyof typeof RATING_FILTERS;
export type RatingFilter = (typeof RATING_FILTERS)[RatingFilterParam];

/** French texts of the ratings, customer and staff side. */
export const RATING_MESSAGES = {
  notFound: "Réponse introuvable.",
  badId: "Identifiant de réponse invalide.",
  badRating: "Choisissez « Utile » ou « Pas utile ».",
  commentTooLong: "Votre commentaire est trop long (1 000 caractères au plus).",
  badComment: "Le commentaire doit être un texte.",
  badFilter: "Filtre d'avis invalide : « pas-utile » ou « tous ».",
  badBefore: "Date de pagination invalide.",
  tooManyRatings: "Vous avez envoyé beaucoup d'avis. Patientez quelques minutes avant de recommencer.",
  saveFailed: "Votre avis n'a pas pu être enregistré. Réessayez dans un instant.",
  listFailed: "Les avis sur l'assistant n'ont pas pu être lus. Réessayez dans un instant.",
  thanks: "Merci pour votre avis.",
  notice: "Votre avis et cet échange sont transmis à l'atelier pour améliorer l'assistant.",
} as const;

/** The account's own rating of one answer, as the conversation (`AssistantMessage.rating`) and the PUT give it. */
export type AnswerRating = { value: RatingValue; comment: string | null };

/** `PUT /api/assistant/messages/:id/rating`: 200 `{ rating }` (the stored rating). */
export type RatingResponse = { rating: AnswerRating & { messageId: string; updatedAt: string } };

/** One message of a rated exchange, as it was when rated (ISO 8601 time). */
export type RatedMessage = { role: "user" | "assistant"; content: string; createdAt: string };

/** One rating as staff read it: no account is named, only what was said. Times ISO 8601. */
export type StaffRating = {
  id: string;
  value: RatingValue;
  comment: string | null;
  /** The rated answer. */
  answer: string;
  /** Up to `RATING_SNAPSHOT_MESSAGES` messages, oldest first; the last one is the rated answer. */
  conversation: RatedMessage[];
  createdAt: string;
  updatedAt: string;
};

/** Ratings per value changed during the last `days` days. */
export type RatingCounts = { useful: number; notUseful: number; days: number };

/**
 * `GET /api/assistant/ratings?avis=pas-utile|tous&avant=<ISO>[_<id>]`: newest
 * change first; `nextBefore` is the `avant` of the next page (the last
 * rating's time and id; null: no more).
 */
export type RatingsListResponse = { ratings: StaffRating[]; counts: RatingCounts; nextBefore: string | null };

/** Browser paths of the ratings API. */
export const RATING_PATHS = {
  rate: (messageId: string) => `/api/assistant/messages/${encodeURIComponent(messageId)}/rating`,
  list: ({ filter, before }: { filter: RatingFilterParam; before?: string | null }) =>
    `/api/assistant/ratings?${new URLSearchParams({ avis: filter, ...(before ? { avant: before } : {}) })}`,
} as const;
