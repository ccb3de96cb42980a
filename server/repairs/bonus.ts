/**
 * Issue 18 §3 on the ticket: "X € après bonus réparation" beside the
 * announced price, when the shop shows the bonus and the ticket's catalogue
 * repair is eligible: the one booked, or the one a walk-in's typed model and
 * repair name (`./catalogue-link.ts`).
 *
 * Issue 29: the model is looked up in the catalogue as it is now (the
 * catalogue service's `current()`), so a model staff added gets its line and
 * one they hid loses it, as a model removed from the catalogue does. X is
 * the ticket's own price: the one the customer was told when the ticket was
 * opened, which a later edit in « Tarifs » does not rewrite, or the amount of
 * the quote they accepted since (issue 40, `agreedPrice`).
 */
import { afterBonusText, bonusFor } from "#app/catalogue/bonus-reparation.ts";
import type { Catalogue } from "#app/catalogue/catalogue.ts";
import type { RepairId } from "#app/catalogue/schema.ts";
import type { AppDatabase } from "#database/connection.ts";
import { readShopSettings } from "#server/booking/store.ts";
import { agreedPrice, type TicketRow } from "./views.ts";

/**
 * The line for `row` (e.g. "94 € après bonus réparation"), or null: no price (whole euros), no
 * catalogue repair, a model `catalogue` no longer lists, an ineligible repair or the shop's setting off.
 * @throws when the database cannot be read (callers already guard their reads).
 */
export async function ticketBonus(
  db: AppDatabase,
  row: Pick<TicketRow, "priceEuros" | "agreedPriceEuros" | "modelSlug" | "repairId">,
  catalogue: Catalogue,
): Promise<string | null> {
  const price = agreedPrice(row);
  if (price === null || !row.modelSlug || !row.repairId) return null;
  const entry = catalogue.getModel(row.modelSlug);
  const bonus = entry ? bonusFor(entry.brand.family, row.repairId as RepairId) : null;
  if (!bonus || !(await readShopSettings(db)).bonusReparation) return null;
  return afterBonusText(price, bonus.euros);
}
