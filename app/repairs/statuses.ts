/**
 * Issue 18 §2, the one source of a repair ticket's statuses: their order,
 * French labels, the moves staff may make, the tracking code's alphabet and
 * the warranty's end (spec §9: 12 months from "Rendu"). Read by the schema
 * (check constraints), the server's rules, the mails, the public tracking
 * page and the dashboard; no dependency, so the browser bundles stay small.
 */

/** In the order a repair goes through them; `cancelled` is apart. */
export const REPAIR_STATUSES = [
  "received",
  "diagnosis",
  "quote-pending",
  "repairing",
  "ready",
  "returned",
  "cancelled",
] as const;
export type RepairStatus = (typeof REPAIR_STATUSES)[number];

export const REPAIR_STATUS_LABELS: Record<RepairStatus, string> = {
  received: "Reçu",
  diagnosis: "Diagnostic",
  "quote-pending": "Devis à valider",
  repairing: "En réparation",
  ready: "Prêt à récupérer",
  returned: "Rendu",
  cancelled: "Annulé",
};

/** The steps of a repair that went to the end, in order (the tracking page's progress list). */
export const REPAIR_STEPS = REPAIR_STATUSES.filter((status) => status !== "cancelled");

/** Nothing moves a ticket out of these. */
export const FINAL_STATUSES: readonly RepairStatus[] = ["returned", "cancelled"];

export const QUOTE_DECISIONS = ["accepted", "refused"] as const;
export type QuoteDecision = (typeof QUOTE_DECISIONS)[number];

/** Whether a ticket is still in the shop's hands (not "Rendu", not "Annulé"). */
export function isOpen(status: RepairStatus): boolean {
  return !FINAL_STATUSES.includes(status);
}

/**
 * Why staff may not move a ticket from `from` to `to` (French, shown as the
 * API's 409), or null when they may. Rules (issue 18 §2): forward in the
 * order of `REPAIR_STATUSES` (steps may be skipped: a repair without quote
 * goes from "Diagnostic" to "En réparation"); "Devis à valider" only by
 * entering a quote; "Annulé" from any status but the final ones.
 */
export function transitionRefusal(from: RepairStatus, to: RepairStatus): string | null {
  if (!isOpen(from)) return `Cette réparation est « ${REPAIR_STATUS_LABELS[from]} » : son statut ne change plus.`;
  if (to === from) return `Cette réparation est déjà « ${REPAIR_STATUS_LABELS[to]} ».`;
  if (to === "cancelled") return null;
  if (to === "quote-pending") return "« Devis à valider » s'obtient en saisissant un devis.";
  if (REPAIR_STATUSES.indexOf(to) < REPAIR_STATUSES.indexOf(from))
    return `Une réparation « ${REPAIR_STATUS_LABELS[from]} » ne peut pas revenir à « ${REPAIR_STATUS_LABELS[to]} ».`;
  return null;
}

/** The statuses staff may choose next for a ticket in `from` (the dashboard's choices). */
export function nextStatuses(from: RepairStatus): RepairStatus[] {
  return REPAIR_STATUSES.filter((to) => transitionRefusal(from, to) === null);
}

/** Whether a quote may be entered (or replaced) now: before "Prêt à récupérer", ticket open. */
export function canEnterQuote(status: RepairStatus): boolean {
  return ["received", "diagnosis", "quote-pending", "repairing"].includes(status);
}

/**
 * The tracking code's characters: digits and capitals without 0, 1, I, L
 * and O, which read alike aloud or handwritten (31 symbols; 8 of them give
 * 31⁸ ≈ 8.5 × 10¹¹ codes, about 40 bits).
 */
export const TRACKING_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
export const TRACKING_CODE_LENGTH = 8;

/** "R7K3QXMA" → "R7K3-QXMA", as printed on the receipt and in mails. */
export function formatTrackingCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/**
 * What a customer typed, as stored: capitals, without spaces and dashes
 * ("r7k3 qxma" → "R7K3QXMA"). Anything else is kept, so a wrong code stays wrong.
 */
export function normalizeTrackingCode(typed: string): string {
  return typed.replace(/[\s-]+/g, "").toUpperCase();
}

/** The shop's time zone: dates on the page and in mails are the shop's calendar. */
export const REPAIR_TIME_ZONE = "Europe/Paris";
/** Spec §9: the repair warranty, from the day the device is given back. */
export const WARRANTY_MONTHS = 12;

/**
 * The warranty's last day ("YYYY-MM-DD", shop's calendar) for a device given
 * back at `returnedAt`: the same day 12 months later (29 February → 28).
 */
export function warrantyEnd(returnedAt: Date): string {
  const [year, month, day] = new Intl.DateTimeFormat("en-CA", { timeZone: REPAIR_TIME_ZONE })
    .format(returnedAt)
    .split("-")
    .map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year, month - 1 + WARRANTY_MONTHS, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.toISOString().slice(0, 10);
}

/** "2027-11-24" → "24 novembre 2027". */
export function formatDay(isoDay: string): string {
  return new Date(`${isoDay}T12:00:00Z`).toLocaleDateString("fr-FR", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
}

/** An instant in the shop's time, "24/11/2026 à 14:05", the same on the server and in the browser. */
export function formatInstant(iso: string | Date): string {
  const date = typeof iso === "string" ? new Date(iso) : iso;
  const day = date.toLocaleDateString("fr-FR", { timeZone: REPAIR_TIME_ZONE });
  const time = date.toLocaleTimeString("fr-FR", { timeZone: REPAIR_TIME_ZONE, hour: "2-digit", minute: "2-digit" });
  return `${day} à ${time}`;
}

/** "1 250 €": whole euros in French (the space is a narrow no-break one). */
export function formatEuros(amount: number): string {
  return `${new Intl.NumberFormat("fr-FR").format(amount)} €`;
}
