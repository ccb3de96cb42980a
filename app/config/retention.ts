/**
 * How long personal data is kept (issue 13 §11), in one place: the defaults
 * of the server's purges (`RETENTION_*` in `server/env.ts`), the
 * GDPR notice under the forms and the legal notices all read these. The
 * variables can change what the server does; the pages state these values,
 * so change them here (and rebuild) to change the policy for good.
 *
 * Periods follow the CNIL's guidance (référentiel « gestion des activités
 * commerciales », recommandation « journalisation ») and what each record is for.
 */
import { REQUEST_RETENTION_YEARS } from "./shop.ts";

/** Days in a year, rounded up so "3 years" is never shorter than three calendar years. */
const DAYS_PER_YEAR = 365.25;

export const RETENTION = {
  /**
   * Contact and quote requests: 3 years after the last contact from the same
   * address (CNIL: prospects' data 3 years after the last contact from them).
   * The figure itself is the shop's legal fact (`REQUEST_RETENTION_YEARS` in shop.ts).
   */
  requestYears: REQUEST_RETENTION_YEARS,
  requestDays: Math.ceil(REQUEST_RETENTION_YEARS * DAYS_PER_YEAR),
  /**
   * Delivered mails (outbox rows and their `.eml` copies): 30 days after
   * delivery, time to notice a lost mail; the request itself stays in the
   * database. A mail not yet delivered is never deleted.
   */
  sentMailDays: 30,
  /**
   * Remote-support sessions with their record (join, sharing, remote input,
   * chat, end): 1 year after the session ended. They are the shop's proof of
   * what was done on a customer's computer, for questions and warranty
   * claims; the CNIL's recommendation on activity logs is 6 months to 1 year.
   */
  sessionDays: 365,
  /**
   * Signaling messages (offers, answers, ICE candidates, which carry IP
   * addresses): deleted when the session ends; any row older than this
   * (a session that never ended properly) goes at the next purge.
   */
  signalingHours: 24,
  /**
   * An account's assistant conversation: 1 year after its last message (it
   * only serves to resume a chat). The same period applies to each rating of
   * an answer with the exchange copied with it (issue 17 §4), counted from
   * the rating's last change: the shop reads them to improve the assistant.
   */
  assistantInactiveDays: 365,
  /**
   * Appointments (issue 18 §1): 1 year after the appointment's date, to
   * answer a question about a visit and see a customer's history; an
   * appointment is not a contract (the repair ticket is).
   */
  appointmentDays: 365,
  /**
   * Repair tickets (issue 18 §2) with their steps, notes and quote: 3 years
   * after the ticket closed (returned or cancelled), so the 12-month
   * warranty and the claims that may follow it can be answered; an open
   * ticket is never deleted.
   */
  repairTicketDays: Math.ceil(3 * DAYS_PER_YEAR),
} as const;

/** "30 jours", "1 an", "3 ans": a period in days as the pages state it. */
export function formatRetentionDays(days: number): string {
  const years = Math.round(days / DAYS_PER_YEAR);
  if (years >= 1 && Math.abs(days - years * DAYS_PER_YEAR) < 1) return years === 1 ? "1 an" : `${years} ans`;
  return days === 1 ? "1 jour" : `${days} jours`;
}
