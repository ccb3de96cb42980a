/**
 * Index side of the model finder (issue 3): steps 1 to 3 of `./search.ts`.
 *
 * 1. `buildModelDocuments(brands)`: one `ModelDocument` per catalogue model,
 *    with its repairs, labels and prices read from the catalogue (never typed
 *    here).
 * 2. `buildSearchPayload(documents)`: the compact, JSON-serialisable data the
 *    browser receives — lookup tables plus a MiniSearch index. It is built at
 *    build time by `vite/catalogue-index-plugin.ts` (virtual module
 *    `virtual:catalogue-search-index`), so the page never indexes the raw
 *    catalogue and never asks the network.
 * 3. `loadModelIndex(payload)`: the live index `searchModels` queries.
 *
 * Light enough for the browser, which runs step 3 only: MiniSearch and
 * `./shapes.ts` (no data, no zod) at run time.
 *
 * Units: every price is a whole number of euros (€), a minimum ("à partir de").
 */
import MiniSearch, { type AsPlainObject, type Options, type SearchOptions } from "minisearch";
import type { Family, RepairId } from "./schema.ts";
import { REPAIR_ALIASES, STOP_WORDS, fuzziness, numberParts, tokenize } from "./search-text.ts";
import { modelEntries, modelHref, type Brand, type Offer } from "./shapes.ts";

/** One repair of a model, as the finder shows it. */
export type FinderRepair = {
  readonly id: RepairId;
  /** French label from the catalogue, e.g. "Port HDMI". */
  readonly label: string;
  /** Whole euros, minimum price ("à partir de"). */
  readonly euros: number;
};

/**
 * One catalogue model, flattened for the finder (step 1): `slug` (catalogue-
 * wide, also the card's anchor, e.g. "iphone-13") and `name` ("iPhone 13")
 * of the model, the brand card label (`brand`: "Apple", "PlayStation"), the
 * series name as shown on the brand page ("Série Redmi Pad"), the card's
 * `href` ("/services/iphone-repair#iphone-13"), and its repairs in display
 * order (the catalogue's order).
 */
export type ModelDocument = Pick<Offer, "brand" | "brandSlug" | "family" | "series" | "href"> & {
  readonly slug: string;
  readonly name: string;
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

/** A loaded index: the payload's tables and the live MiniSearch instance. */
export type ModelIndex = {
  readonly payload: SearchPayload;
  readonly miniSearch: MiniSearch<IndexedDocument>;
  /** Folded tokens of each repair label (plus aliases), by repair row. */
  readonly repairTokens: readonly (readonly string[])[];
};

export const PAYLOAD_VERSION = 1;

/** Fields of the MiniSearch index (nothing is stored in it: the payload tables hold what results show). */
export type IndexedDocument = {
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
 * Step 1: one document per model of `brands`, in catalogue order (brand,
 * series, model), with the repairs and prices of the catalogue.
 */
export function buildModelDocuments(brands: readonly Brand[]): ModelDocument[] {
  return modelEntries(brands).map(({ brand, series, model }) => ({
    slug: model.slug,
    name: model.name,
    brand: brand.name,
    brandSlug: brand.slug,
    family: brand.family,
    series: series.name,
    href: modelHref(brand, model),
    repairs: model.repairs.map(({ id, label, euros }) => ({ id, label, euros })),
  }));
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
