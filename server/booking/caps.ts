/**
 * Issue 28 §5: the caps per customer, checked inside the booking's
 * transaction (`store.ts`), so that bookings sent in parallel cannot all pass:
 * - upcoming appointments (not cancelled, not started) per e-mail address and
 *   per phone number: `maxUpcomingPerContact` of the agenda's settings
 *   (default 3);
 * - bookings per e-mail address over the last 24 hours, each of which mailed
 *   a confirmation to it: `maxBookingMailsPerDay` (default 5), so nobody can
 *   use the form to mail-bomb an address.
 *
 * Each booking takes a transaction-scoped advisory lock on its address and
 * one on its phone (keys: PostgreSQL's `hashtext` of the normalised value,
 * in their own lock classes, always e-mail then phone, after the slot's
 * lock: no cycle can form). Two bookings for one person thus count each
 * other. Nothing here is logged.
 */
import { and, count, gt, ne, or, sql } from "drizzle-orm";
import type { AppDatabase } from "#database/connection.ts";
import { appointments } from "#database/schema-booking.ts";
import type { BookingSettings } from "#app/booking/settings.ts";

type Executor = Pick<AppDatabase, "select" | "execute">;

/** Lock classes of the per-customer locks (the booking's own is 18 001, `store.ts`). */
const EMAIL_LOCK_CLASS = 18_002;
const PHONE_LOCK_CLASS = 18_003;

/** How many trailing digits identify a phone number: "06 12 34 56 78" and "+33 6 12 34 56 78" are one number. */
const PHONE_KEY_DIGITS = 9;

/** The e-mail address as the caps compare it: trimmed, lower case. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

/** The phone number as the caps compare it: its last 9 digits (the same expression is used in SQL below). */
export function phoneKey(phone: string): string {
  return phone.replace(/\D/g, "").slice(-PHONE_KEY_DIGITS);
}

/** The cap a booking would pass: which one, and its value. */
export type ContactLimit = { limit: "upcoming" | "mails"; max: number };

/**
 * Locks the customer `email`/`phone` for the transaction, then tells which cap a new booking would pass
 * (upcoming appointments first), or null. `now` is the service's clock (upcoming = starting after it); the 24 hours of mails are the
 * database's, like the rows' `created_at`.
 */
export async function contactLimit(
  tx: Executor,
  settings: BookingSettings,
  customer: { email: string; phone: string },
  now: Date,
): Promise<ContactLimit | null> {
  const email = emailKey(customer.email);
  const phone = phoneKey(customer.phone);
  await tx.execute(sql`select pg_advisory_xact_lock(${EMAIL_LOCK_CLASS}, hashtext(${email}))`);
  await tx.execute(sql`select pg_advisory_xact_lock(${PHONE_LOCK_CLASS}, hashtext(${phone}))`);
  const sameEmail = sql`lower(${appointments.email}) = ${email}`;
  const samePhone = sql`right(regexp_replace(${appointments.phone}, '[^0-9]', '', 'g'), ${PHONE_KEY_DIGITS}) = ${phone}`;
  const [upcoming] = await tx
    .select({ n: count() })
    .from(appointments)
    .where(and(ne(appointments.status, "cancelled"), gt(appointments.startsAt, now), or(sameEmail, samePhone)));
  const maxUpcoming = settings.maxUpcomingPerContact;
  if ((upcoming?.n ?? 0) >= maxUpcoming) return { limit: "upcoming", max: maxUpcoming };
  const [mailed] = await tx
    .select({ n: count() })
    .from(appointments)
    .where(and(sameEmail, sql`${appointments.createdAt} > now() - interval '1 day'`));
  const maxMails = settings.maxBookingMailsPerDay;
  if ((mailed?.n ?? 0) >= maxMails) return { limit: "mails", max: maxMails };
  return null;
}
