/**
 * Shapes of the loaded repair catalogue (spec "repair-catalogue" §2, §3, §9)
 * and the two walks over them that several modules need: series by series
 * (`mapSeries`) and model by model (`modelEntries`).
 *
 * No run-time import: the model finder (`./search.ts`, shipped to the
 * browser) may use this module without bundling the data or zod.
 *
 * Units: every price is a whole number of euros (€), a minimum ("à partir de").
 */
import type { Category, Family, RepairId } from "./schema.ts";

/** One repair of a model: `euros` is a whole-euro minimum; `estimate` is true until the shop confirms it. */
export type RepairPrice = {
  readonly id: RepairId;
  /** French label, e.g. "Lecteur Blu-ray". */
  readonly label: string;
  readonly euros: number;
  readonly estimate: boolean;
};

/** A model card: its repairs in display order (the order of `REPAIR_IDS`). */
export type Model = {
  readonly name: string;
  /** URL-safe ascii, unique across the whole catalogue: usable as `#anchor`. */
  readonly slug: string;
  /** Release year, when the data orders this model by generation. */
  readonly year: number | undefined;
  /** Product line within the brand (e.g. "pro-max"), compared by `year`. */
  readonly line: string | undefined;
  readonly foldable: boolean;
  readonly repairs: readonly RepairPrice[];
};

/** A series section (an iPhone generation row, a console generation…) with models in display order. */
export type Series = {
  readonly name: string;
  /** Unique within its brand and distinct from every model slug of the brand (both are page anchors). */
  readonly slug: string;
  readonly models: readonly Model[];
};

/** A brand page of spec §2. */
export type Brand = {
  readonly slug: string;
  /** Brand card label of spec §2: "Apple", "iPad", "Surface", "PlayStation"… */
  readonly name: string;
  /** Short French page title, e.g. "Réparation tablette Samsung". */
  readonly title: string;
  /** One-sentence French description for the brand card. */
  readonly description: string;
  readonly family: Family;
  /** The category page listing this brand (iPhones are with the smartphones). */
  readonly category: Category;
  /** Page path, always `/services/<slug>-repair`. */
  readonly path: string;
  /** The brand as its category page's meta text names it ("iPhone" for the Apple card); defaults to `name`. */
  readonly metaName: string;
  /** Rank among the brands named first in the category page's meta description, or `undefined` (page order). */
  readonly metaRank: number | undefined;
  /** Consoles only: the generations under the hub's tile, e.g. "PS5, PS4, PS3, PS2, PS1" (spec §2). */
  readonly generations: string | undefined;
  readonly series: readonly Series[];
};

/** A model with the brand and series it belongs to. */
export type ModelEntry = { readonly brand: Brand; readonly series: Series; readonly model: Model };

/** One priced repair flattened for search indexes and JSON-LD. */
export type Offer = {
  readonly brand: string;
  readonly brandSlug: string;
  readonly family: Family;
  readonly series: string;
  readonly model: string;
  readonly modelSlug: string;
  readonly repairId: RepairId;
  readonly repairLabel: string;
  /** Whole euros, minimum price ("à partir de"). */
  readonly euros: number;
  readonly estimate: boolean;
  /** The brand page, e.g. "/services/iphone-repair". */
  readonly path: string;
  /** The model card on that page, e.g. "/services/iphone-repair#iphone-13-pro". */
  readonly href: string;
};

/** A series as both the data files and the pages have it: a name, an anchor slug and models. */
type SeriesOf<M> = { readonly name: string; readonly slug: string; readonly models: readonly M[] };

/**
 * The same series with each model turned into something else (a `Model`, a
 * page's model card…), names and slugs kept, order kept.
 */
export function mapSeries<M, T>(
  series: readonly SeriesOf<M>[],
  toModel: (model: M) => T,
): { name: string; slug: string; models: T[] }[] {
  return series.map(({ name, slug, models }) => ({ name, slug, models: models.map(toModel) }));
}

/** Every model of `brands` with its brand and series, in display order (brand, series, model). */
export function modelEntries(brands: readonly Brand[]): ModelEntry[] {
  return brands.flatMap((brand) =>
    brand.series.flatMap((series) => series.models.map((model) => ({ brand, series, model }))),
  );
}

/** The model card on its brand page, e.g. "/services/iphone-repair#iphone-13-pro". */
export function modelHref(brand: Pick<Brand, "path">, model: Pick<Model, "slug">): string {
  return `${brand.path}#${model.slug}`;
}
