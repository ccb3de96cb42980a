/**
 * Issue 29, « Prices in the dashboard »: the « Tarifs » API, shared by the staff view
 * (`./prices-view.tsx`) and the server (`server/catalogue/api.ts`): paths, the zod schemas of the bodies
 * (French messages), the answers' shapes and the labels shown in the history.
 *
 * | method | path                                | who          | body / answer                         |
 * |--------|-------------------------------------|--------------|---------------------------------------|
 * | GET    | /api/catalogue/recherche            | anyone       | the finder's `SearchPayload` (ETag)   |
 * | GET    | /api/catalogue/tarifs               | `shop:manage`| `PricesView`                          |
 * | GET    | /api/catalogue/historique           | `shop:manage`| `{ entries: HistoryEntry[] }`         |
 * | PUT    | /api/catalogue/tarifs/prix          | `shop:manage`| `PriceEdit` → `EditAnswer`            |
 * | POST   | /api/catalogue/tarifs/modeles       | `shop:manage`| `ModelAddition` → `EditAnswer`        |
 * | POST   | /api/catalogue/tarifs/visibilite    | `shop:manage`| `VisibilityEdit` → `EditAnswer`       |
 *
 * Refusals are `{ message, fieldErrors? }` with a 4xx status. No run-time import beyond zod: the view's
 * chunk stays small. Units: whole euros (€).
 */
import { nameString } from "#app/utils/text.ts";
import { z } from "zod";
import type { Family, RepairId } from "./schema.ts";

export { CATALOGUE_PATHS } from "./api-paths.ts";

/** Highest price the form accepts (€): a typo guard; the catalogue's dearest repair is well under it. */
export const MAX_EUROS = 5000;

const slug = z
  .string({ error: "Identifiant manquant." })
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { error: "Identifiant invalide." })
  .max(80, { error: "Identifiant invalide." });
const euros = z
  .number({ error: "Indiquez un prix en euros." })
  .int({ error: "Le prix doit être un nombre entier d'euros." })
  .min(1, { error: "Le prix doit être d'au moins 1 €." })
  .max(MAX_EUROS, { error: `Le prix doit être d'au plus ${MAX_EUROS} €.` });

/** A repair's price and where it comes from (`estimate: false` = « prix de la boutique »). */
export const PriceEditSchema = z.strictObject({
  brand: slug,
  model: slug,
  repair: slug,
  euros,
  estimate: z.boolean({ error: "Précisez « prix de la boutique » ou « estimation »." }),
});
export type PriceEdit = z.infer<typeof PriceEditSchema>;

/** A new model at the end of a series, priced for each repair of `prices` (repair id → €). */
export const ModelAdditionSchema = z.strictObject({
  brand: slug,
  series: slug,
  // Issue 37 §7: the same string rules as every input, one line with no invisible character.
  name: nameString({ error: "Indiquez le nom du modèle." })
    .trim()
    .min(1, { error: "Indiquez le nom du modèle." })
    .max(80, { error: "Le nom du modèle est trop long (80 caractères au plus)." }),
  prices: z.record(slug, euros),
});
export type ModelAddition = z.infer<typeof ModelAdditionSchema>;

/** Hide a model from the public pages, the finder and the assistant, or show it again. */
export const VisibilityEditSchema = z.strictObject({
  brand: slug,
  model: slug,
  hidden: z.boolean({ error: "Précisez s'il faut masquer ou afficher le modèle." }),
});
export type VisibilityEdit = z.infer<typeof VisibilityEditSchema>;

/** One repair in the view. */
export type PricesRepair = { id: RepairId; label: string; euros: number; estimate: boolean };
/** One model in the view; hidden models are listed too. */
/**
 * One model in « Tarifs ». `estimable`: whether its prices may be marked « estimation » — only a model with a
 * release year and a product line (the seed's), whose estimates the catalogue checks against its generation;
 * a model added in « Tarifs » has shop prices only.
 */
export type PricesModel = { slug: string; name: string; hidden: boolean; estimable: boolean; repairs: PricesRepair[] };
/** One brand with its series, as `GET /api/catalogue/tarifs` gives it. */
export type PricesBrand = {
  slug: string;
  name: string;
  title: string;
  family: Family;
  path: string;
  series: { slug: string; name: string; models: PricesModel[] }[];
};
export type PricesView = { brands: PricesBrand[] };

/** What an entry of « Historique des modifications » says. */
export type HistoryEntry = {
  id: number;
  /** ISO 8601. */
  at: string;
  who: string;
  kind: "price" | "source" | "hide" | "show" | "add-model";
  brand: string;
  model: string;
  /** The repair's French label, or null for a whole-model change. */
  repair: string | null;
  oldValue: string | null;
  newValue: string | null;
};

/** A successful edit: a French sentence for the live region. */
export type EditAnswer = { message: string };

/** How a price source reads in the view and the history. */
export const SOURCE_LABELS = { shop: "prix de la boutique", estimate: "estimation" } as const;

/** French labels of the history's kinds of change. */
export const CHANGE_LABELS: Record<HistoryEntry["kind"], string> = {
  price: "Prix",
  source: "Origine du prix",
  hide: "Modèle masqué",
  show: "Modèle affiché",
  "add-model": "Modèle ajouté",
};

/** Fixed French messages of the API. */
export const CATALOGUE_MESSAGES = {
  failed: "Le catalogue n'a pas pu être enregistré. Réessayez dans un instant.",
  unknownModel: "Ce modèle n'existe pas dans cette marque.",
  unknownRepair: "Ce modèle n'a pas ce type de réparation.",
  unknownSeries: "Cette série n'existe pas dans cette marque.",
  unchanged: "Rien n'a changé.",
  // Issue 37 §7: compared without case or extra spaces.
  duplicateModel: "Un modèle de ce nom existe déjà dans cette marque.",
  // A model added in « Tarifs » has no generation (year, line) to check an estimate against (`PricesModel`).
  notEstimable: "Un modèle ajouté à l'atelier n'a que des prix de la boutique : choisissez « Prix de la boutique ».",
  tooMany: "Trop de modifications en peu de temps. Réessayez dans quelques minutes.",
} as const;
