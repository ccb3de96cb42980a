/**
 * Queries over a list of loaded brands (spec "repair-catalogue" §2, §3):
 * the brands of each category page, look-ups by slug, page path and model
 * slug, and the flat list of offers.
 *
 * `createCatalogue(brands)` is a pure function of the list, so the pages,
 * the pre-rendered paths, the sitemap, the meta texts and the search index
 * all follow the one brand list (issue 14), and tests can build a catalogue
 * with a brand more or less. `./index.ts` builds the default one from the
 * data files.
 */
import { REPAIR_LABELS, type Category, type RepairId } from "./schema.ts";
import { modelEntries, modelHref, type Brand, type ModelEntry, type Offer } from "./shapes.ts";
import { deepFreeze } from "./validate.ts";

/** Everything the site asks of a list of brands. Lists keep the order of the given brands. */
export type Catalogue = {
  /** Every brand page, in the given (spec §2) order. */
  readonly brands: readonly Brand[];
  /** The brands of each category page, in page order; `smartphone` includes the iPhone (Apple first in spec §2). */
  readonly byCategory: Readonly<Record<Category, readonly Brand[]>>;
  /** The brand with this slug (e.g. "samsung-tablet"), or `undefined`. */
  readonly getBrand: (slug: string) => Brand | undefined;
  /** The brand whose page is at `path` (e.g. "/services/ipad-repair"), or `undefined`. One trailing slash is tolerated. */
  readonly getBrandByPath: (path: string) => Brand | undefined;
  /** A model by its catalogue-wide slug (e.g. "iphone-13-pro") with its brand and series, or `undefined`. */
  readonly getModel: (slug: string) => ModelEntry | undefined;
  /** Every (model, repair) pair, in display order, for search indexes and JSON-LD. Computed once, frozen. */
  readonly allOffers: () => readonly Offer[];
};

/** The brands of `brands` listed on the `category` page, in the order given. */
export function brandsInCategory(brands: readonly Brand[], category: Category): Brand[] {
  return brands.filter((brand) => brand.category === category);
}

/** French label of a repair type, e.g. `repairTypeLabel("port-hdmi") === "Port HDMI"`. */
export function repairTypeLabel(id: RepairId): string {
  return REPAIR_LABELS[id];
}

function toOffers({ brand, series, model }: ModelEntry): Offer[] {
  return model.repairs.map((repair) => ({
    brand: brand.name,
    brandSlug: brand.slug,
    family: brand.family,
    series: series.name,
    model: model.name,
    modelSlug: model.slug,
    repairId: repair.id,
    repairLabel: repair.label,
    euros: repair.euros,
    estimate: repair.estimate,
    path: brand.path,
    href: modelHref(brand, model),
  }));
}

/**
 * The queries over `brands` (already validated by `loadCatalogue`, which
 * guarantees unique slugs and paths).
 */
export function createCatalogue(brands: readonly Brand[]): Catalogue {
  const bySlug = new Map(brands.map((brand) => [brand.slug, brand]));
  const byPath = new Map(brands.map((brand) => [brand.path, brand]));
  const entries = modelEntries(brands);
  const byModel = new Map(entries.map((entry) => [entry.model.slug, entry]));
  let offers: readonly Offer[] | undefined;
  return {
    brands,
    byCategory: {
      smartphone: brandsInCategory(brands, "smartphone"),
      tablet: brandsInCategory(brands, "tablet"),
      console: brandsInCategory(brands, "console"),
    },
    getBrand: (slug) => bySlug.get(slug),
    getBrandByPath: (path) => byPath.get(path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path),
    getModel: (slug) => byModel.get(slug),
    allOffers: () => (offers ??= deepFreeze(entries.flatMap(toOffers))),
  };
}
