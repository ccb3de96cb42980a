/**
 * Issue 29: the links that make staff accounts, beside `schema.ts` (whose `users` they reference) and read by
 * drizzle-kit with it (`drizzle.config.ts`); migration 0019.
 */
import { sql } from "drizzle-orm";
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./schema.ts";

/** `technician`: the manager's invitation by e-mail (7 days); `manager-setup`: the link printed at first start (24 h). */
export const STAFF_LINK_KINDS = ["technician", "manager-setup"] as const;
export type StaffLinkKind = (typeof STAFF_LINK_KINDS)[number];

/*
 * A single-use link (`server/staff/links.ts`). Only the SHA-256 of its token is stored, so neither a database copy
 * nor a backup opens an account. One pending invitation per address (the partial unique index): inviting it again
 * replaces the token, so the older link stops working. `used_at` is set in the statement that accepts the link, so
 * two clicks race for one account at most. Rows (and the address they hold) are deleted once `expires_at` is past
 * (`server/retention.ts`), used or not.
 */
export const staffInvitations = pgTable(
  "staff_invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind", { enum: STAFF_LINK_KINDS }).notNull(),
    /** Lower case; null for `manager-setup` (the owner types theirs). */
    email: text("email"),
    /** base64url SHA-256 of the link's token. */
    tokenHash: text("token_hash").notNull().unique(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    /** The account the link made, once used. */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [
    uniqueIndex("staff_invitations_pending_email_idx")
      .on(table.email)
      .where(sql`${table.usedAt} is null`),
    index("staff_invitations_expires_at_idx").on(table.expiresAt),
    check("staff_invitations_kind_check", sql`${table.kind} in ('technician', 'manager-setup')`),
    check("staff_invitations_email_check", sql`(${table.kind} = 'technician') = (${table.email} is not null)`),
  ],
);
