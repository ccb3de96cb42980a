/**
 * Issue 17 §4: the table of ratings of the assistant's answers, beside
 * `schema.ts` (whose tables it references) and read by drizzle-kit with it
 * (`drizzle.config.ts`); migration 0009.
 */
import { sql } from "drizzle-orm";
import { check, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { assistantMessages, users } from "./schema.ts";

/** Issue 17 §4: what a customer may say of one answer. */
export const ASSISTANT_RATING_VALUES = ["useful", "not-useful"] as const;
/** One message of a rating's snapshot, as it was when rated (times ISO 8601). */
export type RatedMessageRow = { role: "user" | "assistant"; content: string; createdAt: string };

/*
 * Ratings of the assistant's answers (issue 17 §4): one per answer (a new
 * rating of the same answer updates it), kept with a snapshot of the answer
 * and the conversation that led to it, so the shop still reads what was
 * rated after "Nouvelle conversation" deleted the messages (`message_id`
 * then becomes null). Removed with the account, and by the purge once
 * `updated_at` is older than the assistant's retention period.
 */
export const assistantRatings = pgTable(
  "assistant_ratings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    messageId: uuid("message_id")
      .unique()
      .references(() => assistantMessages.id, { onDelete: "set null" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    rating: text("rating", { enum: ASSISTANT_RATING_VALUES }).notNull(),
    /** At most 1 000 characters (checked by the API and here). */
    comment: text("comment"),
    /** The rated answer's text. */
    answer: text("answer").notNull(),
    /** Up to 10 messages, oldest first, ending with the rated answer. */
    conversation: jsonb("conversation").$type<RatedMessageRow[]>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /**
     * Milliseconds, as a JS `Date` holds them (migration 0013): the staff list's page cursor is
     * (`updated_at`, `id`), and a time with microseconds would not round-trip through it.
     */
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date", precision: 3 }).notNull().defaultNow(),
  },
  (table) => [
    index("assistant_ratings_list_idx").on(table.rating, table.updatedAt),
    index("assistant_ratings_updated_at_idx").on(table.updatedAt),
    index("assistant_ratings_user_id_idx").on(table.userId),
    check("assistant_ratings_rating_check", sql`${table.rating} in ('useful', 'not-useful')`),
    check("assistant_ratings_comment_check", sql`char_length(${table.comment}) <= 1000`),
  ],
);
