/**
 * Issue 29, « Prices in the dashboard »: the small pure pieces of an edit for `./service.ts` — its answer
 * shape, the French refusals (zod's field messages, the catalogue loader's lines), the overrides with an
 * edit applied (checked before anything is written) and a new model's slug.
 */
import type { z } from "zod";
import type { CatalogueOverrides } from "#app/catalogue/overrides.ts";
import type { Brand } from "#app/catalogue/shapes.ts";
import type { CatalogueError } from "#app/catalogue/validate.ts";
import type { EditWrite } from "./store.ts";

/** An edit's answer: a French sentence for the view, or a refusal with its HTTP status. */
export type EditOutcome =
  | { ok: true; message: string }
  | { ok: false; status: 400 | 404 | 409 | 429 | 500; message: string; fieldErrors?: Record<string, string> };

/** A 400 naming each invalid field with its French message (the first per field). */
export function fieldErrorsOf(error: z.ZodError): EditOutcome {
  const fieldErrors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.code === "unrecognized_keys" ? "corps" : String(issue.path[0] ?? "corps");
    fieldErrors[field] ??= issue.code === "unrecognized_keys" ? "Champ inconnu." : issue.message;
  }
  return { ok: false, status: 400, message: "Vérifiez les champs indiqués.", fieldErrors };
}

/** The catalogue loader's refusal of an edited catalogue, as one French 400 message. */
export function editRefusal(error: CatalogueError): EditOutcome {
  const lines = error.issues.slice(0, 3).join(" ; ");
  return { ok: false, status: 400, message: `Modification refusée : ${lines}` };
}

/** `overrides` with `write` applied, as the next read of the rows would give them. */
export function mergeEdit(overrides: CatalogueOverrides, write: EditWrite): CatalogueOverrides {
  const key = (row: { brandSlug: string; modelSlug: string; repairId: string }) =>
    `${row.brandSlug}/${row.modelSlug}/${row.repairId}`;
  const replaced = new Set((write.prices ?? []).map(key));
  const sameModel = (row: { brandSlug: string; modelSlug: string }, other?: { brandSlug: string; modelSlug: string }) =>
    other !== undefined && row.brandSlug === other.brandSlug && row.modelSlug === other.modelSlug;
  return {
    prices: [...overrides.prices.filter((row) => !replaced.has(key(row))), ...(write.prices ?? [])],
    addedModels: write.addModel ? [...overrides.addedModels, write.addModel] : overrides.addedModels,
    hidden: [
      ...overrides.hidden.filter((row) => !sameModel(row, write.show) && !sameModel(row, write.hide)),
      ...(write.hide ? [write.hide] : []),
    ],
  };
}

/** "Galaxy S25 Édition" → "galaxy-s25-edition": ascii, lower case, dashes. */
export function slugify(name: string): string {
  return name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
}

/**
 * A catalogue-wide unique slug for a new model of `brandSlug`: its name's, else prefixed with the brand's
 * ("pad-7" → "xiaomi-tablet-pad-7"); undefined when both are taken (or the name has no letter or digit).
 */
export function slugFor(name: string, brandSlug: string, brands: readonly Brand[]): string | undefined {
  const base = slugify(name);
  if (!base) return undefined;
  const taken = new Set(
    brands.flatMap((brand) => [
      ...brand.series.map((series) => series.slug),
      ...brand.series.flatMap((series) => series.models.map((model) => model.slug)),
    ]),
  );
  return [base, `${brandSlug}-${base}`].find((candidate) => !taken.has(candidate));
}
