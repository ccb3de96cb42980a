/**
 * Issue 36 §4, « Past UAC »: the single-use tickets with which the desktop app, relaunched as administrator,
 * rejoins its session (`server/remote-support/device-resume.ts`), beside `schema.ts` (whose `sessions` they
 * reference) and read by drizzle-kit with it (`drizzle.config.ts`); migration 0022. Stored as the ticket's
 * SHA-256 only, bound to the session and to the pairing that asked (a new pairing voids it), valid
 * `RESUME_TICKET_TTL_S`; one per session at a time. Purged by retention once expired or once the session ended.
 * Issue 38 §3: `purpose` says what the ticket is for, « elevation » (the relaunch as administrator) or « reboot »
 * (the restart and reconnect), migration 0026; before it, a ticket's lifetime told it.
 */
import { sql } from "drizzle-orm";
import { check, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** What a resume ticket is for; each has its lifetime (`server/remote-support/device-resume.ts`). */
export const RESUME_PURPOSES = ["elevation", "reboot"] as const;
import { sessions } from "./schema.ts";

export const deviceResumeTickets = pgTable(
  "device_resume_tickets",
  {
    ticketHash: text("ticket_hash").primaryKey(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    pairingId: uuid("pairing_id").notNull(),
    purpose: text("purpose", { enum: RESUME_PURPOSES }).notNull().default("elevation"),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [
    index("device_resume_tickets_session_id_idx").on(table.sessionId),
    check("device_resume_tickets_purpose_check", sql`${table.purpose} in ('elevation', 'reboot')`),
  ],
);
