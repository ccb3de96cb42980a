/**
 * Issue 18 §2, the two secrets of the public tracking page: the tracking
 * code (made here with the system's cryptographic randomness) and the
 * customer's contact, matched without caring how it was typed. Issue 40:
 * staff reach a ticket by its id or by its code (the dashboard's link).
 */
import { randomInt } from "node:crypto";
import { asc, eq, inArray, type SQL } from "drizzle-orm";
import { z } from "zod";
import {
  formatTrackingCode,
  normalizeTrackingCode,
  TRACKING_CODE_ALPHABET,
  TRACKING_CODE_LENGTH,
} from "#app/repairs/statuses.ts";
import type { AppDatabase } from "#database/connection.ts";
import { repairTickets } from "#database/schema-repairs.ts";

/** A fresh code, e.g. "R7K3QXMA" (shown "R7K3-QXMA"): each character drawn uniformly (`randomInt` is unbiased). */
export function newTrackingCode(): string {
  let code = "";
  for (let index = 0; index < TRACKING_CODE_LENGTH; index++)
    code += TRACKING_CODE_ALPHABET[randomInt(TRACKING_CODE_ALPHABET.length)];
  return code;
}

/**
 * Whether `error` (or a cause, as drizzle wraps driver errors) is PostgreSQL's unique violation: at the
 * opening, a code already taken (one chance in ~10¹¹ per ticket), drawn again.
 */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error; current && typeof current === "object"; current = (current as { cause?: unknown }).cause)
    if ((current as { code?: unknown }).code === "23505") return true;
  return false;
}

const CODE_PATTERN = new RegExp(`^[${TRACKING_CODE_ALPHABET}]{${TRACKING_CODE_LENGTH}}$`);

/** Whether `code` (normalized) could be a tracking code: anything else is refused without a query. */
export function isTrackingCode(code: string): boolean {
  return CODE_PATTERN.test(code);
}

const Uuid = z.uuid();

/**
 * Issue 40: the condition selecting the ticket staff named by `key`: its id (a UUID), or its tracking code
 * however typed ("UZFD-GY5Y", "uzfd gy5y"); null when `key` can be neither (no query is worth making).
 */
export function ticketWhere(key: string): SQL | null {
  if (Uuid.safeParse(key).success) return eq(repairTickets.id, key);
  const code = normalizeTrackingCode(key);
  return isTrackingCode(code) ? eq(repairTickets.trackingCode, code) : null;
}

/**
 * A phone number's digits in the national form: "06 12 34 56 78",
 * "+33 6 12 34 56 78", "0033 6 12 34 56 78" and "+33 (0)6 12 34 56 78" all
 * give "0612345678"; other countries keep their digits.
 */
export function phoneDigits(phone: string): string {
  let digits = phone.replace(/\D/g, "");
  if (digits.startsWith("0033")) digits = digits.slice(2);
  if (digits.startsWith("330") && digits.length === 12) return digits.slice(2);
  if (digits.startsWith("33") && digits.length === 11) return `0${digits.slice(2)}`;
  return digits;
}

/**
 * Whether `typed` is the ticket's contact: its e-mail (trimmed, any case)
 * when it holds an "@", else its phone (digits compared, at least 6).
 */
export function contactMatches(typed: string, ticket: { email: string; phone: string }): boolean {
  const value = typed.trim();
  if (value.includes("@")) return value.toLowerCase() === ticket.email.trim().toLowerCase();
  const digits = phoneDigits(value);
  return digits.length >= 6 && digits === phoneDigits(ticket.phone);
}

/**
 * Issue 40, for the agenda: the tracking code (« R7K3-QXMA ») of the ticket opened from each of
 * `appointmentIds` that has one, by appointment id; the first opened when a race made two.
 * @throws when the database cannot be read.
 */
export async function ticketCodesByAppointment(
  db: AppDatabase,
  appointmentIds: readonly string[],
): Promise<Map<string, string>> {
  const codes = new Map<string, string>();
  if (appointmentIds.length === 0) return codes;
  const rows = await db
    .select({ appointmentId: repairTickets.appointmentId, code: repairTickets.trackingCode })
    .from(repairTickets)
    .where(inArray(repairTickets.appointmentId, [...appointmentIds]))
    .orderBy(asc(repairTickets.createdAt));
  for (const { appointmentId, code } of rows)
    if (appointmentId && !codes.has(appointmentId)) codes.set(appointmentId, formatTrackingCode(code));
  return codes;
}
