/**
 * The state repair bonus ("bonus réparation", issue 18 §3): a fixed amount
 * that a QualiRépar-labelled repairer deducts from the customer's bill for
 * an eligible repair of an out-of-warranty device, paid back to the shop by
 * the eco-organisms (Ecosystem, Ecologic).
 *
 * Amounts are whole euros (€) and live in `./bonus-reparation.json`, one
 * entry per family and group of repair types, each with the press article
 * it comes from and that article's month: the official scale could not be
 * read from here, so every amount says where it was found and when
 * (`BONUS_REPARATION_CHECKED_ON`, `BONUS_REPARATION_NOTE`). The file sits
 * next to this module rather than in `./data/`, where every JSON file must
 * be a brand named by `data/brands.json`.
 *
 * This module only answers "how much, from what source"; showing it is the
 * pages' business, behind a shop setting OFF by default: the spec does not
 * say the shop is QualiRépar-labelled, and without the label no bonus may
 * be promised. Structured data (JSON-LD offers) keep the undiscounted
 * catalogue price: the bonus depends on the customer's device and warranty,
 * so it is not the offer's price.
 *
 * The file is validated at import time (`parseBonusFile`), so a wrong entry
 * fails the build and the tests rather than showing a wrong discount. No
 * server code and no catalogue data are imported: browser code may use it.
 */
import { formatEuros } from "#app/config/shop.ts";
import bonusJson from "./bonus-reparation.json" with { type: "json" };
import { CONSOLE_REPAIR_IDS, FAMILIES, FAMILY_REPAIRS, REPAIR_IDS, type Family, type RepairId } from "./schema.ts";
import { z } from "zod";

/** The bonus of one repair: whole euros, the article stating it and that article's month ("YYYY-MM"). */
export type BonusAmount = { readonly euros: number; readonly source: string; readonly sourceDate: string };

/** Whole euros, strictly positive: a bonus of 0 would be no bonus, and the scale has no cents. */
const EurosSchema = z
  .number({ error: "doit être un nombre d'euros" })
  .int({ error: "doit être un nombre entier d'euros" })
  .positive({ error: "doit être positif" });

const EntrySchema = z.strictObject({
  family: z.enum(FAMILIES, { error: `famille inconnue (attendu : ${FAMILIES.join(", ")})` }),
  repairs: z.array(z.enum(REPAIR_IDS, { error: "type de réparation inconnu" })).min(1),
  euros: EurosSchema,
  source: z.url({ protocol: /^https$/, error: "doit être une adresse https" }),
  sourceDate: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: "doit être un mois AAAA-MM" }),
  /** Other articles saying the same, for whoever checks the amount again. */
  seeAlso: z.array(z.url({ protocol: /^https$/ })).optional(),
});

const BonusFileSchema = z.strictObject({
  checkedOn: z.iso.date({ error: "doit être une date AAAA-MM-JJ" }),
  note: z.string().trim().min(1),
  entries: z.array(EntrySchema),
});

/** The validated content of `bonus-reparation.json`. */
export type BonusFile = z.output<typeof BonusFileSchema>;

/** Repair types a family offers: a bonus for a repair the shop never prices would be a typo. */
function offeredRepairs(family: Family): readonly RepairId[] {
  return family === "console" ? CONSOLE_REPAIR_IDS : FAMILY_REPAIRS[family];
}

/** How an error names an entry: its position and, when readable, its family, so the file can be fixed. */
function describeEntry(json: unknown, index: number): string {
  const entries = typeof json === "object" && json !== null && "entries" in json ? json.entries : undefined;
  const entry: unknown = Array.isArray(entries) ? entries[index] : undefined;
  const family = typeof entry === "object" && entry !== null && "family" in entry ? entry.family : undefined;
  return `entrée n° ${index + 1}${typeof family === "string" ? ` (${family})` : ""}`;
}

/**
 * Validates the content of `bonus-reparation.json`: zod shape, then no
 * repair type that its family does not offer and no family + repair pair
 * given twice (two amounts for one repair would make `bonusFor` arbitrary).
 *
 * @throws {Error} naming the file, the entry and the fault, one line per fault.
 */
export function parseBonusFile(json: unknown): BonusFile {
  const result = BonusFileSchema.safeParse(json);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const [first, index, ...rest] = issue.path;
      const where =
        first === "entries" && typeof index === "number"
          ? `${describeEntry(json, index)}${rest.length > 0 ? ` — ${rest.join(".")}` : ""}`
          : issue.path.join(".") || "fichier";
      return `${where} : ${issue.message}`;
    });
    throw bonusError(lines);
  }

  const lines: string[] = [];
  const seen = new Map<string, number>();
  result.data.entries.forEach((entry, index) => {
    for (const repair of entry.repairs) {
      if (!offeredRepairs(entry.family).includes(repair)) {
        lines.push(
          `${describeEntry(json, index)} — ${repair} : réparation non proposée pour la famille ${entry.family}`,
        );
      }
      const key = `${entry.family}/${repair}`;
      const first = seen.get(key);
      if (first === undefined) seen.set(key, index);
      else
        lines.push(`${describeEntry(json, index)} — ${repair} : déjà donné par l'entrée n° ${first + 1} (en double)`);
    }
  });
  if (lines.length > 0) throw bonusError(lines);
  return result.data;
}

function bonusError(lines: readonly string[]): Error {
  return new Error(`bonus-reparation.json invalide :\n${lines.map((line) => `- ${line}`).join("\n")}`);
}

const bonusFile = parseBonusFile(bonusJson);

/** Keyed "family/repair": one lookup per card, and `parseBonusFile` guarantees each key once. */
const amounts = new Map<string, BonusAmount>(
  bonusFile.entries.flatMap((entry) =>
    entry.repairs.map((repair): [string, BonusAmount] => [
      `${entry.family}/${repair}`,
      Object.freeze({ euros: entry.euros, source: entry.source, sourceDate: entry.sourceDate }),
    ]),
  ),
);

/** The day the amounts were last checked against their sources ("YYYY-MM-DD"). */
export const BONUS_REPARATION_CHECKED_ON: string = bonusFile.checkedOn;

/** In French, for the shop: where the amounts come from, what is left out and what to check before turning the display on. */
export const BONUS_REPARATION_NOTE: string = bonusFile.note;

/**
 * The bonus of a repair type for a product family, or `null` when none is
 * known (no source, or not eligible, like the rear glass, which is cosmetic).
 * `bonusFor("iphone", "ecran")` → `{ euros: 25, source: "https://igen.fr/…", sourceDate: "2024-01" }`.
 */
export function bonusFor(family: Family, repairId: RepairId): BonusAmount | null {
  return amounts.get(`${family}/${repairId}`) ?? null;
}

/**
 * What the customer pays once the bonus is deducted, in whole euros, never
 * below 0 (the bonus cannot exceed the bill).
 *
 * @param euros the repair price, whole euros
 * @param bonusEuros the bonus, whole euros
 * @throws {RangeError} if either is not a non-negative integer: prices and bonuses are whole euros.
 */
export function priceAfterBonus(euros: number, bonusEuros: number): number {
  for (const [name, value] of [
    ["euros", euros],
    ["bonusEuros", bonusEuros],
  ] as const) {
    if (!Number.isInteger(value) || value < 0) {
      throw new RangeError(`priceAfterBonus attend un nombre entier d'euros positif pour ${name}, reçu ${value}`);
    }
  }
  return Math.max(0, euros - bonusEuros);
}

/**
 * The discounted price as shown next to a repair price:
 * `afterBonusText(89, 25)` → "64 € après bonus réparation" (via `formatEuros`,
 * so the space before "€" is a no-break one).
 *
 * @throws {RangeError} as `priceAfterBonus`.
 */
export function afterBonusText(euros: number, bonusEuros: number): string {
  return `${formatEuros(priceAfterBonus(euros, bonusEuros))} après bonus réparation`;
}
