/**
 * Issue 18 §2: repair tracking. The repair tickets opened by staff (from an
 * appointment or for a walk-in) and the timed, noted steps of each, beside
 * `schema.ts` and read by drizzle-kit with it (`drizzle.config.ts`);
 * migration 0011. The rules (allowed moves, mails, quote decisions) live in
 * `server/repairs/service.ts`; the statuses and their French labels in
 * `app/repairs/statuses.ts`.
 */
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { REPAIR_STATUSES, TRACKING_CODE_ALPHABET, QUOTE_DECISIONS } from "#app/repairs/statuses.ts";
import { appointments } from "./schema-booking.ts";
import { users } from "./schema.ts";

const at = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
/** The SQL list of `values`, for check constraints (constants of our own, never user input). */
const sqlList = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(", "));

/**
 * A repair ticket (issue 18 §2). `tracking_code` is the customer's key to the
 * public page: 8 characters of `TRACKING_CODE_ALPHABET`, stored without the
 * dash that shows it as "R7K3-QXMA". What was dropped off is a snapshot
 * (model, repair, contact), so editing the appointment later changes nothing
 * here. Amounts are whole euros. The quote's decision says who decided:
 * "client" (the tracking page) or the staff member's user id (a decision
 * taken by phone). The warranty (12 months, spec §9) runs from `returned_at`.
 */
export const repairTickets = pgTable(
  "repair_tickets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    trackingCode: text("tracking_code").notNull().unique(),
    appointmentId: uuid("appointment_id").references(() => appointments.id, { onDelete: "set null" }),
    modelName: text("model_name").notNull(),
    repairLabel: text("repair_label").notNull(),
    /**
     * The catalogue's model and repair when known (migration 0014): the appointment's, or those a walk-in's
     * typed model and repair name without doubt. The bonus réparation line is read from them.
     */
    modelSlug: text("model_slug"),
    repairId: text("repair_id"),
    /** The announced price, whole euros; null when none was given (diagnosis). */
    priceEuros: integer("price_euros"),
    /** The device's state when dropped off (scratches, cracked back…). */
    conditionNotes: text("condition_notes"),
    /** What was left with it (charger, case, SIM…). */
    accessories: text("accessories"),
    customerName: text("customer_name").notNull(),
    email: text("email").notNull(),
    phone: text("phone").notNull(),
    /** The customer's account, when they have one (the appointment's, or the account with the same e-mail). */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    status: text("status", { enum: REPAIR_STATUSES }).notNull().default("received"),
    quoteDescription: text("quote_description"),
    /** Whole euros. */
    quoteAmountEuros: integer("quote_amount_euros"),
    quoteDecision: text("quote_decision", { enum: QUOTE_DECISIONS }),
    quoteDecidedAt: at("quote_decided_at"),
    /** "client" (tracking page) or the user id of the staff member who recorded it. */
    quoteDecidedBy: text("quote_decided_by"),
    /**
     * The amount of the last quote the customer accepted, whole euros (migration 0025): the ticket's price
     * from then on, kept while a later quote waits for its answer (the `quote_*` columns hold that one).
     */
    agreedPriceEuros: integer("agreed_price_euros"),
    returnedAt: at("returned_at"),
    createdAt: at("created_at").notNull().defaultNow(),
    updatedAt: at("updated_at").notNull().defaultNow(),
  },
  (table) => [
    index("repair_tickets_status_idx").on(table.status, table.updatedAt),
    index("repair_tickets_appointment_id_idx").on(table.appointmentId),
    index("repair_tickets_user_id_idx").on(table.userId),
    check("repair_tickets_status_check", sql`${table.status} in (${sqlList(REPAIR_STATUSES)})`),
    check(
      "repair_tickets_tracking_code_check",
      sql`${table.trackingCode} ~ ${sql.raw(`'^[${TRACKING_CODE_ALPHABET}]{8}$'`)}`,
    ),
    check("repair_tickets_quote_decision_check", sql`${table.quoteDecision} in (${sqlList(QUOTE_DECISIONS)})`),
    check("repair_tickets_price_check", sql`${table.priceEuros} >= 0 and ${table.quoteAmountEuros} >= 0`),
    check("repair_tickets_agreed_price_check", sql`${table.agreedPriceEuros} >= 0`),
  ],
);

/**
 * The steps of a ticket (issue 18 §2 "each step is timed and noted"): one
 * row per status change, quote and decision, oldest first. `note` is the
 * staff's text sent to the customer (≤ 1 000 characters); `author_id` is
 * null when the customer acted (quote decision on the tracking page).
 * A quote's step and its answer's step keep that quote (`quote_description`,
 * `quote_amount_euros`, migration 0025), so a quote replaced later stays in
 * the history with what was asked and answered.
 */
export const repairTicketEvents = pgTable(
  "repair_ticket_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ticketId: uuid("ticket_id")
      .notNull()
      .references(() => repairTickets.id, { onDelete: "cascade" }),
    status: text("status", { enum: REPAIR_STATUSES }).notNull(),
    note: text("note"),
    authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
    quoteDescription: text("quote_description"),
    /** Whole euros. */
    quoteAmountEuros: integer("quote_amount_euros"),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (table) => [
    index("repair_ticket_events_ticket_idx").on(table.ticketId, table.createdAt),
    check("repair_ticket_events_status_check", sql`${table.status} in (${sqlList(REPAIR_STATUSES)})`),
    check("repair_ticket_events_note_check", sql`char_length(${table.note}) <= 1000`),
    check("repair_ticket_events_quote_amount_check", sql`${table.quoteAmountEuros} >= 0`),
  ],
);
