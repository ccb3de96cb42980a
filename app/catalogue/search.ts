/**
 * Model finder search (issue 3): "ps5 hdmi", "iphone 13 ecran" or "redmi pad
 * se" → the matching models with their repair prices and a link to their card.
 *
 * Pure functions, in four steps:
 * 1. `buildModelDocuments(brands)`: one `ModelDocument` per catalogue model,
 *    with its repairs, labels and prices read from the catalogue (never typed
 *    here).
 * 2. `buildSearchPayload(documents)`: the compact, JSON-serialisable data the
 *    browser receives — lookup tables of names and prices. The server builds
 *    it from its current catalogue (issue 29: prices edited in « Tarifs ») and
 *    serves it at `GET /api/catalogue/recherche` (`server/catalogue/`), so the
 *    page never indexes the raw catalogue and asks the network once, when the
 *    finder is first used, never while typing.
 * 3. `loadModelIndex(payload)` once, then
 * 4. `searchModels(index, query, options)` on every keystroke.
 *
 * Matching is the model matcher's (`./model-matcher.ts`, shared with the
 * assistant, issue 17): case- and accent-insensitive ("ecran" = "Écran"),
 * prefix-based (results while typing), tolerant of a typo ("iphnoe 13",
 * "nintedo switch"), and of spacing around numbers ("iphone13", "reno 12", "s24+").
 * Words naming a repair ("hdmi", "écran", "batterie"…) are not required in the
 * model's name: they pick the repairs shown first for each model.
 *
 * The module is split by what each part does: `./search-index.ts` (steps 1–3),
 * `./search-text.ts` (folding, tokens, typos) and, here, the query (step 4)
 * and the public entry re-exporting the rest, so importers keep one path.
 * It must stay light for the browser: the matcher and `./shapes.ts` at run
 * time, catalogue types as type-only imports.
 *
 * Units: every price is a whole number of euros (€), a minimum ("à partir de").
 */
import type { Family, RepairId } from "./schema.ts";
import { align, candidatesFor, termsOf, type Term } from "./model-matcher.ts";
import type { FinderRepair, ModelDocument, ModelIndex, SearchPayload } from "./search-index.ts";
import { EXACT, repairWordMatch } from "./search-text.ts";

export {
  buildModelDocuments,
  buildModelIndex,
  buildSearchPayload,
  loadModelIndex,
  type FinderRepair,
  type ModelDocument,
  type ModelIndex,
  type SearchPayload,
} from "./search-index.ts";
export { fold, tokenize } from "./search-text.ts";

/** A found model (as its `ModelDocument`, less the series) with the repairs to show, the named repairs first. */
export type ModelHit = Omit<ModelDocument, "series" | "repairs"> & {
  /**
   * Every repair of the model: first those the query names (`matched: true`,
   * best match first), then the others in display order.
   */
  readonly repairs: readonly (FinderRepair & { readonly matched: boolean })[];
};

/** Answer of `searchModels`. */
export type ModelSearchResult = {
  /** Best first, at most `limit`. */
  readonly hits: readonly ModelHit[];
  /** Number of matching models before the limit. */
  readonly total: number;
  /** Repair types the query names (e.g. ["port-hdmi"] for "ps5 hdmi"), catalogue order. */
  readonly repairIds: readonly RepairId[];
};

export type SearchScope = {
  /** Only these families, e.g. `"tablet"` or `["smartphone", "iphone"]`. */
  readonly family?: Family | readonly Family[];
  /** Only this brand, e.g. `"xiaomi-tablet"`. */
  readonly brandSlug?: string;
};

export type SearchModelsOptions = SearchScope & {
  /** Maximum number of hits (default 8). */
  readonly limit?: number;
};

/** Queries longer than this are cut (fuzzy matching cost grows with length). */
const MAX_QUERY_LENGTH = 80;

/** Default number of hits. */
export const DEFAULT_LIMIT = 8;

/** A model the query matches, with what ranks it. */
type Ranked = { id: number; score: number; bestRepair: number; took: number };

/**
 * Searches the models with the shared model matcher (`./model-matcher.ts`,
 * issue 17): every word of `query` that is not a repair word must match a
 * word of the model — its name, brand, series or family — exactly, with a
 * typo, glued or split, the last one also as a prefix; each word of the
 * model matches one query word at most ("xbox one x" is not the Xbox One).
 * If no model matches them all, the words no model has are ignored
 * ("microsoft surface pro 9" → "surface pro 9"), and if that is not enough,
 * models matching any word are returned.
 *
 * Ranking: models offering a named repair first, then how well the query
 * covers the name (the exact name first: "switch" gives Switch before Switch
 * Lite, "iphone 13" iPhone 13 before 13 mini), then catalogue order.
 *
 * An empty query, or one naming only repairs ("batterie"), gives no hits.
 *
 * @param index from `loadModelIndex`
 * @param query what the visitor typed, e.g. "ps5 hdmi"
 * @param options `limit` (default 8) and a scope (`family`, `brandSlug`)
 */
export function searchModels(index: ModelIndex, query: string, options: SearchModelsOptions = {}): ModelSearchResult {
  const { limit = DEFAULT_LIMIT, family, brandSlug } = options;
  const { payload, matcher } = index;
  const terms = termsOf(query.slice(0, MAX_QUERY_LENGTH), true);

  // Repair words: score each repair row by the query words naming it.
  const repairScores = new Map<number, number>();
  const kept: Term[] = [];
  for (const term of terms) {
    const modelWord = matcher.vocabulary.has(term.text);
    let namesRepair = false;
    payload.repairs.forEach(([id], row) => {
      const match = repairWordMatch(term.text, matcher.repairWords.get(id) ?? []);
      // A word of a model name ("gamepad", "super") names a repair only if it is exactly a repair word.
      if (match === EXACT || (match > 0 && !modelWord)) {
        namesRepair = true;
        repairScores.set(row, (repairScores.get(row) ?? 0) + match);
      }
    });
    // A repair word stays a model word when some model has it, even as a prefix ("sup" of "Super Slim").
    const prefix =
      !modelWord && namesRepair && [...matcher.vocabulary.keys()].some((word) => word.startsWith(term.text));
    if (!namesRepair || modelWord || prefix) kept.push({ ...term, position: kept.length });
  }
  const repairIds = [...repairScores.keys()].sort((a, b) => a - b).map((row) => payload.repairs[row]![0]);
  if (kept.length === 0) return { hits: [], total: 0, repairIds };

  const families = family === undefined ? undefined : typeof family === "string" ? [family] : family;
  const inScope = (id: number): boolean => {
    const brand = payload.brands[payload.models[id]![1]];
    return (
      brand !== undefined &&
      (brandSlug === undefined || brand[0] === brandSlug) &&
      (families === undefined || families.includes(brand[2]))
    );
  };
  /**
   * The models in scope matching all `words` (or any, `all` false), and the
   * words some model matched. A glued word ("ps5") counts whole: its parts
   * are matched by one model or not at all.
   */
  const rank = (words: readonly Term[], all: boolean) => {
    const ranked: Ranked[] = [];
    const matched = new Set<number>();
    const groups = new Set(words.map((term) => term.group));
    for (const id of candidatesFor(matcher, words, true)) {
      if (!inScope(id)) continue;
      const model = matcher.models[id]!;
      const alignment = align(matcher, model, words, true);
      const took = [...groups].filter((group) =>
        words.every((term) => term.group !== group || alignment.consumed.has(term.position)),
      );
      for (const group of took) matched.add(group);
      if (took.length === 0 || (all && took.length < groups.size)) continue;
      const coverage = (model.name.length - alignment.unmatchedName) / model.name.length;
      const prices = payload.models[id]![3];
      let bestRepair = 0;
      for (let i = 0; i < prices.length; i += 2) bestRepair = Math.max(bestRepair, repairScores.get(prices[i]!) ?? 0);
      ranked.push({ id, score: alignment.score + coverage, bestRepair, took: took.length });
    }
    return { ranked, matched, groups: groups.size };
  };

  const first = rank(kept, true);
  let ranked = first.ranked;
  if (ranked.length === 0 && first.groups > 1) {
    // Forget the words no model (in scope) has, e.g. "microsoft" in "microsoft surface pro 9"…
    const matched = first.matched.size > 0 ? first.matched : rank(kept, false).matched;
    const known = kept.filter((term) => matched.has(term.group)).map((term, position) => ({ ...term, position }));
    if (known.length > 0 && known.length < kept.length) ranked = rank(known, true).ranked;
    // …and when the rest still match no single model ("iphone galaxy"), take models matching any.
    if (ranked.length === 0) ranked = rank(known, false).ranked;
  }
  ranked.sort((a, b) => b.bestRepair - a.bestRepair || b.took - a.took || b.score - a.score || a.id - b.id);

  return {
    hits: ranked.slice(0, Math.max(0, limit)).map(({ id }) => toHit(payload, id, repairScores)),
    total: ranked.length,
    repairIds,
  };
}

function toHit(payload: SearchPayload, id: number, repairScores: ReadonlyMap<number, number>): ModelHit {
  const [name, brandRow, slug, prices] = payload.models[id]!;
  const [brandSlug, brand, family, path] = payload.brands[brandRow]!;
  const repairs: { row: number; score: number; repair: FinderRepair & { matched: boolean } }[] = [];
  for (let i = 0; i < prices.length; i += 2) {
    const row = prices[i]!;
    const [repairId, label] = payload.repairs[row]!;
    const score = repairScores.get(row) ?? 0;
    repairs.push({ row, score, repair: { id: repairId, label, euros: prices[i + 1]!, matched: score > 0 } });
  }
  // Stable sort: named repairs first (best match first), the rest keep the display order.
  repairs.sort((a, b) => b.score - a.score);
  return { slug, name, brand, brandSlug, family, href: `${path}#${slug}`, repairs: repairs.map((r) => r.repair) };
}
