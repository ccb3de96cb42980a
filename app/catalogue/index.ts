/**
 * The repair catalogue: the one source of brands, series, models, repair
 * types and minimum prices (spec "repair-catalogue" §2, §3, §9). Brand and
 * category pages, the pre-rendered paths and the sitemap, the finder, the
 * assistant and the JSON-LD read brands and prices from here only.
 *
 * Data live in `./data/<brand>.json`, one file per brand, listed in spec §2
 * order by `./data/brands.json` (read by `./data.ts`; issue 14). At import
 * time every file is validated (`./validate.ts`: the zod schemas of
 * `./schema.ts` plus cross-file rules); any violation throws a
 * `CatalogueError` naming the brand and model, so bad data fail the build
 * and the tests instead of reaching a page.
 *
 * This module is the public entry: the default catalogue (`brands`,
 * `getBrand`…) and the pure pieces to build another one from a brand list
 * (`loadCatalogue`, `createCatalogue`). It reads the data with a top-level
 * `await`, so it is for server and build code only: browser code imports
 * `./format.ts`, `./search.ts` or types.
 *
 * Units: every price is a whole number of euros (€), a minimum ("à partir de").
 * Each price says whether it is an `estimate` (invented within the spec's
 * ranges, for the shop to confirm) or comes from the shop (`estimate: false`).
 */
import { createCatalogue } from "./catalogue.ts";
import { readBrandFiles } from "./data.ts";
import type { Brand } from "./shapes.ts";
import { loadCatalogue } from "./validate.ts";

export {
  ASSUMED_PHONE_OTHER_RANGE,
  CATEGORIES,
  CONSOLE_REPAIR_IDS,
  FAMILY_CATEGORY,
  FAMILY_REPAIRS,
  REPAIR_IDS,
  REPAIR_LABELS,
  SPEC_RANGES,
  categoryPath,
  type Category,
  type EuroRange,
  type Family,
  type PriceSource,
  type RepairId,
} from "./schema.ts";
export type { Brand, Model, ModelEntry, Offer, RepairPrice, Series } from "./shapes.ts";
export { mapSeries, modelHref } from "./shapes.ts";
export { CatalogueError, loadCatalogue } from "./validate.ts";
export { brandsInCategory, createCatalogue, repairTypeLabel, type Catalogue } from "./catalogue.ts";
export { brandSlugs, readBrandFiles } from "./data.ts";
/** `formatPrice(49)` → "à partir de 49 €" (lives in `./format.ts`, light enough for client code). */
export { formatPrice } from "./format.ts";

/** The catalogue of the data files (see `./catalogue.ts` for its queries). */
export const catalogue = createCatalogue(loadCatalogue(await readBrandFiles()));

/** Every brand page, in the order of `data/brands.json` (spec §2): smartphones, tablets, consoles. */
export const brands: readonly Brand[] = catalogue.brands;
/** Brand cards of /services/smartphone-repair (spec §2), Apple first. */
export const smartphoneBrands: readonly Brand[] = catalogue.byCategory.smartphone;
/** Brand cards of /services/tablet-repair (spec §2). */
export const tabletBrands: readonly Brand[] = catalogue.byCategory.tablet;
/** Tiles of /services/console-repair (spec §2). */
export const consoleBrands: readonly Brand[] = catalogue.byCategory.console;

/** The brand with this slug (e.g. "samsung-tablet"), or `undefined`. */
export const getBrand = catalogue.getBrand;
/** The brand whose page is at `path` (e.g. "/services/ipad-repair"), or `undefined`. One trailing slash is tolerated. */
export const getBrandByPath = catalogue.getBrandByPath;
/** A model by its catalogue-wide slug (e.g. "iphone-13-pro") with its brand and series, or `undefined`. */
export const getModel = catalogue.getModel;
/** Every (model, repair) pair of the catalogue, in display order, for the search index and the JSON-LD offers. */
export const allOffers = catalogue.allOffers;
