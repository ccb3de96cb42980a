/**
 * Issue 38 §4, « The computer's facts, before the technician joins »: what the desktop app said of the computer
 * (`ComputerFacts`, `app/remote-support/facts-protocol.ts`), only with the customer's consent, one row per session,
 * beside `schema.ts` (whose `sessions` it references) and read by drizzle-kit with it (`drizzle.config.ts`).
 * Written with the session or the pairing that brought them (`server/remote-support/computer-facts.ts`), replaced
 * by a new pairing (removed when it brings none), kept for the session's report and deleted with the session.
 */
import { sql } from "drizzle-orm";
import { check, jsonb, pgTable, timestamp, uuid } from "drizzle-orm/pg-core";
import type { ComputerFacts } from "#app/remote-support/facts-protocol.ts";
import { sessions } from "./schema.ts";

export const sessionComputerFacts = pgTable(
  "session_computer_facts",
  {
    sessionId: uuid("session_id")
      .primaryKey()
      .references(() => sessions.id, { onDelete: "cascade" }),
    /** `ComputerFacts`, validated and bounded by its schema before it is written (a few hundred bytes). */
    facts: jsonb("facts").$type<ComputerFacts>().notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  // A backstop to the schema's bounds: no row can grow the table by more than a few kilobytes.
  (table) => [check("session_computer_facts_size_check", sql`pg_column_size(${table.facts}) <= 8192`)],
);
