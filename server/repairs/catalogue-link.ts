/**
 * Issue 18 §3 for walk-ins: the catalogue's model and repair a ticket typed at
 * the counter names ("iPhone 13" + "Écran" → `iphone-13`, `ecran`), through
 * the model matcher the finder and the assistant share, so the ticket can
 * show the bonus réparation like one opened from a booking. Only a single
 * model with a single repair named counts; anything less sure gives null
 * (the ticket keeps its free text, no bonus line).
 */
import type { RepairId } from "#app/catalogue/schema.ts";
import type { Brand } from "#app/catalogue/shapes.ts";
import { lookupRepairPrice } from "#server/assistant/knowledge.ts";

/** The catalogue entry `modelName` and `repairLabel` name without doubt, or null. Pure; under a millisecond. */
export function catalogueRepairOf(
  modelName: string,
  repairLabel: string,
  brands: readonly Brand[],
): { modelSlug: string; repairId: RepairId } | null {
  const lookup = lookupRepairPrice(`${repairLabel} ${modelName}`, brands);
  if (lookup.kind !== "found" || !lookup.repairNamed || lookup.model.repairs.length !== 1) return null;
  return { modelSlug: lookup.model.slug, repairId: lookup.model.repairs[0]!.id };
}
