/**
 * Issue 29, « Prices in the dashboard »: the catalogue's rows in the database (`database/schema-catalogue.ts`)
 * — reading every override, the version other processes poll, the history list — and the writes of one edit
 * with its history rows, in one transaction. No rule here: `./service.ts` validates before it writes.
 */
import { desc, sql } from "drizzle-orm";
import type { CatalogueOverrides } from "#app/catalogue/overrides.ts";
import type { AppDatabase } from "#database/connection.ts";
import {
  catalogueAddedModels,
  catalogueHiddenModels,
  catalogueHistory,
  cataloguePrices,
  type CatalogueChangeKind,
} from "#database/schema-catalogue.ts";

/** One history row to write (who is added by `writeEdit`). */
export type HistoryRow = {
  kind: CatalogueChangeKind;
  brandSlug: string;
  modelSlug: string;
  modelName: string;
  repairId: string | null;
  oldValue: string | null;
  newValue: string | null;
};

/** What one edit writes. */
export type EditWrite = {
  prices?: { brandSlug: string; modelSlug: string; repairId: string; euros: number; estimate: boolean }[];
  addModel?: { brandSlug: string; seriesSlug: string; slug: string; name: string };
  hide?: { brandSlug: string; modelSlug: string };
  show?: { brandSlug: string; modelSlug: string };
  history: HistoryRow[];
};

/** Every override, in a stable order (added models in the order they were added). */
export async function readOverrides(db: AppDatabase): Promise<CatalogueOverrides> {
  const [prices, addedModels, hidden] = await Promise.all([
    db.select().from(cataloguePrices),
    db.select().from(catalogueAddedModels).orderBy(catalogueAddedModels.createdAt, catalogueAddedModels.id),
    db.select().from(catalogueHiddenModels),
  ]);
  return { prices, addedModels, hidden };
}

/**
 * The catalogue's version: the last history id and the number of rows. Every edit adds history rows in its
 * own transaction, so this changes with each committed edit (the count catches an edit whose id was taken
 * before another's but committed after it); a purge changes it too, which only costs a reload.
 */
export async function readVersion(db: AppDatabase): Promise<string> {
  const result = (await db.execute(
    sql`select coalesce(max(id), 0)::text as last, count(*)::text as rows from catalogue_history`,
  )) as unknown as { rows: { last: string; rows: string }[] };
  const row = result.rows[0];
  return `${row?.last ?? "0"}.${row?.rows ?? "0"}`;
}

/** Writes `edit` and its history in one transaction, as `who`. */
export async function writeEdit(db: AppDatabase, who: { userId: string; name: string }, edit: EditWrite) {
  await db.transaction(async (tx) => {
    for (const price of edit.prices ?? []) {
      await tx
        .insert(cataloguePrices)
        .values({ ...price, updatedAt: new Date() })
        .onConflictDoUpdate({
          target: [cataloguePrices.brandSlug, cataloguePrices.modelSlug, cataloguePrices.repairId],
          set: { euros: price.euros, estimate: price.estimate, updatedAt: new Date() },
        });
    }
    if (edit.addModel) await tx.insert(catalogueAddedModels).values(edit.addModel);
    if (edit.hide) await tx.insert(catalogueHiddenModels).values(edit.hide).onConflictDoNothing();
    if (edit.show) {
      await tx
        .delete(catalogueHiddenModels)
        .where(
          sql`${catalogueHiddenModels.brandSlug} = ${edit.show.brandSlug} and ${catalogueHiddenModels.modelSlug} = ${edit.show.modelSlug}`,
        );
    }
    if (edit.history.length > 0) {
      await tx
        .insert(catalogueHistory)
        .values(edit.history.map((row) => ({ ...row, userId: who.userId, userName: who.name })));
    }
  });
}

/** The latest `limit` history rows, newest first. */
export async function readHistory(db: AppDatabase, limit: number) {
  return db.select().from(catalogueHistory).orderBy(desc(catalogueHistory.id)).limit(limit);
}
