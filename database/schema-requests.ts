/**
 * Issue 40, « Demandes »: a contact message or quote request marked « Traité » by a staff member, beside
 * `schema.ts` (whose requests and `users` it references) and read by drizzle-kit with it (`drizzle.config.ts`);
 * migration 0024.
 *
 * One row per treated request, written whole in one statement (`server/requests-treatment.ts`): when and by whom
 * together, never one without the other. « Remettre à traiter » deletes the row. A row of its own rather than
 * columns of the two request tables: one place for the rule, and a request's row stays as the visitor sent it.
 * Deleted with its request (the retention purge); `treated_by` becomes null when the staff account is deleted
 * (the request stays treated, by someone no longer known).
 */
import { sql } from "drizzle-orm";
import { check, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { contactRequests, quoteRequests, users } from "./schema.ts";

export const requestTreatments = pgTable(
  "request_treatments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Exactly one of the two request ids is set (the check below); each request is treated at most once. */
    contactRequestId: uuid("contact_request_id")
      .unique()
      .references(() => contactRequests.id, { onDelete: "cascade" }),
    quoteRequestId: uuid("quote_request_id")
      .unique()
      .references(() => quoteRequests.id, { onDelete: "cascade" }),
    treatedAt: timestamp("treated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** The staff member who marked it; null only once that account was deleted. */
    treatedBy: text("treated_by").references(() => users.id, { onDelete: "set null" }),
  },
  (table) => [
    check(
      "request_treatments_one_request_check",
      sql`(${table.contactRequestId} is null) <> (${table.quoteRequestId} is null)`,
    ),
  ],
);
