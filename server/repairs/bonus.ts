/**
 * Issue 18 §3 on the ticket: "X € après bonus réparation" beside the
 * announced price, when the shop shows the bonus and the ticket's catalogue
 * repair is eligible: the one booked, or the one a walk-in's typed model and
 * repair name (`./catalogue-link.ts`).
 */
import { afterBonusText, bonusFor } from "#app/catalogue/bonus-reparation.ts";
import { getModel } from "#app/catalogue/index.ts";
import type { RepairId } from "#app/catalogue/schema.ts";
import type { AppDatabase } from "#database/connection.ts";
import { readShopSettings } from "#server/booking/store.ts";
import type { TicketRow } from "./views.ts";

/** The line for `row`, or null. @throws when the database cannot be read (callers already guard their reads). */
export async function ticketBonus(
  db: AppDatabase,
  row: Pick<TicketRow, "priceEuros" | "modelSlug" | "repairId">,
): Promise<string | null> {
  if (row.priceEuros === null || !row.modelSlug || !row.repairId) return null;
  const entry = getModel(row.modelSlug);
  const bonus = entry ? bonusFor(entry.brand.family, row.repairId as RepairId) : null;
  if (!bonus || !(await readShopSettings(db)).bonusReparation) return null;
  return afterBonusText(row.priceEuros, bonus.euros);
}
