/**
 * Issue 18 §3 on the ticket: "X € après bonus réparation" beside the
 * announced price, when the shop shows the bonus and the ticket was opened
 * from an appointment booked from an eligible catalogue price (a walk-in
 * ticket's model and repair are free text: no catalogue repair to look up).
 */
import { eq } from "drizzle-orm";
import { afterBonusText, bonusFor } from "#app/catalogue/bonus-reparation.ts";
import { getModel } from "#app/catalogue/index.ts";
import type { RepairId } from "#app/catalogue/schema.ts";
import type { AppDatabase } from "#database/connection.ts";
import { appointments } from "#database/schema-booking.ts";
import { readShopSettings } from "#server/booking/store.ts";
import type { TicketRow } from "./views.ts";

/** The line for `row`, or null. @throws when the database cannot be read (callers already guard their reads). */
export async function ticketBonus(
  db: AppDatabase,
  row: Pick<TicketRow, "priceEuros" | "appointmentId">,
): Promise<string | null> {
  if (row.priceEuros === null || row.appointmentId === null) return null;
  if (!(await readShopSettings(db)).bonusReparation) return null;
  const [booked] = await db
    .select({ modelSlug: appointments.modelSlug, repairId: appointments.repairId })
    .from(appointments)
    .where(eq(appointments.id, row.appointmentId));
  const entry = booked?.modelSlug ? getModel(booked.modelSlug) : undefined;
  const bonus = entry && booked?.repairId ? bonusFor(entry.brand.family, booked.repairId as RepairId) : null;
  return bonus ? afterBonusText(row.priceEuros, bonus.euros) : null;
}
