/**
 * Loader-side helpers of the catalogue pages (repair catalogue §2, §3, §9;
 * issue 3): they turn catalogue data into the small, already formatted
 * payload one page needs.
 *
 * `.server` on purpose: this module imports the whole catalogue, and React
 * Router refuses to bundle a `.server` module for the browser, so only
 * loaders can use it and no page's JavaScript carries every brand.
 *
 * Every function takes the brand list (the data files' by default), so a
 * category page, its meta text and a brand page follow the data alone
 * (issue 14).
 *
 * Units: prices are whole euros (€), minimums ("à partir de").
 */
import {
  brands as catalogueBrands,
  brandsInCategory,
  formatPrice,
  mapSeries,
  type Brand,
  type Catalogue,
  type Category,
} from "#app/catalogue/index.ts";
import { formatEuros } from "#app/config/shop.ts";

/** A repair as shown on a model card: `text` is `formatPrice(euros)`, e.g. "à partir de 49 €". */
export type PricedRepair = {
  readonly id: string;
  readonly label: string;
  /** Whole euros, minimum price. */
  readonly euros: number;
  /** True while the price is an estimate for the shop to confirm (rendered as `data-estimate`). */
  readonly estimate: boolean;
  readonly text: string;
  /** Issue 18 §3: "64 € après bonus réparation", only when the shop shows the bonus and the repair is eligible. */
  readonly afterBonus?: string;
};

/** A model card: name, anchor slug and repairs in display order. */
export type ModelView = { readonly name: string; readonly slug: string; readonly repairs: readonly PricedRepair[] };
/** A series section of a brand page. */
export type SeriesView = { readonly name: string; readonly slug: string; readonly models: readonly ModelView[] };
/** Everything a brand page renders, and nothing else (no release years or product lines). */
export type BrandView = Pick<Brand, "slug" | "name" | "title" | "description" | "family" | "path"> & {
  readonly series: readonly SeriesView[];
};

/**
 * A brand card of a category page (spec §3 "Brand card: name, description,
 * link"); console tiles also carry their `generations` line (spec §2).
 */
export type BrandCard = Pick<Brand, "slug" | "name" | "description" | "path"> & { readonly generations?: string };

/** Loader data of a brand page. */
export type BrandPageData = {
  readonly brand: BrandView;
  /** Meta description, 70–160 characters. */
  readonly description: string;
};

/** The brand card of each brand, in the given order. */
export function brandCards(list: readonly Brand[]): BrandCard[] {
  // No `generations` key at all on phone and tablet cards: their loader data stay as they were.
  return list.map(({ slug, name, description, path, generations }) => ({
    slug,
    name,
    description,
    path,
    ...(generations === undefined ? {} : { generations }),
  }));
}

/** Brand cards of a category page, in the order of spec §2. */
export function categoryBrandCards(category: Category, brands: readonly Brand[] = catalogueBrands): BrandCard[] {
  return brandCards(brandsInCategory(brands, category));
}

/** Loader data of a category page. */
export type CategoryPageData = {
  readonly brands: readonly BrandCard[];
  /** Its brands as the meta title and description name them, e.g. "PlayStation, Xbox et Nintendo". */
  readonly brandNames: string;
};

const frenchList = new Intl.ListFormat("fr-FR", { type: "conjunction" });

/**
 * The brands of a category page as its meta text names them: each brand's
 * `metaName`, those with a `metaRank` first (lowest first), then the others
 * in page order, joined the French way, e.g. "iPad, Surface, Samsung,
 * Huawei, Xiaomi, Acer, Asus, Sony et Toshiba".
 */
export function categoryBrandNames(category: Category, brands: readonly Brand[] = catalogueBrands): string {
  const listed = brandsInCategory(brands, category);
  const ranked = listed.filter((b) => b.metaRank !== undefined).sort((a, b) => (a.metaRank ?? 0) - (b.metaRank ?? 0));
  const others = listed.filter((b) => b.metaRank === undefined);
  return frenchList.format([...ranked, ...others].map((b) => b.metaName));
}

/** The loader data of a category page: its brand cards (spec §2 order) and the brand names of its meta text. */
export function categoryPageData(category: Category, brands: readonly Brand[] = catalogueBrands): CategoryPageData {
  return { brands: categoryBrandCards(category, brands), brandNames: categoryBrandNames(category, brands) };
}

/** The lowest price of any repair of the brand, in whole euros. */
export function cheapestPrice(brand: Brand): number {
  return Math.min(
    ...brand.series.flatMap((series) => series.models.flatMap((model) => model.repairs.map((r) => r.euros))),
  );
}

const DESCRIPTION_MAX = 160;

/**
 * Meta description of a brand page (at most 160 characters), e.g.
 * "Réparation Xbox : 9 modèles (Xbox Series X|S, Xbox One, Xbox 360, Xbox
 * Classic), à partir de 39 € TTC. Diagnostic gratuit et Express 1H." The
 * series names are dropped from the end, with "…", when the text would be
 * too long; the price is the cheapest repair of the brand.
 */
export function brandDescription(brand: Brand): string {
  const count = brand.series.reduce((total, series) => total + series.models.length, 0);
  const from = formatEuros(cheapestPrice(brand));
  const names = brand.series.map((series) => series.name.replace(/^Série /, ""));
  const build = (shown: readonly string[], cut: boolean) =>
    `${brand.title} : ${count} modèles${shown.length > 0 ? ` (${shown.join(", ")}${cut ? "…" : ""})` : ""}, ` +
    `à partir de ${from} TTC. ` +
    "Diagnostic gratuit et Express 1H.";
  for (let shown = names.length; shown > 0; shown--) {
    const text = build(names.slice(0, shown), shown < names.length);
    if (text.length <= DESCRIPTION_MAX) return text;
  }
  return build([], false);
}

/** The loader data of a brand page: its own series, models and formatted prices, and its meta description. */
export function brandPageData(brand: Brand): BrandPageData {
  return {
    brand: {
      slug: brand.slug,
      name: brand.name,
      title: brand.title,
      description: brand.description,
      family: brand.family,
      path: brand.path,
      series: mapSeries(brand.series, (model) => ({
        name: model.name,
        slug: model.slug,
        repairs: model.repairs.map((repair) => ({
          id: repair.id,
          label: repair.label,
          euros: repair.euros,
          estimate: repair.estimate,
          text: formatPrice(repair.euros),
        })),
      })),
    },
    description: brandDescription(brand),
  };
}

/**
 * The loader data of the brand page at `path` (e.g. "/services/ipad-repair") in `catalogue` (the router
 * context's, `catalogueOf(context)`: issue 29, prices edited in « Tarifs »), or `undefined` for any other path.
 */
export function brandPageForPath(path: string, catalogue: Catalogue): BrandPageData | undefined {
  const brand = catalogue.getBrandByPath(path);
  return brand ? brandPageData(brand) : undefined;
}
