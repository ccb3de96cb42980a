/**
 * Issue 18 §1: online booking. The shop's settings (one row) and the
 * appointments, beside `schema.ts` and read by drizzle-kit with it
 * (`drizzle.config.ts`); migration 0010, and issue 28's link version, form key
 * and address index (migration 0017).
 */
import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, smallint, text, timestamp, uuid } from "drizzle-orm/pg-core";
import type { BookingSettings } from "#app/booking/settings.ts";
import type { ShopIdentityInput } from "#app/config/shop-schema.ts";
import { users } from "./schema.ts";

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
};

/**
 * The shop's settings, set by staff in the dashboard (issue 18: "no code
 * change for a closed Saturday"): one row, id 1. `booking` is validated by
 * `BookingSettings` (app/booking/settings.ts) on every write and read; no
 * row means the defaults (spec §9 opening hours). `bonus_reparation` turns on
 * "X € après bonus réparation" (§3), off by default.
 */
export const shopSettings = pgTable(
  "shop_settings",
  {
    id: smallint("id").primaryKey().default(1),
    booking: jsonb("booking").$type<BookingSettings>().notNull(),
    bonusReparation: boolean("bonus_reparation").notNull().default(false),
    updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  () => [check("shop_settings_single_row", sql`id = 1`)],
);

/**
 * Issue 29: the shop's identity (name, contacts, address, opening hours, legal notices), set by the manager in
 * the dashboard's « Boutique » view: one row, id 1, the values of the form (`ShopIdentityInput`,
 * app/config/shop-schema.ts), validated on every write and read (`server/shop/identity.ts`). No row means
 * the defaults of `app/config/shop.ts`. Its own table rather than a column of `shop_settings`: that row's
 * `booking` is required, and storing an identity must not freeze the booking defaults (which follow the
 * identity's opening hours). Other server processes poll `updated_at` to learn of a change.
 */
export const shopIdentity = pgTable(
  "shop_identity",
  {
    id: smallint("id").primaryKey().default(1),
    identity: jsonb("identity").$type<ShopIdentityInput>().notNull(),
    updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  () => [check("shop_identity_single_row", sql`id = 1`)],
);

/** Issue 18 §1: an appointment asked online is "requested" until staff confirm it. */
export const APPOINTMENT_STATUSES = ["requested", "confirmed", "cancelled"] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

/**
 * Appointments (issue 18 §1). What was booked is a snapshot (model and repair
 * names, the "à partir de" price in whole euros and its "estimation" flag),
 * so a later catalogue change does not rewrite a booking. A cancelled one
 * keeps its row (the agenda shows it) and frees its place. Deleted by the
 * retention purge once its slot is older than `RETENTION_APPOINTMENT_DAYS`.
 */
export const appointments = pgTable(
  "appointments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    startsAt: timestamp("starts_at", { withTimezone: true, mode: "date" }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true, mode: "date" }).notNull(),
    status: text("status", { enum: APPOINTMENT_STATUSES }).notNull().default("requested"),
    /** Catalogue slugs when booked from a price; null for a free diagnosis without a model. */
    modelSlug: text("model_slug"),
    modelName: text("model_name"),
    repairId: text("repair_id"),
    /** "Écran", or "Diagnostic gratuit". */
    repairLabel: text("repair_label").notNull(),
    /** Whole euros, "à partir de"; null for a diagnosis. */
    priceEuros: integer("price_euros"),
    priceEstimate: boolean("price_estimate").notNull().default(false),
    customerName: text("customer_name").notNull(),
    email: text("email").notNull(),
    phone: text("phone").notNull(),
    note: text("note"),
    /** The signed-in customer who booked, if any. */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true, mode: "date" }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true, mode: "date" }),
    /** Who cancelled: the customer (by their link) or the shop. */
    cancelledBy: text("cancelled_by", { enum: ["customer", "shop"] }),
    /** Raised by every change of time or status: the calendar invitation's SEQUENCE (RFC 5545). */
    revision: integer("revision").notNull().default(0),
    /**
     * Issue 28 §9: raised by every move (customer or shop). Manage links carry the value they were
     * signed with (`server/booking/links.ts`); an older one is refused, so links from before a move stop
     * working and the move's mail carries the new one. Unlike `revision`, a confirmation leaves it.
     */
    linkVersion: integer("link_version").notNull().default(0),
    /**
     * Issue 28 "a retried booking must not book twice": the one-time key the booking form carried
     * (generated when the page was rendered). A second POST with it answers this booking instead of
     * storing another; kept as long as the row. Null for bookings made without one.
     */
    formKey: text("form_key").unique("appointments_form_key_unique"),
    ...timestamps,
  },
  (table) => [
    index("appointments_starts_at_idx").on(table.startsAt),
    index("appointments_user_id_idx").on(table.userId),
    // Issue 28 §5: the caps per customer count an address's appointments (upcoming, and booked in the last day).
    index("appointments_email_idx").on(sql`lower(${table.email})`, table.createdAt),
    check("appointments_form_key_check", sql`char_length(${table.formKey}) <= 64`),
    check("appointments_status_check", sql`${table.status} in ('requested', 'confirmed', 'cancelled')`),
    check("appointments_times_check", sql`${table.endsAt} > ${table.startsAt}`),
    check("appointments_note_check", sql`char_length(${table.note}) <= 1000`),
  ],
);
