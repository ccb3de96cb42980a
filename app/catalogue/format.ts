/**
 * Price formatting of the repair catalogue, apart from `./index.ts` so that
 * client code (the model finder) can format prices without bundling the
 * catalogue data and its zod schemas. `./index.ts` re-exports it.
 */
import { formatEuros } from "#app/utils/euros.ts";

/**
 * A minimum price as shown on the cards (spec §9): `formatPrice(49)` →
 * "à partir de 49 €", French grouping, no decimals (via `formatEuros`, i.e.
 * Intl.NumberFormat("fr-FR")). The spaces are no-break: U+202F between
 * thousands, and before "€" U+00A0 or U+202F depending on the ICU/CLDR
 * version (Node 24 gives U+00A0), so compare with that in mind.
 *
 * @param euros whole euros
 * @throws {RangeError} if `euros` is not a non-negative integer: catalogue prices are whole euros.
 */
export function formatPrice(euros: number): string {
  if (!Number.isInteger(euros) || euros < 0) {
    throw new RangeError(`formatPrice attend un nombre entier d'euros positif, reçu ${euros}`);
  }
  return `à partir de ${formatEuros(euros)}`;
}
