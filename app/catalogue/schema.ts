/**
 * Shape of the repair catalogue data (spec "repair-catalogue" §3 and §9).
 *
 * This module is the vocabulary every catalogue file is checked against:
 * - the repair type ids and their French labels (one table, in display order);
 * - the product families and the repair types each one offers (§3);
 * - the zod schemas of one brand data file (`data/*.json`), all strict so a
 *   misspelt field is an error rather than silently ignored;
 * - the price ranges of §9 as constants, in whole euros (€), for the tests.
 *
 * Cross-file rules (a model has exactly its family's repair types, slugs are
 * unique, …) need the whole catalogue and live in `./validate.ts`.
 */
import { z } from "zod";

/**
 * Every repair type id, in the order repair types are displayed on a card.
 *
 * One global order is enough: the spec lists each console's repair types "in
 * order", and all those lists are sub-sequences of this one, so sorting by it
 * reproduces them without storing an order per model.
 */
export const REPAIR_IDS = [
  "ecran",
  "ecran-superieur",
  "ecran-inferieur",
  "batterie",
  "vitre-arriere",
  "connecteur",
  "connecteur-de-charge",
  "camera",
  "camera-avant",
  "camera-arriere",
  "lecteur-blu-ray",
  "lecteur-dvd",
  "lecteur-cd",
  "lecteur-disque",
  "port-hdmi",
  "port-av",
  "alimentation",
  "gamepad",
  "ventilateur",
  "disque-dur",
  "carte-memoire",
  "port-usb-c",
  "boutons",
  "joysticks",
  "joy-con",
  "carte-mere",
] as const;

/** A repair type id, e.g. `"ecran"` or `"lecteur-blu-ray"`. */
export type RepairId = (typeof REPAIR_IDS)[number];

/** French label shown to visitors for each repair type (spec §3). */
export const REPAIR_LABELS = {
  ecran: "Écran",
  "ecran-superieur": "Écran supérieur",
  "ecran-inferieur": "Écran inférieur",
  batterie: "Batterie",
  "vitre-arriere": "Vitre arrière",
  connecteur: "Connecteur",
  "connecteur-de-charge": "Connecteur de charge",
  camera: "Caméra",
  "camera-avant": "Caméra avant",
  "camera-arriere": "Caméra arrière",
  "lecteur-blu-ray": "Lecteur Blu-ray",
  "lecteur-dvd": "Lecteur DVD",
  "lecteur-cd": "Lecteur CD",
  "lecteur-disque": "Lecteur de disque",
  "port-hdmi": "Port HDMI",
  "port-av": "Port AV",
  alimentation: "Alimentation",
  gamepad: "GamePad",
  ventilateur: "Ventilateur",
  "disque-dur": "Disque dur",
  "carte-memoire": "Carte mémoire",
  "port-usb-c": "Port USB-C",
  boutons: "Boutons",
  joysticks: "Joysticks",
  "joy-con": "Joy-Con",
  "carte-mere": "Carte mère",
} as const satisfies Record<RepairId, string>;

/** Product families; `iphone` is apart because its repair list differs (§3). */
export const FAMILIES = ["smartphone", "iphone", "tablet", "console"] as const;
export type Family = (typeof FAMILIES)[number];

/**
 * Repair types of every model of a family, in display order (spec §3).
 * Consoles have no fixed list: each console model lists its own types, drawn
 * from `CONSOLE_REPAIR_IDS`.
 */
export const FAMILY_REPAIRS = {
  smartphone: ["ecran", "batterie", "vitre-arriere", "connecteur", "camera"],
  iphone: ["ecran", "batterie", "vitre-arriere", "connecteur-de-charge", "camera-avant", "camera-arriere"],
  tablet: ["ecran", "batterie", "connecteur", "camera"],
} as const satisfies Record<Exclude<Family, "console">, readonly RepairId[]>;

/**
 * Repair types a console model may list (spec §3, PlayStation, Xbox and
 * Nintendo tables), in display order: every type but those of phones and
 * tablets, screen and battery excepted (consoles have those too).
 */
export const CONSOLE_REPAIR_IDS: readonly RepairId[] = REPAIR_IDS.filter(
  (id) =>
    id === "ecran" ||
    id === "batterie" ||
    !Object.values(FAMILY_REPAIRS).some((ids: readonly RepairId[]) => ids.includes(id)),
);

/** The category pages that list brands (spec §2), in site order; the PC page lists none. */
export const CATEGORIES = ["smartphone", "tablet", "console"] as const;
export type Category = (typeof CATEGORIES)[number];

/** The category page of each family: iPhones are listed with the smartphones (spec §2). */
export const FAMILY_CATEGORY = {
  smartphone: "smartphone",
  iphone: "smartphone",
  tablet: "tablet",
  console: "console",
} as const satisfies Record<Family, Category>;

/** A category page's path, e.g. `categoryPath("tablet")` → "/services/tablet-repair" (spec §2 route table). */
export function categoryPath(category: Category): `/services/${Category}-repair` {
  return `/services/${category}-repair`;
}

/**
 * Where a price comes from: `shop` = given by the shop (the spec's tables and
 * samples); `estimate` = invented within the spec's ranges, for the shop to
 * confirm before it is relied upon.
 */
export const PRICE_SOURCES = ["shop", "estimate"] as const;
export type PriceSource = (typeof PRICE_SOURCES)[number];

/** An inclusive range of whole euros. */
export type EuroRange = { readonly min: number; readonly max: number };

/**
 * Price ranges of spec §9, inclusive, in whole euros. The smartphone ranges
 * also hold for iPhones; the tablet ranges hold across all tablet brands,
 * Toshiba and Xiaomi additionally within their own narrower ranges.
 */
export const SPEC_RANGES = {
  iphone: { ecran: { min: 49, max: 299 }, batterie: { min: 39, max: 69 } },
  smartphone: { ecran: { min: 49, max: 399 }, batterie: { min: 39, max: 89 } },
  tablet: {
    ecran: { min: 139, max: 599 },
    batterie: { min: 69, max: 129 },
    connecteur: { min: 59, max: 89 },
    camera: { min: 79, max: 129 },
  },
  toshibaTablet: {
    ecran: { min: 149, max: 199 },
    batterie: { min: 69, max: 79 },
    connecteur: { min: 59, max: 69 },
    camera: { min: 79, max: 89 },
  },
  xiaomiTablet: {
    ecran: { min: 149, max: 269 },
    batterie: { min: 69, max: 89 },
    connecteur: { min: 59, max: 69 },
    camera: { min: 79, max: 99 },
  },
} as const satisfies Record<string, Partial<Record<RepairId, EuroRange>>>;

/**
 * NOT FROM THE SPEC: §9 gives no range for phone rear glass, connectors and
 * cameras, so estimates for them are kept inside this sanity band (whole €)
 * to catch typos; replace it if the shop states real ranges.
 */
export const ASSUMED_PHONE_OTHER_RANGE: EuroRange = { min: 39, max: 199 };

/** URL-safe ascii slug, usable as a path segment or an HTML anchor. */
const SlugSchema = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { error: "doit être un slug ascii (a-z, 0-9, tirets), ex. iphone-13-pro" });

/** A price in whole euros (€), strictly positive. */
const EurosSchema = z
  .number({ error: "doit être un nombre d'euros" })
  .int({ error: "doit être un nombre entier d'euros" })
  .positive({ error: "doit être positif" });

/** A known repair type id; anything else is rejected. */
export const RepairIdSchema = z.enum(REPAIR_IDS, { error: "type de réparation inconnu" });
/** `"shop"` or `"estimate"` (see `PRICE_SOURCES`). */
export const PriceSourceSchema = z.enum(PRICE_SOURCES, { error: "doit valoir shop ou estimate" });

/**
 * One model: `prices` maps repair id → whole euros ("à partir de").
 * `priceSource` overrides the brand's source for the whole model (a string)
 * or per repair (an object, e.g. `{ "ecran": "shop" }`), so the shop can
 * confirm estimates one price at a time.
 * `year` (release year) and `line` (product line within the brand, e.g.
 * `pro-max`) order estimated models by generation: within a line a newer
 * model must not be cheaper.
 */
export const ModelSchema = z.strictObject({
  name: z.string().trim().min(1),
  slug: SlugSchema,
  year: z.int().min(1990).max(2100).optional(),
  line: SlugSchema.optional(),
  foldable: z.boolean().optional(),
  priceSource: z.union([PriceSourceSchema, z.partialRecord(RepairIdSchema, PriceSourceSchema)]).optional(),
  prices: z.partialRecord(RepairIdSchema, EurosSchema),
});

/** A series (or iPhone generation row, or console generation) with its models in display order. */
export const SeriesSchema = z.strictObject({
  name: z.string().trim().min(1),
  slug: SlugSchema,
  models: z.array(ModelSchema).min(1),
});

/**
 * One brand data file. `name` is the brand card label of spec §2 ("Apple",
 * "iPad", "PlayStation"…), `path` its page (`/services/<slug>-repair`),
 * `priceSource` the default source of all its prices.
 *
 * The category page's meta title and description name its brands (issue 14):
 * `metaName` is how they name this one when the card label will not do
 * ("iPhone" for the Apple card); brands with a `metaRank` come first there,
 * lowest rank first (the best known, so a cut search snippet still shows
 * them), the others follow in page order.
 *
 * `generations` is the line under a console's tile on the console hub,
 * verbatim from spec §2 (e.g. "PS5, PS4, PS3, PS2, PS1"); consoles only,
 * and required for them.
 */
export const BrandSchema = z.strictObject({
  slug: SlugSchema,
  name: z.string().trim().min(1),
  title: z.string().trim().min(1),
  description: z.string().trim().min(1),
  family: z.enum(FAMILIES),
  path: z.string().regex(/^\/services\/[a-z0-9-]+-repair$/, { error: "doit être de la forme /services/<slug>-repair" }),
  metaName: z.string().trim().min(1).optional(),
  metaRank: z.int().positive().optional(),
  generations: z.string().trim().min(1).optional(),
  priceSource: PriceSourceSchema,
  series: z.array(SeriesSchema).min(1),
});

/** A brand data file after zod parsing (before the cross-file checks of `./validate.ts`). */
export type BrandData = z.output<typeof BrandSchema>;
/** One model of a brand data file, after zod parsing. */
export type ModelData = z.output<typeof ModelSchema>;

/**
 * `data/brands.json`: the brand slugs in the order of spec §2, each naming
 * its file `data/<slug>.json` (see `./data.ts`). `$comment` says so to
 * whoever opens the file.
 */
export const ManifestSchema = z.strictObject({
  $comment: z.string().optional(),
  brands: z.array(SlugSchema).min(1),
});
