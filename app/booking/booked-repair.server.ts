/**
 * Issue 18 §1: what a booking is for, read from the catalogue by the
 * slugs the "Prendre rendez-vous" links carry (`?modele=<model slug>&reparation=<repair id>`).
 * A model without a known repair, or no model at all, books the free
 * diagnosis (spec §9). Server-only: it reads the whole catalogue.
 *
 * Issue 29: the catalogue is a parameter — the server's current one (prices edited in « Tarifs »), so the
 * price shown on the form and the one stored with the appointment are today's.
 */
import type { Catalogue } from "#app/catalogue/catalogue.ts";
import type { Family, RepairId } from "#app/catalogue/schema.ts";

/** Label of what is booked without a priced repair. */
export const DIAGNOSIS_LABEL = "Diagnostic gratuit";

export type BookedRepair = {
  modelSlug: string | null;
  modelName: string | null;
  /** Brand page of the model, for the "back to prices" link. */
  brandPath: string | null;
  family: Family | null;
  repairId: RepairId | null;
  /** "Écran", or "Diagnostic gratuit". */
  repairLabel: string;
  /** Whole euros, "à partir de"; null for a diagnosis. */
  euros: number | null;
  estimate: boolean;
  /** The model's repairs to choose from when the link named the model only (empty otherwise). */
  choices: { id: string; label: string; euros: number }[];
};

/** The booked model and repair for the link's slugs; unknown slugs fall back to a diagnosis (of the model if known). */
export function bookedRepair(
  modelSlug: string | undefined | null,
  repairId: string | undefined | null,
  catalogue: Catalogue,
): BookedRepair {
  const entry = modelSlug ? catalogue.getModel(modelSlug) : undefined;
  const repair = entry?.model.repairs.find((candidate) => candidate.id === repairId);
  return {
    modelSlug: entry?.model.slug ?? null,
    modelName: entry?.model.name ?? null,
    brandPath: entry?.brand.path ?? null,
    family: entry?.brand.family ?? null,
    repairId: repair?.id ?? null,
    repairLabel: repair?.label ?? DIAGNOSIS_LABEL,
    euros: repair?.euros ?? null,
    estimate: repair?.estimate ?? false,
    choices: entry && !repair ? entry.model.repairs.map(({ id, label, euros }) => ({ id, label, euros })) : [],
  };
}
