/**
 * What the assistant may state as a price (issue 7 "Grounding", issue 17 §1):
 * repair prices from the catalogue data (`app/catalogue`), through the model
 * matcher the finder uses too (`matchQuestion`). Both the offline assistant
 * and the model's `lookup_repair_price` tool answer from here, so a price can
 * only ever be one the catalogue holds. The shop's facts are `./facts.ts`.
 *
 * Issue 29: every lookup takes the brand list it answers from — the server's current catalogue (prices
 * edited in « Tarifs », `server/catalogue/service.ts`), or the JSON seed in tests — so an edited price
 * reaches the assistant's answers and its price guard with the next question. The matcher is built once
 * per brand list (a few ms), i.e. once per catalogue change.
 *
 * Units: prices are whole euros (€), minimums ("à partir de").
 */
import { bookingPath } from "#app/booking/paths.ts";
import { formatPrice } from "#app/catalogue/format.ts";
import { matchQuestion, type QuestionMatch } from "#app/catalogue/match-question.ts";
import { buildMatcher, termsOf, type Matcher } from "#app/catalogue/model-matcher.ts";
import type { RepairId } from "#app/catalogue/schema.ts";
import { REPAIR_ALIASES } from "#app/catalogue/search-text.ts";
import { modelEntries, modelHref, type Brand, type ModelEntry } from "#app/catalogue/shapes.ts";

/** One priced repair as the assistant quotes it. */
export type QuotedRepair = {
  id: RepairId;
  /** French label, e.g. "Port HDMI". */
  repair: string;
  euros: number;
  /** "à partir de 89 €" */
  price: string;
  /** True while the shop has not confirmed the figure (the pages say so too). */
  estimate: boolean;
};

/** A catalogue model with the repairs quoted for it. */
export type QuotedModel = {
  /** Catalogue-wide slug, e.g. "ps5". */
  slug: string;
  model: string;
  brand: string;
  /** The model's card on its brand page, e.g. "/services/playstation-repair#ps5". */
  link: string;
  /** The repairs the question names, or every repair of the model when it names none. */
  repairs: QuotedRepair[];
};

/**
 * The catalogue's answer to a question:
 * - `found`: the model it names, with its `variants` (the same brand's models
 *   whose names extend it: "PS4" → "PS4 Slim", "PS4 Pro"), quoted for the
 *   same repairs, and `booking`, the booking form's site-relative path
 *   pre-filled for it (issue 18 §4): with the repair when exactly one is
 *   named (`/rendez-vous?modele=ps5&reparation=port-hdmi`), else the model
 *   only, where the form lets the customer pick (`/rendez-vous?modele=ps5`);
 * - `ambiguous`: several models fit equally (a series name, "iPhone SE"):
 *   the candidates, to ask which one;
 * - `not-found`: no model of the catalogue; `brands` are the brand pages of
 *   the makers it names ("iPhone 7" → Apple's page).
 */
export type PriceLookup =
  | { kind: "found"; model: QuotedModel; repairNamed: boolean; variants: QuotedModel[]; booking: string }
  | { kind: "ambiguous"; candidates: QuotedModel[]; repairNamed: boolean }
  | { kind: "not-found"; brands: { brand: string; link: string }[] };

const matchers = new WeakMap<readonly Brand[], { matcher: Matcher; entries: ModelEntry[] }>();

/** The matcher of `brands`, built on first use of that list (a few ms). */
function catalogueMatcher(brands: readonly Brand[]) {
  let catalogue = matchers.get(brands);
  if (!catalogue) {
    const entries = modelEntries(brands);
    const labels = new Map<RepairId, string>();
    for (const { model } of entries) for (const repair of model.repairs) labels.set(repair.id, repair.label);
    const models = entries.map(({ brand, series, model }) => ({
      name: model.name,
      brand: brand.name,
      series: series.name,
      family: brand.family,
      repairs: model.repairs.map((repair) => repair.id),
    }));
    catalogue = { matcher: buildMatcher(models, labels, REPAIR_ALIASES), entries };
    matchers.set(brands, catalogue);
  }
  return catalogue;
}

/** Model `index` quoted for `repairIds` (every repair when empty). */
function quote(entries: readonly ModelEntry[], index: number, repairIds: readonly RepairId[]): QuotedModel {
  const { brand, model } = entries[index]!;
  const chosen = repairIds.length > 0 ? model.repairs.filter((repair) => repairIds.includes(repair.id)) : model.repairs;
  return {
    slug: model.slug,
    model: model.name,
    brand: brand.name,
    link: modelHref(brand, model),
    repairs: (chosen.length > 0 ? chosen : model.repairs).map((repair) => ({
      id: repair.id,
      repair: repair.label,
      euros: repair.euros,
      price: formatPrice(repair.euros),
      estimate: repair.estimate,
    })),
  };
}

/**
 * The catalogue's answer to a free-text question ("Combien coûte le port HDMI
 * d'une PS5 ?") in `brands`, see `PriceLookup`. Pure; about 0.1 ms.
 */
export function lookupRepairPrice(question: string, brands: readonly Brand[]): PriceLookup {
  const { matcher, entries } = catalogueMatcher(brands);
  return lookupOf(entries, matchQuestion(matcher, question));
}

/** The lookup of one question's match. */
function lookupOf(entries: readonly ModelEntry[], match: QuestionMatch): PriceLookup {
  if (match.kind === "model") return foundLookup(entries, match.model, match.repairs, match.variants);
  if (match.kind === "ambiguous") {
    return {
      kind: "ambiguous",
      candidates: match.models.map(({ model, repairs }) => quote(entries, model, repairs)),
      repairNamed: match.models.some(({ repairs }) => repairs.length > 0),
    };
  }
  return {
    kind: "not-found",
    brands: match.brands.map((index) => ({ brand: entries[index]!.brand.name, link: entries[index]!.brand.path })),
  };
}

/** Model `index` found for `repairs` (every repair when empty), with the variants that have them. */
function foundLookup(
  entries: readonly ModelEntry[],
  index: number,
  repairs: readonly RepairId[],
  variants: readonly number[],
): PriceLookup & { kind: "found" } {
  const model = quote(entries, index, repairs);
  return {
    kind: "found",
    model,
    repairNamed: repairs.length > 0,
    // One repair named: book it; none or several: the form offers the model's repairs to choose from.
    booking: bookingPath(model.slug, repairs.length === 1 && model.repairs.length === 1 ? repairs[0] : null),
    // A variant without the repair asked about is no answer to it.
    variants: variants
      .filter((variant) => repairs.every((id) => entries[variant]!.model.repairs.some((repair) => repair.id === id)))
      .map((variant) => quote(entries, variant, repairs)),
  };
}

/**
 * Where a question names one device, then another ("la batterie d'un iPhone
 * 11 et d'un iPhone 12"); a comma between digits is a decimal one ("12,9").
 */
const CLAUSE_BREAK = /\s+(?:et|ou|puis|ainsi que)\s+|,(?!\d)|[;/&]|\s+\+\s+/i;

/** A model name's words before its number ("iPhone 12 mini" → "iPhone"), or undefined without one. */
function lineOf(name: string): string | undefined {
  const words = name.split(" ");
  const number = words.findIndex((word) => /\d/.test(word));
  return number > 0 ? words.slice(0, number).join(" ") : undefined;
}

/**
 * `lookupRepairPrice` for a question that may name several models: one
 * `found` lookup per model when its clauses name two or more different ones
 * ("la batterie d'un iPhone 11 et d'un iPhone 12"), a repair named in one
 * clause quoted for the models of the others that have it; otherwise the
 * whole question's one lookup, in `brands`. Pure; well under a millisecond.
 */
export function lookupRepairPrices(question: string, brands: readonly Brand[]): PriceLookup[] {
  const { matcher, entries } = catalogueMatcher(brands);
  const whole = matchQuestion(matcher, question);
  // Only clauses with a word of some model's name are matched again ("Bonjour, …" is not).
  const clauses = question
    .split(CLAUSE_BREAK)
    .filter((clause) => termsOf(clause).some((term) => !term.weak && matcher.vocabulary.has(term.text)));
  if (clauses.length < 2) return [lookupOf(entries, whole)];
  const found = new Map<number, { repairs: readonly RepairId[]; variants: readonly number[] }>();
  let previous: string | undefined;
  for (const clause of clauses) {
    let match = matchQuestion(matcher, clause);
    // "iPhone 12 ou 13": the number alone takes the name before it.
    const line = previous && lineOf(previous);
    if (match.kind !== "model" && line) match = matchQuestion(matcher, `${line} ${clause}`);
    if (match.kind !== "model") continue;
    previous = entries[match.model]!.model.name;
    if (!found.has(match.model)) found.set(match.model, match);
  }
  if (found.size < 2) return [lookupOf(entries, whole)];
  const named = [...new Set([...found.values()].flatMap((match) => match.repairs))];
  return [...found].map(([index, match]) => {
    const has = (id: RepairId) => entries[index]!.model.repairs.some((repair) => repair.id === id);
    const repairs = match.repairs.length > 0 ? match.repairs : named.filter(has);
    return foundLookup(entries, index, repairs, match.variants);
  });
}

/** Every amount a lookup quotes (€): what the price guard then lets through. */
export function quotedAmounts(lookup: PriceLookup): number[] {
  if (lookup.kind === "not-found") return [];
  const models = lookup.kind === "found" ? [lookup.model, ...lookup.variants] : lookup.candidates;
  return models.flatMap((model) => model.repairs.map((repair) => repair.euros));
}
