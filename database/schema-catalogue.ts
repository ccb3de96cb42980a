/**
 * Issue 29, « Prices in the dashboard »: the staff's edits of the repair catalogue, stored as overrides on
 * top of the JSON seed (`app/catalogue/data/*.json`), never as a copy of it, so a fresh install (no rows) is
 * exactly the JSON, i.e. the spec's tables (docs/decisions/026). Read by drizzle-kit beside `schema.ts`
 * (`drizzle.config.ts`); migration 0021. The rules (validation with the catalogue loader's, history, page
 * refresh) live in `server/catalogue/service.ts`.
 *
 * Units: prices are whole euros (€), minimums ("à partir de").
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./schema.ts";

const at = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * One repair's price as the staff set it, replacing the seed's (or an added model's first price). `estimate`
 * false is « prix de la boutique ». Keyed by the brand too, so an edit never lands on another brand's model.
 */
export const cataloguePrices = pgTable(
  "catalogue_prices",
  {
    brandSlug: text("brand_slug").notNull(),
    modelSlug: text("model_slug").notNull(),
    repairId: text("repair_id").notNull(),
    /** Whole euros. */
    euros: integer("euros").notNull(),
    estimate: boolean("estimate").notNull(),
    updatedAt: at("updated_at").notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.brandSlug, table.modelSlug, table.repairId] }),
    check("catalogue_prices_euros_check", sql`${table.euros} > 0`),
  ],
);

/** A model the staff added to a brand's series (its prices are rows of `catalogue_prices`). */
export const catalogueAddedModels = pgTable("catalogue_added_models", {
  id: uuid("id").primaryKey().defaultRandom(),
  brandSlug: text("brand_slug").notNull(),
  seriesSlug: text("series_slug").notNull(),
  /** Catalogue-wide unique (the loader checks it against the seed's models too). */
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  createdAt: at("created_at").notNull().defaultNow(),
});

/** A model (seed or added) hidden from the public pages, the finder and the assistant; shown again by deleting the row. */
export const catalogueHiddenModels = pgTable(
  "catalogue_hidden_models",
  {
    brandSlug: text("brand_slug").notNull(),
    modelSlug: text("model_slug").notNull(),
    hiddenAt: at("hidden_at").notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.brandSlug, table.modelSlug] })],
);

/** What an entry of the history records. */
export const CATALOGUE_CHANGE_KINDS = ["price", "source", "hide", "show", "add-model"] as const;
export type CatalogueChangeKind = (typeof CATALOGUE_CHANGE_KINDS)[number];

/**
 * « Historique des modifications »: who (user id, and their name at the time, kept if the account goes), what,
 * old → new (as shown: "149", "prix de la boutique"), when. Deleted 3 years after `changed_at` by the retention
 * job (`server/retention.ts`, `priceHistory`). Each edit adds rows in its own transaction, so `max(id)` with
 * `count(*)` is the catalogue's version other server processes poll (`server/catalogue/service.ts`).
 */
export const catalogueHistory = pgTable(
  "catalogue_history",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    changedAt: at("changed_at").notNull().defaultNow(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    userName: text("user_name").notNull(),
    kind: text("kind", { enum: CATALOGUE_CHANGE_KINDS }).notNull(),
    brandSlug: text("brand_slug").notNull(),
    modelSlug: text("model_slug").notNull(),
    /** The model's name at the time, for the list. */
    modelName: text("model_name").notNull(),
    /** Null for a whole-model change (hide, show, add). */
    repairId: text("repair_id"),
    oldValue: text("old_value"),
    newValue: text("new_value"),
  },
  (table) => [
    index("catalogue_history_changed_at_idx").on(table.changedAt),
    check("catalogue_history_kind_check", sql`${table.kind} in ('price', 'source', 'hide', 'show', 'add-model')`),
  ],
);
