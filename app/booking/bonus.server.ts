/**
 * Issue 18 §3: "X € après bonus réparation", on the booking summary and the
 * brand pages' price lines, shown only when the shop turned the setting on
 * and the repair is eligible (`app/catalogue/bonus-reparation.ts`).
 * Server-only (reads the setting).
 */
import { afterBonusText, bonusFor } from "#app/catalogue/bonus-reparation.ts";
import type { RepairId } from "#app/catalogue/schema.ts";
import type { BrandPageData } from "#app/utils/catalogue-pages.server.ts";
import type { BookedRepair } from "./booked-repair.server.ts";
import type { BookingServices } from "./context.ts";

/** The line for `booked`, or null (setting off, not eligible, no price, or the setting unreadable). */
export async function bonusLine(
  services: Pick<BookingServices, "bonusShown">,
  booked: BookedRepair,
): Promise<string | null> {
  if (booked.family === null || booked.repairId === null || booked.euros === null) return null;
  const bonus = bonusFor(booked.family, booked.repairId);
  if (!bonus || !(await services.bonusShown())) return null;
  return afterBonusText(booked.euros, bonus.euros);
}

/**
 * The brand page's data with "X € après bonus réparation" on each eligible
 * price (issue 18 §3). Only called when the setting is on, at request time:
 * the pre-rendered pages (setting unknown at build) never carry it, and the
 * server renders brand pages afresh while it is on (`server/app.ts`).
 * The JSON-LD reads `euros`, so it keeps the undiscounted price.
 */
export function withBonus(page: BrandPageData): BrandPageData {
  const family = page.brand.family;
  return {
    ...page,
    brand: {
      ...page.brand,
      series: page.brand.series.map((series) => ({
        ...series,
        models: series.models.map((model) => ({
          ...model,
          repairs: model.repairs.map((repair) => {
            const bonus = bonusFor(family, repair.id as RepairId);
            return bonus ? { ...repair, afterBonus: afterBonusText(repair.euros, bonus.euros) } : repair;
          }),
        })),
      })),
    },
  };
}
