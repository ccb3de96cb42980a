/**
 * Index side of the model finder (issue 3): steps 1 to 3 of `./search.ts`.
 *
 * 1. `buildModelDocuments(brands)`: one `ModelDocument` per catalogue model,
 *    with its repairs, labels and prices read from the catalogue (never typed
 *    here).
 * 2. `buildSearchPayload(documents)`: the compact, JSON-serialisable data the
 *    browser receives — lookup tables of names and prices. The server builds
 *    it from its current catalogue (issue 29: prices edited in « Tarifs ») and
 *    serves it at `GET /api/catalogue/recherche` (`server/catalogue/`), so the
 *    page never indexes the raw catalogue and asks the network once, when the
 *    finder is first used, never while typing.
 * 3. `loadModelIndex(payload)`: the model matcher (`./model-matcher.ts`,
 *    shared with the assistant) over those names, which `searchModels` queries.
 *
 * Light enough for the browser, which runs step 3 only: the matcher and
 * `./shapes.ts` (no data, no zod) at run time.
 *
 * Units: every price is a whole number of euros (€), a minimum ("à partir de").
 */
import { buildMatcher, type Matcher } from "./model-matcher.ts";
import type { Family, RepairId } from "./schema.ts";
import { REPAIR_ALIASES } from "./search-text.ts";
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
 * - `series[i]` = the series' name as its brand page shows it;
 * - `models[i]` = [name, brand row, slug, prices, series row] where `prices`
 *   is a flat list of pairs `repair row, whole euros`, in display order.
 * The matcher's words are derived from these names when the index loads
 * (`loadModelIndex`): no search index is shipped (issue 17).
 */
export type SearchPayload = {
  readonly version: typeof PAYLOAD_VERSION;
  readonly repairs: readonly (readonly [id: RepairId, label: string])[];
  readonly brands: readonly (readonly [slug: string, name: string, family: Family, path: string])[];
  readonly series: readonly string[];
  readonly models: readonly (readonly [
    name: string,
    brand: number,
    slug: string,
    prices: readonly number[],
    series: number,
  ])[];
};

/** A loaded index: the payload's tables and the model matcher over them. */
export type ModelIndex = {
  readonly payload: SearchPayload;
  readonly matcher: Matcher;
};

export const PAYLOAD_VERSION = 2;

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
  const seriesRows = new Map<string, number>();
  const series: string[] = [];
  const slugs = new Set<string>();

  const models = documents.map((doc): [string, number, string, number[], number] => {
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
    let seriesRow = seriesRows.get(doc.series);
    if (seriesRow === undefined) {
      seriesRow = series.length;
      seriesRows.set(doc.series, seriesRow);
      series.push(doc.series);
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
    return [doc.name, brandRow, doc.slug, prices, seriesRow];
  });
  return { version: PAYLOAD_VERSION, repairs, brands, series, models };
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
  const labels = new Map(payload.repairs.map(([id, label]) => [id, label] as const));
  const models = payload.models.map(([name, brandRow, , prices, seriesRow]) => {
    const [, brand, family] = payload.brands[brandRow]!;
    const repairs: RepairId[] = [];
    for (let i = 0; i < prices.length; i += 2) repairs.push(payload.repairs[prices[i]!]![0]);
    return { name, brand, family, series: payload.series[seriesRow] ?? "", repairs };
  });
  return { payload, matcher: buildMatcher(models, labels, REPAIR_ALIASES) };
}

/** Shortcut for tests and scripts: `loadModelIndex(buildSearchPayload(buildModelDocuments(brands)))`. */
export function buildModelIndex(brands: readonly Brand[]): ModelIndex {
  return loadModelIndex(buildSearchPayload(buildModelDocuments(brands)));
}
