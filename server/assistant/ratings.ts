/**
 * Ratings of the assistant's answers (issue 17 §4), over the table
 * `assistant_ratings` (migration 0009):
 * - `rate`: a customer says "Utile" / "Pas utile" of one of their own
 *   answers, with an optional comment; one rating per answer, a new one
 *   updates it. The answer and up to 9 messages before it are copied with
 *   the rating, so the shop keeps what was rated after "Nouvelle
 *   conversation" deleted the messages. Limited per account.
 * - `ratingsOf`: the account's own ratings of answers still in its
 *   conversation (a reload shows them).
 * - `ratingsForStaff`: the "Avis sur l'assistant" list, newest change first,
 *   with the counts of the last 30 days. No account is named in it.
 *
 * Methods never throw: a database failure is logged and becomes a French
 * refusal (`reason: "failed"`); someone else's answer, a customer message or
 * an unknown id are the same 404 "Réponse introuvable." (nothing tells
 * whether another account's message exists).
 */
import { and, asc, count, desc, eq, gte, inArray, isNotNull, lt, lte, or, sql } from "drizzle-orm";
import type { Logger } from "pino";
import {
  RATING_COUNT_DAYS,
  RATING_MESSAGES,
  RATING_SNAPSHOT_MESSAGES,
  type AnswerRating,
  type RatingFilter,
  type RatingResponse,
  type RatingsListResponse,
  type RatingValue,
  type StaffRating,
} from "#app/assistant/ratings-protocol.ts";
import type { AppDatabase } from "#database/connection.ts";
import { assistantMessages } from "#database/schema.ts";
import { assistantRatings } from "#database/schema-ratings.ts";
import { consume, createRateLimiter, MEMORY_STORE, type RateLimitStore } from "#server/rate-limit.ts";

/** A refusal: 404 `not-found`, 429 `rate-limited` (with its wait, seconds), 500 `failed`. */
export type RatingRefusal = {
  ok: false;
  reason: "not-found" | "rate-limited" | "failed";
  message: string;
  retryAfterSeconds?: number;
};

/** The ratings' rules (issue 17 §4); every method resolves, never rejects (see the module comment). */
export type AssistantRatingService = {
  /**
   * Rates answer `messageId` of account `userId`. `comment`: trimmed text
   * (≤ 1 000 characters, checked by the API); "" clears the stored comment,
   * undefined keeps it.
   */
  rate(
    userId: string,
    messageId: string,
    input: { rating: RatingValue; comment?: string },
  ): Promise<{ ok: true; rating: RatingResponse["rating"] } | RatingRefusal>;
  /** The account's ratings of `messageIds` (answers of its conversation), by message id. */
  ratingsOf(
    userId: string,
    messageIds: string[],
  ): Promise<{ ok: true; ratings: Map<string, AnswerRating> } | RatingRefusal>;
  /**
   * Staff list: `filter` "not-useful" or "all", at most `limit` (1–50)
   * ratings, newest change first, after `before`: changed strictly before
   * `before.at`, or at that millisecond with a smaller id than `before.id`
   * (the previous page's last, given by its `nextBefore`).
   */
  ratingsForStaff(query: {
    filter: RatingFilter;
    limit: number;
    before?: { at: Date; id?: string | undefined };
  }): Promise<({ ok: true } & RatingsListResponse) | RatingRefusal>;
};

export type AssistantRatingServiceOptions = {
  db: AppDatabase;
  logger: Logger;
  /** Ratings per account and window (default 30 per 10 minutes); counted in `store` (default memory). */
  rateLimit?: { points: number; durationSeconds: number; store?: RateLimitStore };
};

/** Default limit of `rate`: generous for a person, a wall for a script. */
export const RATING_RATE_LIMIT = { points: 30, durationSeconds: 600 };

type RatingRow = typeof assistantRatings.$inferSelect;

const toStaff = (row: RatingRow): StaffRating => ({
  id: row.id,
  value: row.rating,
  comment: row.comment,
  answer: row.answer,
  conversation: row.conversation,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** Whether `error` (or its cause, as drizzle wraps driver errors) is PostgreSQL's foreign-key violation. */
function isForeignKeyViolation(error: unknown): boolean {
  for (let current = error; current && typeof current === "object"; current = (current as { cause?: unknown }).cause)
    if ((current as { code?: unknown }).code === "23503") return true;
  return false;
}

/** The ratings' rules over `options.db` (issue 17 §4). */
export function createAssistantRatingService(options: AssistantRatingServiceOptions): AssistantRatingService {
  const { db, logger } = options;
  const rule: NonNullable<AssistantRatingServiceOptions["rateLimit"]> = options.rateLimit ?? RATING_RATE_LIMIT;
  const limiter = createRateLimiter(rule.store ?? MEMORY_STORE, {
    name: "assistant-rating",
    points: rule.points,
    durationSeconds: rule.durationSeconds,
  });
  const failed = (error: unknown, log: string, message: string): RatingRefusal => {
    logger.error({ err: error }, log);
    return { ok: false, reason: "failed", message };
  };
  const notFound: RatingRefusal = { ok: false, reason: "not-found", message: RATING_MESSAGES.notFound };

  return {
    async rate(userId, messageId, { rating, comment }) {
      try {
        const outcome = await consume(limiter, userId);
        if (!outcome.allowed)
          return {
            ok: false,
            reason: "rate-limited",
            message: RATING_MESSAGES.tooManyRatings,
            retryAfterSeconds: outcome.retryAfterSeconds,
          };
      } catch (error) {
        return failed(error, "limite des avis de l'assistant illisible", RATING_MESSAGES.saveFailed);
      }
      try {
        const [answer] = await db
          .select()
          .from(assistantMessages)
          .where(
            and(
              eq(assistantMessages.id, messageId),
              eq(assistantMessages.userId, userId),
              eq(assistantMessages.role, "assistant"),
            ),
          );
        if (!answer) return notFound;
        const before = await db
          .select()
          .from(assistantMessages)
          .where(
            and(
              eq(assistantMessages.userId, userId),
              // Compared in the database: a JS Date drops the microseconds, and the answer would miss itself.
              lte(
                assistantMessages.createdAt,
                sql`(select m.created_at from assistant_messages m where m.id = ${messageId}::uuid)`,
              ),
            ),
          )
          // Same instant (PGlite's clock is coarse): the question goes before its answer ("assistant" < "user").
          .orderBy(desc(assistantMessages.createdAt), asc(assistantMessages.role))
          .limit(RATING_SNAPSHOT_MESSAGES);
        const conversation = before.reverse().map((row) => ({
          role: row.role,
          content: row.content,
          createdAt: row.createdAt.toISOString(),
        }));
        // Millisecond times: the staff list pages with `avant=<ISO>`, which cannot say microseconds.
        const now = new Date();
        const stored = comment === undefined ? {} : { comment: comment === "" ? null : comment };
        const [row] = await db
          .insert(assistantRatings)
          .values({
            messageId,
            userId,
            rating,
            comment: stored.comment ?? null,
            answer: answer.content,
            conversation,
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoUpdate({
            target: assistantRatings.messageId,
            set: { rating, ...stored, answer: answer.content, conversation, updatedAt: now },
          })
          .returning();
        return {
          ok: true,
          rating: { messageId, value: row!.rating, comment: row!.comment, updatedAt: row!.updatedAt.toISOString() },
        };
      } catch (error) {
        // "Nouvelle conversation" deleted the answer between the read and the write.
        if (isForeignKeyViolation(error)) return notFound;
        return failed(error, "avis sur l'assistant non enregistré", RATING_MESSAGES.saveFailed);
      }
    },

    async ratingsOf(userId, messageIds) {
      if (messageIds.length === 0) return { ok: true, ratings: new Map() };
      try {
        const rows = await db
          .select({
            messageId: assistantRatings.messageId,
            value: assistantRatings.rating,
            comment: assistantRatings.comment,
          })
          .from(assistantRatings)
          .where(
            and(
              eq(assistantRatings.userId, userId),
              isNotNull(assistantRatings.messageId),
              inArray(assistantRatings.messageId, messageIds),
            ),
          );
        return {
          ok: true,
          ratings: new Map(rows.map((row) => [row.messageId!, { value: row.value, comment: row.comment }])),
        };
      } catch (error) {
        return failed(error, "avis de la conversation illisibles", RATING_MESSAGES.listFailed);
      }
    },

    async ratingsForStaff({ filter, limit, before }) {
      const size = Math.min(Math.max(Math.trunc(limit) || 1, 1), 50);
      try {
        const rows = await db
          .select()
          .from(assistantRatings)
          .where(
            and(
              filter === "not-useful" ? eq(assistantRatings.rating, "not-useful") : undefined,
              before?.id
                ? or(
                    lt(assistantRatings.updatedAt, before.at),
                    and(eq(assistantRatings.updatedAt, before.at), lt(assistantRatings.id, before.id)),
                  )
                : before
                  ? lt(assistantRatings.updatedAt, before.at)
                  : undefined,
            ),
          )
          .orderBy(desc(assistantRatings.updatedAt), desc(assistantRatings.id))
          .limit(size + 1);
        const since = sql`now() - ${RATING_COUNT_DAYS}::integer * interval '1 day'`;
        const tallies = await db
          .select({ rating: assistantRatings.rating, n: count() })
          .from(assistantRatings)
          .where(gte(assistantRatings.updatedAt, since))
          .groupBy(assistantRatings.rating);
        const tally = (value: RatingValue) => Number(tallies.find((entry) => entry.rating === value)?.n ?? 0);
        const page = rows.slice(0, size);
        return {
          ok: true,
          ratings: page.map(toStaff),
          counts: { useful: tally("useful"), notUseful: tally("not-useful"), days: RATING_COUNT_DAYS },
          nextBefore: rows.length > size ? `${page.at(-1)!.updatedAt.toISOString()}_${page.at(-1)!.id}` : null,
        };
      } catch (error) {
        return failed(error, "avis sur l'assistant illisibles", RATING_MESSAGES.listFailed);
      }
    },
  };
}
