/**
 * Issue 18 §2, the two secrets of the public tracking page: the tracking
 * code (made here with the system's cryptographic randomness) and the
 * customer's contact, matched without caring how it was typed.
 */
import { randomInt } from "node:crypto";
import { TRACKING_CODE_ALPHABET, TRACKING_CODE_LENGTH } from "#app/repairs/statuses.ts";

/** A fresh code, e.g. "R7K3QXMA" (shown "R7K3-QXMA"): each character drawn uniformly (`randomInt` is unbiased). */
export function newTrackingCode(): string {
  let code = "";
  for (let index = 0; index < TRACKING_CODE_LENGTH; index++)
    code += TRACKING_CODE_ALPHABET[randomInt(TRACKING_CODE_ALPHABET.length)];
  return code;
}

const CODE_PATTERN = new RegExp(`^[${TRACKING_CODE_ALPHABET}]{${TRACKING_CODE_LENGTH}}$`);

/** Whether `code` (normalized) could be a tracking code: anything else is refused without a query. */
export function isTrackingCode(code: string): boolean {
  return CODE_PATTERN.test(code);
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
