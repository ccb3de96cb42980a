/**
 * Issue 18 §1: the appointment as the agenda and the pages show it, and the
 * staff API's French refusals; issue 28 §10: the manage page's view, which
 * carries no personal data. Pure functions over `AppointmentRow`.
 */
import type { AppointmentView, ManagedAppointment } from "#app/booking/context.ts";
import type { AppointmentRow } from "./mails.ts";

/** The row as the pages and the agenda show it. */
export function appointmentView(row: AppointmentRow): AppointmentView {
  return {
    id: row.id,
    status: row.status,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    modelSlug: row.modelSlug,
    modelName: row.modelName,
    repairId: row.repairId,
    repairLabel: row.repairLabel,
    priceEuros: row.priceEuros,
    priceEstimate: row.priceEstimate,
    customerName: row.customerName,
    email: row.email,
    phone: row.phone,
    note: row.note,
    cancelledBy: row.cancelledBy,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Issue 28 §10: the manage page's view of `row`, without the customer's name, e-mail, phone or note. */
export function managedView(row: AppointmentRow): ManagedAppointment {
  return {
    status: row.status,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    modelName: row.modelName,
    repairLabel: row.repairLabel,
    priceEuros: row.priceEuros,
    priceEstimate: row.priceEstimate,
  };
}

/** Whether `error` (or a cause: drizzle wraps driver errors) is PostgreSQL's unique violation. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error; current && typeof current === "object"; current = (current as { cause?: unknown }).cause)
    if ((current as { code?: unknown }).code === "23505") return true;
  return false;
}

/** Whether `value` is a plain object (a form's fields, a JSON body). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The staff API's refusals (`StaffOutcome.message`). */
export const STAFF_MESSAGES = {
  cancelled: "Ce rendez-vous est annulé : il ne peut plus être modifié.",
  past: "Ce rendez-vous est passé : il ne peut plus être modifié.",
  slotTaken: "Ce créneau est complet. Choisissez-en un autre.",
  slotUnavailable: "Ce créneau n'existe pas dans les horaires d'ouverture.",
  unavailable: "L'agenda est momentanément indisponible. Réessayez dans un instant.",
} as const;
