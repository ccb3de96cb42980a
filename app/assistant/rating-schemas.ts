/**
 * The zod schemas of the ratings API (issue 17 §4), apart from
 * `ratings-protocol.ts` so that screens needing only its types and texts do
 * not download zod. Every refusal carries a French message
 * (`RATING_MESSAGES`), answered as a 400 by `server/assistant/ratings-api.ts`.
 */
import { z } from "zod";
import { typedString } from "#app/utils/text.ts";
import { RATING_COMMENT_MAX_CHARS, RATING_FILTERS, RATING_MESSAGES, RATING_VALUES } from "./ratings-protocol.ts";

/** The `:id` of `/api/assistant/messages/:id/rating`: a message id is a UUID. */
export const RatedMessageId = z.uuid({ error: RATING_MESSAGES.badId });

/**
 * `PUT /api/assistant/messages/:id/rating` body. `comment` is trimmed; blank
 * clears the stored comment, absent keeps it (a change of mind between
 * "Utile" and "Pas utile" does not lose what was written).
 */
export const RatingBody = z.object({
  rating: z.enum(RATING_VALUES, { error: RATING_MESSAGES.badRating }),
  comment: typedString({ error: RATING_MESSAGES.badComment })
    .max(RATING_COMMENT_MAX_CHARS, { error: RATING_MESSAGES.commentTooLong })
    .trim()
    .optional(),
});
/** A valid `RatingBody`, as the service takes it. */
export type RatingBodyInput = z.infer<typeof RatingBody>;

/** `GET /api/assistant/ratings` query: `avis` (default `pas-utile`) and `avant`, an ISO 8601 time with its offset. */
export const RatingsQuery = z.object({
  avis: z
    .enum(Object.keys(RATING_FILTERS) as [keyof typeof RATING_FILTERS, ...(keyof typeof RATING_FILTERS)[]], {
      error: RATING_MESSAGES.badFilter,
    })
    .default("pas-utile"),
  avant: z.iso
    .datetime({ offset: true, error: RATING_MESSAGES.badBefore })
    // The pattern lets through days that do not exist (31 February): they would reach the query as an invalid Date.
    .refine((value) => !Number.isNaN(Date.parse(value)), { error: RATING_MESSAGES.badBefore })
    .optional(),
});
