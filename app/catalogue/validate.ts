/**
 * Loading and validation of the repair catalogue data (spec "repair-catalogue"
 * §2, §3, §9): raw brand files of unknown shape in, frozen `Brand`s out.
 *
 * Every file is checked with the zod schemas of `./schema.ts` and with the
 * cross-file rules below; any violation throws a `CatalogueError` naming the
 * brand and model, so bad data fails the build and the tests instead of
 * reaching a page. No value from the JSON is ever cast.
 *
 * Pure: `loadCatalogue` reads no file (that is `./data.ts`), so tests can feed
 * it edited or extra brands.
 */
import {
  BrandSchema,
  CONSOLE_REPAIR_IDS,
  FAMILY_CATEGORY,
  FAMILY_REPAIRS,
  REPAIR_IDS,
  REPAIR_LABELS,
  type BrandData,
  type ModelData,
  type PriceSource,
  type RepairId,
} from "./schema.ts";
import { mapSeries, type Brand } from "./shapes.ts";

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

/** Reads `value[key]` from data of unknown shape without casting; `undefined` when absent. */
export function at(value: unknown, key: PropertyKey): unknown {
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
  if ((brand.generations === undefined) !== (brand.family !== "console")) {
    issues.push(
      `${where(brand)} — generations : ${brand.family === "console" ? "requis pour une console" : "réservé aux consoles"}`,
    );
  }
  if (brand.path !== `/services/${brand.slug}-repair`) {
    issues.push(`${where(brand)} — path : doit valoir /services/${brand.slug}-repair (reçu ${brand.path})`);
  }
  const seriesSlugs = new Set<string>();
  const modelSlugs = new Set<string>();
  for (const series of brand.series) {
    if (seriesSlugs.has(series.slug))
      issues.push(`${where(brand, series.name)} — slug de série en double : ${series.slug}`);
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
        if (foreign.length > 0)
          issues.push(`${here} — prices : types non prévus pour une console : ${foreign.join(", ")}`);
      } else {
        const expected: readonly RepairId[] = FAMILY_REPAIRS[brand.family];
        const missing = expected.filter((id) => !priced.includes(id));
        const extra = priced.filter((id) => !expected.includes(id));
        if (missing.length > 0) issues.push(`${here} — prices : types de réparation manquants : ${missing.join(", ")}`);
        if (extra.length > 0) {
          issues.push(
            `${here} — prices : types de réparation en trop pour la famille ${brand.family} : ${extra.join(", ")}`,
          );
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
    category: FAMILY_CATEGORY[data.family],
    path: data.path,
    metaName: data.metaName ?? data.name,
    metaRank: data.metaRank,
    generations: data.generations,
    series: mapSeries(data.series, (model) => ({
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
  };
}

/** Freezes `value` and everything it holds, so no caller can edit the shared catalogue. */
export function deepFreeze<T>(value: T): T {
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
 * estimated price; `foldable` on phones only; `generations` on consoles
 * and on them only; unique brand slugs and paths,
 * model slugs unique across the whole catalogue, series slugs unique in their
 * brand and distinct from its model slugs; `metaRank` unique within a
 * category page.
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
  const metaRanks = new Set<string>();
  const modelOwner = new Map<string, string>();
  for (const brand of parsed) {
    if (brandSlugs.has(brand.slug)) issues.push(`${where(brand)} — slug de marque en double`);
    brandSlugs.add(brand.slug);
    if (paths.has(brand.path)) issues.push(`${where(brand)} — path en double : ${brand.path}`);
    paths.add(brand.path);
    if (brand.metaRank !== undefined) {
      const rank = `${FAMILY_CATEGORY[brand.family]} ${brand.metaRank}`;
      if (metaRanks.has(rank)) issues.push(`${where(brand)} — metaRank ${brand.metaRank} déjà pris dans sa catégorie`);
      metaRanks.add(rank);
    }
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
