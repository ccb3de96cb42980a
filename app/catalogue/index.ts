/**
 * The repair catalogue: the one source of brands, series, models, repair
 * types and minimum prices (spec "repair-catalogue" §2, §3, §9). Brand pages,
 * the finder, the assistant and the JSON-LD read prices from here only.
 *
 * Data lives in `./data/<brand>.json` (one file per brand). At import time
 * every file is validated with the zod schemas of `./schema.ts` and with the
 * cross-file rules below; any violation throws a `CatalogueError` naming the
 * brand and model, so bad data fails the build and the tests instead of
 * reaching a page. No value from the JSON is ever cast.
 *
 * Units: every price is a whole number of euros (€), a minimum ("à partir de").
 * Each price says whether it is an `estimate` (invented within the spec's
 * ranges, for the shop to confirm) or comes from the shop (`estimate: false`).
 */
import acerTablet from "./data/acer-tablet.json" with { type: "json" };
import asusTablet from "./data/asus-tablet.json" with { type: "json" };
import asus from "./data/asus.json" with { type: "json" };
import google from "./data/google.json" with { type: "json" };
import honor from "./data/honor.json" with { type: "json" };
import huaweiTablet from "./data/huawei-tablet.json" with { type: "json" };
import huawei from "./data/huawei.json" with { type: "json" };
import ipad from "./data/ipad.json" with { type: "json" };
import iphone from "./data/iphone.json" with { type: "json" };
import nintendo from "./data/nintendo.json" with { type: "json" };
import oppo from "./data/oppo.json" with { type: "json" };
import playstation from "./data/playstation.json" with { type: "json" };
import realme from "./data/realme.json" with { type: "json" };
import samsungTablet from "./data/samsung-tablet.json" with { type: "json" };
import samsung from "./data/samsung.json" with { type: "json" };
import sonyTablet from "./data/sony-tablet.json" with { type: "json" };
import sony from "./data/sony.json" with { type: "json" };
import surface from "./data/surface.json" with { type: "json" };
import toshibaTablet from "./data/toshiba-tablet.json" with { type: "json" };
import xbox from "./data/xbox.json" with { type: "json" };
import xiaomiTablet from "./data/xiaomi-tablet.json" with { type: "json" };
import xiaomi from "./data/xiaomi.json" with { type: "json" };
import {
  BrandSchema,
  CONSOLE_REPAIR_IDS,
  FAMILY_REPAIRS,
  REPAIR_IDS,
  REPAIR_LABELS,
  type BrandData,
  type Family,
  type ModelData,
  type PriceSource,
  type RepairId,
} from "./schema.ts";

export {
  ASSUMED_PHONE_OTHER_RANGE,
  CONSOLE_REPAIR_IDS,
  FAMILY_REPAIRS,
  REPAIR_IDS,
  REPAIR_LABELS,
  SPEC_RANGES,
  type EuroRange,
  type Family,
  type PriceSource,
  type RepairId,
} from "./schema.ts";
/** `formatPrice(49)` → "à partir de 49 €" (lives in `./format.ts`, light enough for client code). */
export { formatPrice } from "./format.ts";

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
  /** Page path, always `/services/<slug>-repair`. */
  readonly path: string;
  readonly series: readonly Series[];
};

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

/**
 * Thrown by `loadCatalogue` when the data break a rule. `issues` holds one
 * French line per problem, each starting with where it is, e.g.
 * `marque « iphone », série « iPhone 13 », modèle « iPhone 13 » (iphone-13) — prices.ecran : doit être un nombre entier d'euros`.
 */
export class CatalogueError extends Error {
  readonly issues: readonly string[];
  constructor(issues: readonly string[]) {
    super("Catalogue de réparation invalide :\n" + issues.map((issue) => `  - ${issue}`).join("\n"));
    this.name = "CatalogueError";
    this.issues = issues;
  }
}

/** Reads `value[key]` from data of unknown shape, for error messages only. */
function at(value: unknown, key: PropertyKey): unknown {
  return typeof value === "object" && value !== null && key in value ? Reflect.get(value, key) : undefined;
}

function quoted(value: unknown, fallback: string): string {
  return typeof value === "string" ? `« ${value} »` : fallback;
}

/**
 * Turns a zod issue path into the names a person editing the JSON looks for
 * (brand slug, series name, model name) rather than array indexes.
 */
function locate(raw: unknown, brandIndex: number, path: readonly PropertyKey[]): string {
  const parts = [`marque ${quoted(at(raw, "slug"), `n° ${brandIndex + 1}`)}`];
  const field: string[] = [];
  let node = raw;
  path.forEach((key, i) => {
    node = at(node, key);
    const parent = path[i - 1];
    if (parent === "series" && typeof key === "number") {
      parts.push(`série ${quoted(at(node, "name"), `n° ${key + 1}`)}`);
    } else if (parent === "models" && typeof key === "number") {
      const slug = at(node, "slug");
      parts.push(`modèle ${quoted(at(node, "name"), `n° ${key + 1}`)}${typeof slug === "string" ? ` (${slug})` : ""}`);
    } else if (key !== "series" && key !== "models") {
      field.push(String(key));
    }
  });
  return parts.join(", ") + (field.length > 0 ? ` — ${field.join(".")}` : "");
}

function where(brand: BrandData, seriesName?: string, model?: ModelData): string {
  let text = `marque « ${brand.slug} »`;
  if (seriesName !== undefined) text += `, série « ${seriesName} »`;
  if (model !== undefined) text += `, modèle « ${model.name} » (${model.slug})`;
  return text;
}

function resolveSource(brand: BrandData, model: ModelData, id: RepairId): PriceSource {
  const override = model.priceSource;
  if (typeof override === "string") return override;
  return override?.[id] ?? brand.priceSource;
}

/** Repair ids priced for a model, in display order. */
function pricedRepairs(model: ModelData): RepairId[] {
  return REPAIR_IDS.filter((id) => model.prices[id] !== undefined);
}

/** Rules that a single zod schema cannot express (spec §3), for one parsed brand. */
function checkBrand(brand: BrandData): string[] {
  const issues: string[] = [];
  if (brand.path !== `/services/${brand.slug}-repair`) {
    issues.push(`${where(brand)} — path : doit valoir /services/${brand.slug}-repair (reçu ${brand.path})`);
  }
  const seriesSlugs = new Set<string>();
  const modelSlugs = new Set<string>();
  for (const series of brand.series) {
    if (seriesSlugs.has(series.slug)) issues.push(`${where(brand, series.name)} — slug de série en double : ${series.slug}`);
    seriesSlugs.add(series.slug);
    for (const model of series.models) {
      const here = where(brand, series.name, model);
      if (modelSlugs.has(model.slug)) issues.push(`${here} — slug de modèle en double dans la marque : ${model.slug}`);
      modelSlugs.add(model.slug);

      const priced = pricedRepairs(model);
      if (brand.family === "console") {
        // Consoles differ per model (§3): any non-empty subset of the console types.
        const allowed: readonly RepairId[] = CONSOLE_REPAIR_IDS;
        if (priced.length === 0) issues.push(`${here} — prices : au moins un type de réparation est requis`);
        const foreign = priced.filter((id) => !allowed.includes(id));
        if (foreign.length > 0) issues.push(`${here} — prices : types non prévus pour une console : ${foreign.join(", ")}`);
      } else {
        const expected: readonly RepairId[] = FAMILY_REPAIRS[brand.family];
        const missing = expected.filter((id) => !priced.includes(id));
        const extra = priced.filter((id) => !expected.includes(id));
        if (missing.length > 0) issues.push(`${here} — prices : types de réparation manquants : ${missing.join(", ")}`);
        if (extra.length > 0) {
          issues.push(`${here} — prices : types de réparation en trop pour la famille ${brand.family} : ${extra.join(", ")}`);
        }
      }

      const perRepair = model.priceSource;
      if (typeof perRepair === "object") {
        const unpriced = REPAIR_IDS.filter((id) => perRepair[id] !== undefined && !priced.includes(id));
        if (unpriced.length > 0) issues.push(`${here} — priceSource : types sans prix : ${unpriced.join(", ")}`);
      }
      if (model.foldable === true && brand.family !== "smartphone" && brand.family !== "iphone") {
        issues.push(`${here} — foldable : réservé aux smartphones`);
      }
      if ((model.year === undefined) !== (model.line === undefined)) {
        issues.push(`${here} — year et line vont ensemble (ordre des générations)`);
      }
      // An invented price must be checkable against its siblings ("rising with generation").
      const estimated = priced.some((id) => resolveSource(brand, model, id) === "estimate");
      if (estimated && (model.year === undefined || model.line === undefined)) {
        issues.push(`${here} — un modèle aux prix estimés doit indiquer year et line`);
      }
    }
  }
  for (const series of brand.series) {
    if (modelSlugs.has(series.slug)) {
      issues.push(`${where(brand, series.name)} — slug de série identique à un slug de modèle : ${series.slug}`);
    }
  }
  return issues;
}

function toBrand(data: BrandData): Brand {
  return {
    slug: data.slug,
    name: data.name,
    title: data.title,
    description: data.description,
    family: data.family,
    path: data.path,
    series: data.series.map((series) => ({
      name: series.name,
      slug: series.slug,
      models: series.models.map((model) => ({
        name: model.name,
        slug: model.slug,
        year: model.year,
        line: model.line,
        foldable: model.foldable ?? false,
        repairs: pricedRepairs(model).flatMap((id) => {
          const euros = model.prices[id];
          return euros === undefined
            ? []
            : [{ id, label: REPAIR_LABELS[id], euros, estimate: resolveSource(data, model, id) === "estimate" }];
        }),
      })),
    })),
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * Validates raw brand data (parsed JSON of unknown shape) and returns the
 * brands in the given order, deeply frozen.
 *
 * Checks (the problems of all files are reported together; a file's
 * cross-field rules run once it passes its schema): the zod schemas of `./schema.ts` (strict
 * fields, ascii slugs, prices as positive whole euros); path =
 * `/services/<slug>-repair`; every non-console model has exactly its family's
 * repair types (§3) and every console model a non-empty subset of the console
 * types; `year` and `line` together, and required on any model with an
 * estimated price; `foldable` on phones only; unique brand slugs and paths,
 * model slugs unique across the whole catalogue, series slugs unique in their
 * brand and distinct from its model slugs.
 *
 * @throws {CatalogueError} listing every problem with its brand, series and model.
 */
export function loadCatalogue(raw: readonly unknown[]): readonly Brand[] {
  const issues: string[] = [];
  const parsed: BrandData[] = [];
  raw.forEach((input, index) => {
    const result = BrandSchema.safeParse(input);
    if (!result.success) {
      for (const issue of result.error.issues) {
        const message =
          issue.code === "unrecognized_keys" ? `champ(s) inconnu(s) : ${issue.keys.join(", ")}` : issue.message;
        issues.push(`${locate(input, index, issue.path)} : ${message}`);
      }
      return;
    }
    issues.push(...checkBrand(result.data));
    parsed.push(result.data);
  });

  const brandSlugs = new Set<string>();
  const paths = new Set<string>();
  const modelOwner = new Map<string, string>();
  for (const brand of parsed) {
    if (brandSlugs.has(brand.slug)) issues.push(`${where(brand)} — slug de marque en double`);
    brandSlugs.add(brand.slug);
    if (paths.has(brand.path)) issues.push(`${where(brand)} — path en double : ${brand.path}`);
    paths.add(brand.path);
    for (const series of brand.series) {
      for (const model of series.models) {
        const owner = modelOwner.get(model.slug);
        // Same-brand duplicates are already reported by checkBrand.
        if (owner !== undefined && owner !== brand.slug) {
          issues.push(`${where(brand, series.name, model)} — slug de modèle déjà utilisé par la marque « ${owner} »`);
        }
        if (owner === undefined) modelOwner.set(model.slug, brand.slug);
      }
    }
  }

  if (issues.length > 0) throw new CatalogueError(issues);
  return deepFreeze(parsed.map(toBrand));
}

/**
 * Every brand page, in the order of spec §2: the ten smartphone brands, the
 * nine tablet brands, then PlayStation, Xbox and Nintendo.
 */
export const brands: readonly Brand[] = loadCatalogue([
  iphone,
  samsung,
  xiaomi,
  google,
  huawei,
  oppo,
  realme,
  sony,
  honor,
  asus,
  acerTablet,
  ipad,
  asusTablet,
  huaweiTablet,
  surface,
  samsungTablet,
  sonyTablet,
  toshibaTablet,
  xiaomiTablet,
  playstation,
  xbox,
  nintendo,
]);

/** Brand cards of /services/smartphone-repair (spec §2), Apple first. */
export const smartphoneBrands: readonly Brand[] = brands.filter(
  (brand) => brand.family === "smartphone" || brand.family === "iphone",
);
/** Brand cards of /services/tablet-repair (spec §2). */
export const tabletBrands: readonly Brand[] = brands.filter((brand) => brand.family === "tablet");
/** Tiles of /services/console-repair (spec §2). */
export const consoleBrands: readonly Brand[] = brands.filter((brand) => brand.family === "console");

const bySlug = new Map(brands.map((brand) => [brand.slug, brand]));
const byPath = new Map(brands.map((brand) => [brand.path, brand]));

/** The brand with this slug (e.g. "samsung-tablet"), or `undefined`. */
export function getBrand(slug: string): Brand | undefined {
  return bySlug.get(slug);
}

/**
 * The brand whose page is at `path` (e.g. "/services/ipad-repair"), or
 * `undefined`. One trailing slash is tolerated.
 */
export function getBrandByPath(path: string): Brand | undefined {
  return byPath.get(path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path);
}

/** A model with the brand and series it belongs to. */
export type ModelEntry = { readonly brand: Brand; readonly series: Series; readonly model: Model };

const modelIndex = new Map(
  brands.flatMap((brand) =>
    brand.series.flatMap((series) =>
      series.models.map((model): [string, ModelEntry] => [model.slug, { brand, series, model }]),
    ),
  ),
);

/** A model by its catalogue-wide slug (e.g. "iphone-13-pro") with its brand and series, or `undefined`. */
export function getModel(slug: string): ModelEntry | undefined {
  return modelIndex.get(slug);
}

/** French label of a repair type, e.g. `repairTypeLabel("port-hdmi") === "Port HDMI"`. */
export function repairTypeLabel(id: RepairId): string {
  return REPAIR_LABELS[id];
}

let offers: readonly Offer[] | undefined;

/**
 * Every (model, repair) pair of the catalogue, in display order, for the
 * search index and the JSON-LD offers. Computed once, frozen.
 */
export function allOffers(): readonly Offer[] {
  offers ??= deepFreeze(
    brands.flatMap((brand) =>
      brand.series.flatMap((series) =>
        series.models.flatMap((model) =>
          model.repairs.map(
            (repair): Offer => ({
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
              href: `${brand.path}#${model.slug}`,
            }),
          ),
        ),
      ),
    ),
  );
  return offers;
}
