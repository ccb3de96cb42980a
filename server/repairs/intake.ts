/**
 * Issue 18 §2, what a new repair ticket holds: copied from an appointment
 * (model, repair, price and contact, so a later change of the booking does
 * not rewrite the ticket) or typed for a walk-in, with the catalogue's model
 * and repair when they are known (`./catalogue-link.ts`); linked to the
 * customer's account when one has the same e-mail.
 */
import { and, eq, sql } from "drizzle-orm";
import { REPAIR_MESSAGES } from "#app/repairs/protocol.ts";
import { parseOpenTicket } from "#app/repairs/schemas.ts";
import { formatTrackingCode } from "#app/repairs/statuses.ts";
import type { AppDatabase } from "#database/connection.ts";
import { users } from "#database/schema.ts";
import { appointments } from "#database/schema-booking.ts";
import { repairTickets } from "#database/schema-repairs.ts";
import type { Brand } from "#app/catalogue/shapes.ts";
import { catalogueRepairOf } from "./catalogue-link.ts";
import type { RepairRefusal } from "./service.ts";
import type { Transaction } from "./steps.ts";

/**
 * One device dropped off per appointment: the 409 naming the ticket already opened from `appointmentId`, or
 * null. Checked in the opening's transaction, the appointment's row locked first, so two
 * technicians clicking at once cannot both pass. @throws when the database cannot be read.
 */
export async function appointmentTicketRefusal(
  executor: Transaction,
  appointmentId: string,
): Promise<RepairRefusal | null> {
  await executor
    .select({ id: appointments.id })
    .from(appointments)
    .where(eq(appointments.id, appointmentId))
    .for("update");
  const [existing] = await executor
    .select({ code: repairTickets.trackingCode })
    .from(repairTickets)
    .where(eq(repairTickets.appointmentId, appointmentId));
  if (!existing) return null;
  return {
    ok: false,
    reason: "conflict",
    message: REPAIR_MESSAGES.appointmentHasTicket(formatTrackingCode(existing.code)),
  };
}

/**
 * The fields of a new ticket from an appointment (copied) or a walk-in (typed), or the French refusal
 * (400 invalid body, 404 unknown appointment; a ticket already opened from it is refused by the opening's
 * transaction, `appointmentTicketRefusal`). @throws when the database cannot be read.
 */
export async function newTicketValues(
  db: AppDatabase,
  input: unknown,
  /** Issue 29: the current catalogue's brands, for a walk-in's model and repair. */
  brands: readonly Brand[],
): Promise<RepairRefusal | Omit<typeof repairTickets.$inferInsert, "trackingCode">> {
  const parsed = parseOpenTicket(input);
  if (!parsed.ok) return { ok: false, reason: "invalid", message: parsed.message, fieldErrors: parsed.fieldErrors };
  const { conditionNotes, accessories, priceEuros } = parsed.data;
  const dropOff = { conditionNotes: conditionNotes ?? null, accessories: accessories ?? null };
  if (parsed.data.kind === "appointment") {
    const [appointment] = await db.select().from(appointments).where(eq(appointments.id, parsed.data.appointmentId));
    if (!appointment) return { ok: false, reason: "not-found", message: REPAIR_MESSAGES.appointmentNotFound };
    return {
      ...dropOff,
      appointmentId: appointment.id,
      modelName: appointment.modelName ?? "Appareil à préciser",
      repairLabel: appointment.repairLabel,
      modelSlug: appointment.modelSlug,
      repairId: appointment.repairId,
      priceEuros: priceEuros ?? appointment.priceEuros,
      customerName: appointment.customerName,
      email: appointment.email,
      phone: appointment.phone,
      userId: appointment.userId ?? (await accountOf(db, appointment.email)),
    };
  }
  const { modelName, repairLabel, customerName, email, phone } = parsed.data;
  return {
    ...dropOff,
    modelName,
    repairLabel,
    ...catalogueRepairOf(modelName, repairLabel, brands),
    customerName,
    email,
    phone,
    priceEuros: priceEuros ?? null,
    userId: await accountOf(db, email),
  };
}

/**
 * The account with this e-mail, if the customer has one ("in their account", issue 18 §2), and only once
 * that address is verified: anyone can sign up with any address, and a ticket must not land in a stranger's
 * account because they typed its owner's e-mail first.
 */
async function accountOf(db: AppDatabase, email: string): Promise<string | null> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(sql`lower(${users.email})`, email.toLowerCase()), eq(users.emailVerified, true)));
  return row?.id ?? null;
}
