/**
 * Amounts in euros, French style (`Intl.NumberFormat("fr-FR")`), apart from `#app/config/shop.ts`: that module
 * parses the default identity with zod at load, and the model finder's island formats prices without it
 * (issue 30: 27 KB of zod had reached every content page through `formatPrice`).
 */

const euroFormats = new Map<number, Intl.NumberFormat>();

/**
 * `amount` € in French formatting, e.g. `formatEuros(15000)` → "15 000 €" (no-break spaces).
 * @param amount euros
 * @param fractionDigits decimals shown (0 by default: catalogue prices are whole euros)
 */
export function formatEuros(amount: number, fractionDigits = 0): string {
  let format = euroFormats.get(fractionDigits);
  if (!format) {
    format = new Intl.NumberFormat("fr-FR", {
      style: "currency",
      currency: "EUR",
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    });
    euroFormats.set(fractionDigits, format);
  }
  return format.format(amount);
}
