/**
 * Model finder search (issue 3): "ps5 hdmi", "iphone 13 ecran" or "redmi pad
 * se" → the matching models with their repair prices and a link to their card.
 *
 * Pure functions, in three steps:
 * 1. `buildModelDocuments(brands)`: one `ModelDocument` per catalogue model,
 *    with its repairs, labels and prices read from the catalogue (never typed
 *    here).
 * 2. `buildSearchPayload(documents)`: the compact, JSON-serialisable data the
 *    browser receives — lookup tables plus a MiniSearch index. It is built at
 *    build time by `vite/catalogue-index-plugin.ts` (virtual module
 *    `virtual:catalogue-search-index`), so the page never indexes the raw
 *    catalogue and never asks the network.
 * 3. `loadModelIndex(payload)` once, then `searchModels(index, query, options)`
 *    on every keystroke.
 *
 * Matching is case- and accent-insensitive ("ecran" = "Écran"), prefix-based
 * (results while typing), tolerant of a typo ("iphnoe 13", "nintedo switch"),
 * and tolerant of spacing around numbers ("iphone13", "reno 12", "s24+").
 * Words naming a repair ("hdmi", "écran", "batterie"…) are not required in the
 * model's name: they pick the repairs shown first for each model.
 *
 * This module must stay light for the browser: it imports only MiniSearch at
 * run time (catalogue types are type-only imports).
 *
 * Units: every price is a whole number of euros (€), a minimum ("à partir de").
 */
import MiniSearch, { type AsPlainObject, type Options, type Query, type SearchOptions } from "minisearch";
import type { Brand, Family, RepairId } from "./index.ts";

// ------------------------------------------------------------------ shapes

/** One repair of a model, as the finder shows it. */
export type FinderRepair = {
  readonly id: RepairId;
  /** French label from the catalogue, e.g. "Port HDMI". */
  readonly label: string;
  /** Whole euros, minimum price ("à partir de"). */
  readonly euros: number;
};

/** One catalogue model, flattened for the finder (step 1). */
export type ModelDocument = {
  /** Catalogue-wide model slug, e.g. "iphone-13"; also the card's anchor. */
  readonly slug: string;
  /** Model name, e.g. "iPhone 13". */
  readonly name: string;
  /** Brand card label, e.g. "Apple", "PlayStation". */
  readonly brand: string;
  readonly brandSlug: string;
  readonly family: Family;
  /** Series name as shown on the brand page, e.g. "iPhone 13", "Série Redmi Pad". */
  readonly series: string;
  /** The model card, e.g. "/services/iphone-repair#iphone-13". */
  readonly href: string;
  /** Repairs in display order (the catalogue's order). */
  readonly repairs: readonly FinderRepair[];
};

/**
 * What the browser receives (step 2), kept small: each table is stored once
 * and models refer to rows by position.
 * - `repairs[i]` = [repair id, French label], the repair types in use;
 * - `brands[i]` = [slug, name, family, page path];
 * - `models[i]` = [name, brand row, slug, prices] where `prices` is a flat
 *   list of pairs `repair row, whole euros`, in display order;
 * - `index` = the serialised MiniSearch index (`MiniSearch#toJSON()`) less
 *   its `documentIds`, which are the rows of `models` (restored on load).
 *   Series and family words are indexed but not stored.
 */
export type SearchPayload = {
  readonly version: typeof PAYLOAD_VERSION;
  readonly repairs: readonly (readonly [id: RepairId, label: string])[];
  readonly brands: readonly (readonly [slug: string, name: string, family: Family, path: string])[];
  readonly models: readonly (readonly [name: string, brand: number, slug: string, prices: readonly number[]])[];
  readonly index: Omit<AsPlainObject, "documentIds">;
};

/** A found model with the repairs to show, the named repairs first. */
export type ModelHit = {
  readonly slug: string;
  readonly name: string;
  readonly brand: string;
  readonly brandSlug: string;
  readonly family: Family;
  readonly href: string;
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

/** A loaded index: the payload's tables and the live MiniSearch instance. */
export type ModelIndex = {
  readonly payload: SearchPayload;
  readonly miniSearch: MiniSearch<IndexedDocument>;
  /** Folded tokens of each repair label (plus aliases), by repair row. */
  readonly repairTokens: readonly (readonly string[])[];
};

const PAYLOAD_VERSION = 1;

/** Queries longer than this are cut (fuzzy matching cost grows with length). */
const MAX_QUERY_LENGTH = 80;

/** Default number of hits. */
export const DEFAULT_LIMIT = 8;

// ------------------------------------------------------------------ text

/**
 * Lower case, accents removed, "+" spelled "plus" (so "S24+" = "s24 plus"),
 * then split on anything that is not a letter or a digit.
 * `tokenize("Écran (Pro+)")` → ["ecran", "pro", "plus"].
 */
export function tokenize(text: string): string[] {
  return fold(text)
    .replace(/\+/g, " plus ")
    .split(/[^a-z0-9]+/)
    .filter((token) => token.length > 0);
}

/** Lower case without diacritics: `fold("Écran arrière")` → "ecran arriere". */
export function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase();
}

/** "ps5" → ["ps", "5"]; "reno12" → ["reno", "12"]; "pixel" → ["pixel"]. */
function splitLettersDigits(token: string): string[] {
  return token.match(/[a-z]+|[0-9]+/g) ?? [];
}

/**
 * The letter/digit parts of the tokens of `text` that mix both, indexed in a
 * field of their own so that "PS5" is found by "ps 5" and "Reno12" by
 * "reno 12", while "pixel 7" still ranks Pixel 7 above Pixel 7a.
 * `numberParts("Galaxy S24 FE")` → ["s", "24"].
 */
function numberParts(text: string): string[] {
  return tokenize(text).flatMap((token) => {
    const parts = splitLettersDigits(token);
    return parts.length > 1 ? parts : [];
  });
}

/** Fields of the MiniSearch index (nothing is stored in it: the payload tables hold what results show). */
type IndexedDocument = {
  readonly id: number;
  readonly name: string;
  /** The model name again, indexed by `numberParts`. */
  readonly parts: string;
  readonly brand: string;
  readonly series: string;
  readonly keywords: string;
};

/** Family words a visitor may type ("tablette samsung"). */
const FAMILY_KEYWORDS: Record<Family, string> = {
  smartphone: "smartphone téléphone",
  iphone: "smartphone téléphone",
  tablet: "tablette",
  console: "console",
};

/**
 * How a term is matched. Numbers are never fuzzy ("13" must not find "12");
 * words of 4–5 letters allow one typo, longer words two ("iphnoe" → "iphone").
 */
function fuzziness(term: string): number {
  if (/[0-9]/.test(term) || term.length < 4) return 0;
  return term.length < 6 ? 1 : 2;
}

const SEARCH_OPTIONS: SearchOptions = {
  tokenize: (text) => tokenize(text),
  boost: { name: 3, parts: 1, brand: 2, series: 1, keywords: 0.5 },
  prefix: true,
  fuzzy: (term) => fuzziness(term),
  // Query words are already tokenized and split by `wordQuery`.
  processTerm: (term) => term,
};

const MINISEARCH_OPTIONS: Options<IndexedDocument> = {
  idField: "id",
  fields: ["name", "parts", "brand", "series", "keywords"],
  tokenize: (text, field) => (field === "parts" ? numberParts(text) : tokenize(text)),
  processTerm: (term) => term,
  searchOptions: SEARCH_OPTIONS,
};

/**
 * Other words for a repair type, folded (not labels: labels come from the
 * catalogue). A query word equal to one of them names that repair.
 */
const REPAIR_ALIASES: Partial<Record<RepairId, readonly string[]>> = {
  ecran: ["screen", "dalle", "lcd"],
  batterie: ["battery"],
  "lecteur-blu-ray": ["bluray"],
  "disque-dur": ["hdd", "ssd"],
  "joy-con": ["joycon"],
  "port-usb-c": ["usbc"],
  "carte-mere": ["motherboard"],
};

/** Words of labels that name nothing on their own. */
const STOP_WORDS = new Set(["de", "du", "la", "le", "et"]);

// ------------------------------------------------------------------ build

/**
 * Step 1: one document per model of `brands`, in catalogue order (brand,
 * series, model), with the repairs and prices of the catalogue.
 */
export function buildModelDocuments(brands: readonly Brand[]): ModelDocument[] {
  return brands.flatMap((brand) =>
    brand.series.flatMap((series) =>
      series.models.map((model) => ({
        slug: model.slug,
        name: model.name,
        brand: brand.name,
        brandSlug: brand.slug,
        family: brand.family,
        series: series.name,
        href: `${brand.path}#${model.slug}`,
        repairs: model.repairs.map(({ id, label, euros }) => ({ id, label, euros })),
      })),
    ),
  );
}

/**
 * Step 2: the payload shipped to the browser (see `SearchPayload`), from the
 * documents of `buildModelDocuments`. Deterministic for the same input.
 *
 * @throws {Error} if two documents share a slug or a brand has two paths.
 */
export function buildSearchPayload(documents: readonly ModelDocument[]): SearchPayload {
  const repairRows = new Map<RepairId, number>();
  const repairs: [RepairId, string][] = [];
  const brandRows = new Map<string, number>();
  const brands: [string, string, Family, string][] = [];
  const slugs = new Set<string>();

  const models = documents.map((doc): [string, number, string, number[]] => {
    if (slugs.has(doc.slug)) throw new Error(`slug de modèle en double dans l'index : ${doc.slug}`);
    slugs.add(doc.slug);
    const path = doc.href.slice(0, doc.href.indexOf("#"));
    let brandRow = brandRows.get(doc.brandSlug);
    if (brandRow === undefined) {
      brandRow = brands.length;
      brandRows.set(doc.brandSlug, brandRow);
      brands.push([doc.brandSlug, doc.brand, doc.family, path]);
    } else if (brands[brandRow]?.[3] !== path) {
      throw new Error(`marque « ${doc.brandSlug} » : deux pages différentes dans l'index`);
    }
    const prices = doc.repairs.flatMap((repair) => {
      let row = repairRows.get(repair.id);
      if (row === undefined) {
        row = repairs.length;
        repairRows.set(repair.id, row);
        repairs.push([repair.id, repair.label]);
      }
      return [row, repair.euros];
    });
    return [doc.name, brandRow, doc.slug, prices];
  });

  const miniSearch = new MiniSearch<IndexedDocument>(MINISEARCH_OPTIONS);
  miniSearch.addAll(
    documents.map((doc, id) => ({
      id,
      name: doc.name,
      parts: doc.name,
      brand: doc.brand,
      // "Série Redmi Pad" → "Redmi Pad": "série" would match every prefix "se".
      series: doc.series.replace(/^série\s+/i, ""),
      keywords: FAMILY_KEYWORDS[doc.family],
    })),
  );
  // Round-trip through JSON so the payload is exactly what the browser parses.
  const { documentIds, ...index } = JSON.parse(JSON.stringify(miniSearch)) as AsPlainObject;
  // MiniSearch numbers documents in insertion order, as our ids: drop that identity map (a tenth of the payload).
  if (Object.entries(documentIds).some(([shortId, id]) => Number(shortId) !== id)) {
    throw new Error("index de recherche : numérotation inattendue des documents");
  }
  return { version: PAYLOAD_VERSION, repairs, brands, models, index };
}

/**
 * Step 3: the live index for `searchModels`, from a payload (the virtual
 * module's default export in the browser, `buildSearchPayload` in tests).
 * Costs a few milliseconds: call it once.
 *
 * @throws {Error} if the payload was built by another version of this module.
 */
export function loadModelIndex(payload: SearchPayload): ModelIndex {
  if (payload.version !== PAYLOAD_VERSION) {
    throw new Error(`index de recherche : version ${String(payload.version)} au lieu de ${PAYLOAD_VERSION}`);
  }
  const documentIds = Object.fromEntries(payload.models.map((_, id) => [id, id]));
  const miniSearch = MiniSearch.loadJS<IndexedDocument>({ ...payload.index, documentIds }, MINISEARCH_OPTIONS);
  const repairTokens = payload.repairs.map(([id, label]) => [
    ...tokenize(label).filter((token) => !STOP_WORDS.has(token)),
    ...(REPAIR_ALIASES[id] ?? []),
  ]);
  return { payload, miniSearch, repairTokens };
}

/** Shortcut for tests and scripts: `loadModelIndex(buildSearchPayload(buildModelDocuments(brands)))`. */
export function buildModelIndex(brands: readonly Brand[]): ModelIndex {
  return loadModelIndex(buildSearchPayload(buildModelDocuments(brands)));
}

// ------------------------------------------------------------------ search

/** Levenshtein distance between `a` and `b`, or `max + 1` once it exceeds `max`. */
function distanceAtMost(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > max) return max + 1;
    previous = current;
  }
  return previous[b.length]!;
}

/** Score of a query word equal to a word of a repair label. */
const EXACT = 3;

/**
 * How well query word `word` names a repair whose label words are `tokens`:
 * `EXACT` (3), 2 prefix of a label word (3 letters or more), 1 a typo, 0 not at all.
 */
function repairWordMatch(word: string, tokens: readonly string[]): number {
  if (word.length < 2 || STOP_WORDS.has(word)) return 0;
  let best = 0;
  for (const token of tokens) {
    if (token === word) return EXACT;
    if (word.length >= 3 && token.startsWith(word)) best = Math.max(best, 2);
    else if (best < 1) {
      const typos = fuzziness(word);
      if (typos > 0 && distanceAtMost(word, token, typos) <= typos) best = 1;
    }
  }
  return best;
}

/** The sub-query for one query word: whole, or as its letter/digit parts ("iphone13" = "iphone 13"). */
function wordQuery(word: string, isLast: boolean): Query {
  const whole: Query = { queries: [word], prefix: true };
  const parts = splitLettersDigits(word);
  if (parts.length < 2) return whole;
  // Only the part being typed (the last part of the last word) is a prefix.
  const partQueries: Query[] = parts.map((part, i) => ({ queries: [part], prefix: isLast && i === parts.length - 1 }));
  return { combineWith: "OR", queries: [whole, { combineWith: "AND", queries: partQueries }] };
}

/**
 * Searches the models: every word of `query` that is not a repair word must
 * match the model's name, brand, series or family word (as a prefix, or with a
 * typo). If no model matches them all, the words no model has are ignored
 * ("microsoft surface pro 9" → "surface pro 9"), and if that is not enough,
 * models matching any word are returned.
 *
 * Ranking: models offering a named repair first, then relevance (a name with
 * fewer extra words first: "iphone 13" gives iPhone 13 before iPhone 13 mini),
 * then catalogue order.
 *
 * An empty query, or one naming only repairs ("batterie"), gives no hits.
 *
 * @param index from `loadModelIndex`
 * @param query what the visitor typed, e.g. "ps5 hdmi"
 * @param options `limit` (default 8) and a scope (`family`, `brandSlug`)
 */
export function searchModels(index: ModelIndex, query: string, options: SearchModelsOptions = {}): ModelSearchResult {
  const { limit = DEFAULT_LIMIT, family, brandSlug } = options;
  const words = tokenize(query.slice(0, MAX_QUERY_LENGTH));
  const { payload, miniSearch, repairTokens } = index;

  // Repair words: score each repair row by the query words naming it.
  const repairScores = new Map<number, number>();
  const modelWords: { word: string; isLast: boolean }[] = [];
  words.forEach((word, position) => {
    const isLast = position === words.length - 1;
    // A word of a model name ("gamepad", "super", "encore") names a repair only if it is exactly a repair word.
    const modelTerm = miniSearch.search(word, { prefix: false, fuzzy: false }).length > 0;
    let namesRepair = false;
    repairTokens.forEach((tokens, row) => {
      const match = repairWordMatch(word, tokens);
      if (match === EXACT || (match > 0 && !modelTerm)) {
        namesRepair = true;
        repairScores.set(row, (repairScores.get(row) ?? 0) + match);
      }
    });
    // A repair word stays a model word when some model has it, even as a prefix ("sup" of "Super Slim").
    const keep = !namesRepair || modelTerm || miniSearch.search(word, { prefix: true, fuzzy: false }).length > 0;
    if (keep) modelWords.push({ word, isLast });
  });

  const repairIds = [...repairScores.keys()]
    .sort((a, b) => a - b)
    .map((row) => payload.repairs[row]![0]);
  if (modelWords.length === 0) return { hits: [], total: 0, repairIds };

  const families = family === undefined ? undefined : typeof family === "string" ? [family] : family;
  const inScope = (id: number): boolean => {
    const model = payload.models[id];
    const brand = model && payload.brands[model[1]];
    if (!brand) return false;
    return (brandSlug === undefined || brand[0] === brandSlug) && (families === undefined || families.includes(brand[2]));
  };
  const filter = (result: { id: unknown }) => typeof result.id === "number" && inScope(result.id);
  const queries = modelWords.map(({ word, isLast }) => wordQuery(word, isLast));
  let results = miniSearch.search({ combineWith: "AND", queries }, { filter });
  if (results.length === 0 && queries.length > 1) {
    // Forget the words no model (in scope) has, e.g. "microsoft" in "microsoft surface pro 9"…
    const known = queries.filter((q) => miniSearch.search(q, { filter }).length > 0);
    if (known.length > 0 && known.length < queries.length) {
      results = miniSearch.search({ combineWith: "AND", queries: known }, { filter });
    }
    // …and when the rest still match no single model ("iphone galaxy"), take models matching any.
    if (results.length === 0) results = miniSearch.search({ combineWith: "OR", queries: known }, { filter });
  }

  const ranked = results.map((result) => {
    const id = result.id as number;
    const prices = payload.models[id]![3];
    let bestRepair = 0;
    for (let i = 0; i < prices.length; i += 2) bestRepair = Math.max(bestRepair, repairScores.get(prices[i]!) ?? 0);
    return { id, score: result.score, bestRepair };
  });
  ranked.sort((a, b) => b.bestRepair - a.bestRepair || b.score - a.score || a.id - b.id);

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
