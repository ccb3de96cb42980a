/**
 * Issue 18 §1, the staff agenda's read (`GET /api/agenda`, through the booking service): the appointments
 * starting in a range of shop dates, cancelled ones included, each with the tracking code of the repair opened
 * from it (issue 40: the card links to that repair instead of offering to open another).
 */
import { and, asc, gte, lt } from "drizzle-orm";
import type { AgendaAppointment } from "#app/booking/context.ts";
import { shopInstant } from "#app/booking/slots.ts";
import type { AppDatabase } from "#database/connection.ts";
import { appointments } from "#database/schema-booking.ts";
import { ticketCodesByAppointment } from "#server/repairs/codes.ts";
import { appointmentView } from "./views.ts";

/**
 * Appointments starting in [`from`, `to`) ("YYYY-MM-DD" shop dates, the shop's midnight to midnight), by start
 * then creation. @throws when the database cannot be read.
 */
export async function readAgenda(db: AppDatabase, from: string, to: string): Promise<AgendaAppointment[]> {
  const rows = await db
    .select()
    .from(appointments)
    .where(and(gte(appointments.startsAt, shopInstant(from, 0)), lt(appointments.startsAt, shopInstant(to, 0))))
    .orderBy(asc(appointments.startsAt), asc(appointments.createdAt));
  const repairCodes = await ticketCodesByAppointment(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...appointmentView(row), repairCode: repairCodes.get(row.id) ?? null }));
}
