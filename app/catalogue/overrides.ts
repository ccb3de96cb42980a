/**
 * Issue 29, « Prices in the dashboard »: the staff's edits laid over the JSON seed (`./data/*.json`), then
 * validated by the catalogue loader itself (`loadCatalogue`, `./validate.ts`), so an edited catalogue obeys
 * exactly the rules the data files do and a bad edit is refused with the loader's French message
 * (docs/decisions/026).
 *
 * Pure and synchronous: the server's catalogue service (`server/catalogue/service.ts`) reads the rows and
 * calls `applyOverrides`; tests feed it edits directly. No overrides at all gives exactly the seed's brands.
 *
 * Units: prices are whole euros (€), minimums ("à partir de"); `estimate: false` is « prix de la boutique ».
 */
import { BrandSchema, RepairIdSchema, REPAIR_IDS, type BrandData, type ModelData, type PriceSource } from "./schema.ts";
import type { Brand } from "./shapes.ts";
import { CatalogueError, deepFreeze, loadCatalogue } from "./validate.ts";

/** One repair's price as the staff set it (a row of `catalogue_prices`). */
export type PriceOverride = {
  readonly brandSlug: string;
  readonly modelSlug: string;
  readonly repairId: string;
  /** Whole euros. */
  readonly euros: number;
  readonly estimate: boolean;
};

/** A model the staff added at the end of a series; its prices are `PriceOverride`s. */
export type AddedModel = {
  readonly brandSlug: string;
  readonly seriesSlug: string;
  readonly slug: string;
  readonly name: string;
};

/** Everything stored on top of the seed. */
export type CatalogueOverrides = {
  readonly prices: readonly PriceOverride[];
  readonly addedModels: readonly AddedModel[];
  readonly hidden: readonly { readonly brandSlug: string; readonly modelSlug: string }[];
};

export const NO_OVERRIDES: CatalogueOverrides = { prices: [], addedModels: [], hidden: [] };

/** The catalogue with the edits applied. */
export type EditedCatalogue = {
  /** Every brand, hidden models included (the « Tarifs » view lists them), validated and frozen. */
  readonly all: readonly Brand[];
  /** What visitors, the finder and the assistant see: hidden models left out, series left empty dropped. */
  readonly visible: readonly Brand[];
  /** Slugs of the hidden models. */
  readonly hidden: ReadonlySet<string>;
  /**
   * Edits that no longer fit the seed (a model or series since removed from the JSON, an unknown repair id):
   * skipped, one French line each, for the server's log. A new edit never leaves one (it is checked first).
   */
  readonly stale: readonly string[];
};

/** The model's price source per priced repair, as an object (the form an override can change one key of). */
function sourcesOf(brand: BrandData, model: ModelData): Partial<Record<string, PriceSource>> {
  const sources: Partial<Record<string, PriceSource>> = {};
  for (const id of REPAIR_IDS) {
    if (model.prices[id] === undefined) continue;
    const override = model.priceSource;
    sources[id] = typeof override === "string" ? override : (override?.[id] ?? brand.priceSource);
  }
  return sources;
}

/** The seed brand (parsed, so a fresh object to edit) with this brand's edits; problems go to `stale`. */
function editBrand(brand: BrandData, overrides: CatalogueOverrides, stale: string[]): BrandData {
  for (const added of overrides.addedModels) {
    if (added.brandSlug !== brand.slug) continue;
    const series = brand.series.find((candidate) => candidate.slug === added.seriesSlug);
    if (!series) {
      stale.push(
        `marque « ${brand.slug} » — série inconnue « ${added.seriesSlug} » du modèle ajouté « ${added.name} »`,
      );
      continue;
    }
    // Staff-entered prices are the shop's own: « prix de la boutique » unless an edit says otherwise.
    series.models.push({ name: added.name, slug: added.slug, prices: {}, priceSource: "shop" });
  }
  const models = new Map(brand.series.flatMap((series) => series.models.map((model) => [model.slug, model])));
  for (const price of overrides.prices) {
    if (price.brandSlug !== brand.slug) continue;
    const model = models.get(price.modelSlug);
    const repair = RepairIdSchema.safeParse(price.repairId);
    if (!model || !repair.success) {
      stale.push(`marque « ${brand.slug} » — prix ignoré : ${price.modelSlug} / ${price.repairId}`);
      continue;
    }
    const sources = sourcesOf(brand, model);
    model.prices[repair.data] = price.euros;
    sources[repair.data] = price.estimate ? "estimate" : "shop";
    model.priceSource = sources;
  }
  return brand;
}

/** The brands without the hidden models, and without a series they leave empty. */
function withoutHidden(brands: readonly Brand[], hidden: ReadonlySet<string>): readonly Brand[] {
  if (hidden.size === 0) return brands;
  return deepFreeze(
    brands.map((brand) => ({
      ...brand,
      series: brand.series
        .map((series) => ({ ...series, models: series.models.filter((model) => !hidden.has(model.slug)) }))
        .filter((series) => series.models.length > 0),
    })),
  );
}

/**
 * The seed's brand files (`readBrandFiles()`, of unknown shape) with `overrides` applied, validated by
 * `loadCatalogue`.
 *
 * @throws {CatalogueError} when the result breaks a catalogue rule (a price that is not a positive whole
 *   number of euros, a duplicate model slug, an estimated price on a model without `year`/`line`…), or when a
 *   brand would have no visible model left: its French lines name the brand and model.
 */
export function applyOverrides(seed: readonly unknown[], overrides: CatalogueOverrides): EditedCatalogue {
  const stale: string[] = [];
  const edited = seed.map((input) => {
    const parsed = BrandSchema.safeParse(input);
    // A seed file that fails its schema is passed on as it is: loadCatalogue reports it.
    return parsed.success ? editBrand(parsed.data, overrides, stale) : input;
  });
  const all = loadCatalogue(edited);
  const known = new Set(all.flatMap((brand) => brand.series.flatMap((series) => series.models.map((m) => m.slug))));
  const hidden = new Set(overrides.hidden.map((row) => row.modelSlug).filter((slug) => known.has(slug)));
  const visible = withoutHidden(all, hidden);
  const empty = visible.filter((brand) => brand.series.length === 0);
  if (empty.length > 0) {
    throw new CatalogueError(
      empty.map((brand) => `marque « ${brand.slug} » — au moins un modèle doit rester visible sur sa page`),
    );
  }
  return { all, visible, hidden, stale };
}
