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

/** An instant with its offset; the pattern lets through days that do not exist (31 February), hence the refine. */
const Instant = z.iso
  .datetime({ offset: true, error: RATING_MESSAGES.badBefore })
  .refine((value) => !Number.isNaN(Date.parse(value)), { error: RATING_MESSAGES.badBefore });

/**
 * `avant` of the staff list: an instant (ratings changed strictly before it),
 * or the previous page's `nextBefore`, that instant and the last rating's id
 * ("2026-11-24T06:00:00.123Z_<uuid>"): ratings changed in the same
 * millisecond then follow in id order, none skipped.
 */
export const RatingsCursor = z
  .string({ error: RATING_MESSAGES.badBefore })
  .max(100, { error: RATING_MESSAGES.badBefore })
  .transform((value, context) => {
    const [instant, id, ...rest] = value.split("_");
    const at = Instant.safeParse(instant);
    const uuid = id === undefined ? undefined : z.uuid().safeParse(id);
    if (rest.length > 0 || !at.success || (uuid && !uuid.success)) {
      context.addIssue({ code: "custom", message: RATING_MESSAGES.badBefore });
      return z.NEVER;
    }
    return { at: new Date(at.data), id: uuid?.data };
  });

/** `GET /api/assistant/ratings` query: `avis` (default `pas-utile`) and `avant` (`RatingsCursor`). */
export const RatingsQuery = z.object({
  avis: z
    .enum(Object.keys(RATING_FILTERS) as [keyof typeof RATING_FILTERS, ...(keyof typeof RATING_FILTERS)[]], {
      error: RATING_MESSAGES.badFilter,
    })
    .default("pas-utile"),
  avant: RatingsCursor.optional(),
});
