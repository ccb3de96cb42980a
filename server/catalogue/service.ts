/**
 * Issue 29, « Prices in the dashboard »: the repair catalogue at run time (docs/decisions/026).
 *
 * The JSON files (`app/catalogue/data/*.json`) stay the seed; the staff's edits are rows laid over it
 * (`./store.ts`); `applyOverrides` validates the result with the catalogue loader's own rules. The service
 * keeps the result in memory: `current()` is synchronous, for the pages' router context, the finder's index,
 * the assistant and the booking form.
 *
 * An edit (`setPrice`, `addModel`, `setVisibility`) is checked on a fresh read of the rows with the edit
 * applied: a bad one is refused with a French 4xx message (the loader's lines) and never stored. A good
 * one is written with its history rows in one transaction, the catalogue is read again and the pages whose
 * content changed (the brand page and its category page) are announced to `pageChanges`, which renders
 * them again (server/page-cache.ts). Other server processes learn of it by polling the version
 * (`readVersion`) every `pollIntervalMs` (2 s), and announce it to their own page cache the same way.
 * Edits of one process run one at a time.
 *
 * Logs carry user ids and slugs, never prices.
 */
import { createHash } from "node:crypto";
import type { Logger } from "pino";
import { createCatalogue, type Catalogue } from "#app/catalogue/catalogue.ts";
import { readBrandFiles } from "#app/catalogue/data.ts";
import { formatPrice } from "#app/catalogue/format.ts";
import { applyOverrides, type CatalogueOverrides, type EditedCatalogue } from "#app/catalogue/overrides.ts";
import { categoryPath, RepairIdSchema, REPAIR_LABELS } from "#app/catalogue/schema.ts";
import { buildModelDocuments, buildSearchPayload } from "#app/catalogue/search.ts";
import type { Brand, Model } from "#app/catalogue/shapes.ts";
import { CatalogueError } from "#app/catalogue/validate.ts";
import {
  CATALOGUE_MESSAGES,
  ModelAdditionSchema,
  PriceEditSchema,
  SOURCE_LABELS,
  VisibilityEditSchema,
  type HistoryEntry,
  type PricesView,
} from "#app/catalogue/prices-protocol.ts";
import type { AppDatabase } from "#database/connection.ts";
import type { PageChanges } from "#server/page-changes.ts";
import { readHistory, readOverrides, readVersion, writeEdit, type EditWrite } from "./store.ts";
import { editRefusal, fieldErrorsOf, mergeEdit, slugFor, type EditOutcome } from "./edits.ts";

export type { EditOutcome } from "./edits.ts";

/** Who edits: the staff member's user id and name (kept in the history as they were). */
export type Editor = { userId: string; name: string };

export type CatalogueService = {
  /** The catalogue visitors see now (hidden models left out). Synchronous: read from memory. */
  current(): Catalogue;
  /** The finder's index of `current()` as JSON, with a strong ETag (computed once per version). */
  searchIndex(): { body: string; etag: string };
  /** Every brand, model (hidden ones flagged) and price, for the « Tarifs » view. */
  pricesView(): PricesView;
  /** « Historique des modifications », newest first (at most `limit`, default 100). @throws on a database error. */
  history(limit?: number): Promise<HistoryEntry[]>;
  /** A repair's price (€) and « prix de la boutique » / « estimation ». `input` is untrusted. Never throws. */
  setPrice(editor: Editor, input: unknown): Promise<EditOutcome>;
  /** A new model at the end of a series, priced for each of its repairs. Never throws. */
  addModel(editor: Editor, input: unknown): Promise<EditOutcome>;
  /** Hides a model from visitors, or shows it again. Never throws. */
  setVisibility(editor: Editor, input: unknown): Promise<EditOutcome>;
  /** Reads the version now and reloads if another process changed it (what the timer does). Never throws. */
  poll(): Promise<void>;
  /** Starts polling every `pollIntervalMs` (unref'd timer). */
  start(): void;
  /** Stops polling and waits for an edit or poll in progress. */
  stop(): Promise<void>;
};

export type CatalogueServiceOptions = {
  db: AppDatabase;
  logger: Logger;
  /** Told which pages to render again after each change (this process's or another's). */
  pageChanges?: PageChanges;
  /** Between two version checks, ms (default 2000). */
  pollIntervalMs?: number;
  /** The brand files (default the JSON data files: `readBrandFiles()`); tests give their own. */
  seed?: readonly unknown[];
};

type State = { edited: EditedCatalogue; catalogue: Catalogue; version: string; index?: { body: string; etag: string } };

/** The page paths whose content differs between two brand lists: each changed brand's page and its category page. */
export function changedPaths(before: readonly Brand[], after: readonly Brand[]): string[] {
  const old = new Map(before.map((brand) => [brand.slug, JSON.stringify(brand)]));
  const paths = new Set<string>();
  for (const brand of after) {
    if (old.get(brand.slug) === JSON.stringify(brand)) continue;
    paths.add(brand.path);
    paths.add(categoryPath(brand.category));
  }
  return [...paths];
}

function modelIn(brand: Brand, slug: string): { model: Model; seriesSlug: string } | undefined {
  for (const series of brand.series) {
    const model = series.models.find((candidate) => candidate.slug === slug);
    if (model) return { model, seriesSlug: series.slug };
  }
  return undefined;
}

/**
 * Loads the seed and the stored edits, and returns the service (polling stopped: call `start()`).
 * @throws {CatalogueError} when the seed itself is invalid; a database error when the rows cannot be read.
 */
export async function createCatalogueService(options: CatalogueServiceOptions): Promise<CatalogueService> {
  const { db, logger } = options;
  const seed = options.seed ?? (await readBrandFiles());
  const pollIntervalMs = options.pollIntervalMs ?? 2000;

  async function read(): Promise<State> {
    // The version first: an edit committed between the two reads is then read again at the next poll.
    const version = await readVersion(db);
    const overrides = await readOverrides(db);
    let edited: EditedCatalogue;
    try {
      edited = applyOverrides(seed, overrides);
    } catch (error) {
      // Stored edits that the seed no longer accepts (the JSON changed since): the seed alone, loudly.
      if (!(error instanceof CatalogueError)) throw error;
      logger.error({ issues: error.issues }, "catalogue : modifications enregistrées refusées, tarifs du fichier");
      edited = applyOverrides(seed, { prices: [], addedModels: [], hidden: [] });
    }
    if (edited.stale.length > 0) logger.warn({ stale: edited.stale }, "catalogue : modifications sans objet ignorées");
    return { edited, catalogue: createCatalogue(edited.visible), version };
  }

  let state = await read();
  let queue: Promise<unknown> = Promise.resolve();
  /** One edit or reload at a time in this process. */
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };

  /** Reads everything again; announces the pages that changed. */
  async function reload(): Promise<void> {
    const before = state.edited.visible;
    state = await read();
    const paths = changedPaths(before, state.edited.visible);
    if (paths.length > 0) options.pageChanges?.changed(paths);
  }

  /**
   * The common path of the three edits: `plan` decides what to write from the current catalogue (or
   * refuses); the edit is then applied to a fresh read of the rows and validated before anything is written.
   */
  function edit(
    editor: Editor,
    kind: string,
    plan: (edited: EditedCatalogue) => { write: EditWrite; message: string } | EditOutcome,
  ): Promise<EditOutcome> {
    return serial(async () => {
      try {
        const overrides: CatalogueOverrides = await readOverrides(db);
        const planned = plan(applyOverrides(seed, overrides));
        if ("ok" in planned) return planned;
        try {
          applyOverrides(seed, mergeEdit(overrides, planned.write));
        } catch (error) {
          if (error instanceof CatalogueError) return editRefusal(error);
          throw error;
        }
        await writeEdit(db, editor, planned.write);
        logger.info({ userId: editor.userId, kind }, "catalogue : modification enregistrée");
        await reload();
        return { ok: true, message: planned.message };
      } catch (error) {
        logger.error({ err: error, userId: editor.userId, kind }, "catalogue : modification non enregistrée");
        return { ok: false, status: 500, message: CATALOGUE_MESSAGES.failed };
      }
    });
  }

  const notFound = (message: string): EditOutcome => ({ ok: false, status: 404, message });

  let timer: NodeJS.Timeout | undefined;
  let polling: Promise<void> | undefined;
  async function poll(): Promise<void> {
    polling ??= serial(async () => {
      try {
        if ((await readVersion(db)) !== state.version) await reload();
      } catch (error) {
        logger.error({ err: error }, "catalogue : version illisible, nouvel essai au prochain passage");
      }
    }).finally(() => (polling = undefined));
    return polling;
  }

  return {
    current: () => state.catalogue,

    searchIndex() {
      if (!state.index) {
        const body = JSON.stringify(buildSearchPayload(buildModelDocuments(state.edited.visible)));
        state.index = { body, etag: `"${createHash("sha1").update(body).digest("base64url")}"` };
      }
      return state.index;
    },

    pricesView() {
      const { all, hidden } = state.edited;
      return {
        brands: all.map((brand) => ({
          slug: brand.slug,
          name: brand.name,
          title: brand.title,
          family: brand.family,
          path: brand.path,
          series: brand.series.map((series) => ({
            slug: series.slug,
            name: series.name,
            models: series.models.map((model) => ({
              slug: model.slug,
              name: model.name,
              hidden: hidden.has(model.slug),
              estimable: model.year !== undefined && model.line !== undefined,
              repairs: model.repairs.map(({ id, label, euros, estimate }) => ({ id, label, euros, estimate })),
            })),
          })),
        })),
      };
    },

    async history(limit = 100) {
      const names = new Map(state.edited.all.map((brand) => [brand.slug, brand.name]));
      const shown = (kind: string, value: string | null) => {
        if (value === null) return null;
        if (kind === "price") return formatPrice(Number(value)).replace(/^à partir de /, "");
        if (kind === "source") return value === "shop" || value === "estimate" ? SOURCE_LABELS[value] : value;
        return value;
      };
      return (await readHistory(db, limit)).map((row) => {
        const repair = RepairIdSchema.safeParse(row.repairId);
        return {
          id: row.id,
          at: row.changedAt.toISOString(),
          who: row.userName,
          kind: row.kind,
          brand: names.get(row.brandSlug) ?? row.brandSlug,
          model: row.modelName,
          repair: repair.success ? REPAIR_LABELS[repair.data] : null,
          oldValue: shown(row.kind, row.oldValue),
          newValue: shown(row.kind, row.newValue),
        };
      });
    },

    async setPrice(editor, input) {
      const parsed = PriceEditSchema.safeParse(input);
      if (!parsed.success) return fieldErrorsOf(parsed.error);
      const { brand: brandSlug, model: modelSlug, repair: repairId, euros, estimate } = parsed.data;
      return edit(editor, "price", ({ all }) => {
        const brand = all.find((candidate) => candidate.slug === brandSlug);
        const found = brand && modelIn(brand, modelSlug);
        if (!brand || !found) return notFound(CATALOGUE_MESSAGES.unknownModel);
        const repair = found.model.repairs.find((candidate) => candidate.id === repairId);
        if (!repair) return { ok: false, status: 400, message: CATALOGUE_MESSAGES.unknownRepair };
        if (estimate && !repair.estimate && (found.model.year === undefined || found.model.line === undefined)) {
          return { ok: false, status: 400, message: CATALOGUE_MESSAGES.notEstimable };
        }
        const base = { brandSlug, modelSlug, modelName: found.model.name, repairId };
        const history: EditWrite["history"] = [];
        if (repair.euros !== euros) {
          history.push({ ...base, kind: "price", oldValue: String(repair.euros), newValue: String(euros) });
        }
        if (repair.estimate !== estimate) {
          const source = (value: boolean) => (value ? "estimate" : "shop");
          history.push({ ...base, kind: "source", oldValue: source(repair.estimate), newValue: source(estimate) });
        }
        if (history.length === 0) return { ok: true, message: CATALOGUE_MESSAGES.unchanged };
        return {
          write: { prices: [{ brandSlug, modelSlug, repairId, euros, estimate }], history },
          message: `Prix enregistré : ${found.model.name}, ${repair.label} ${formatPrice(euros)} (${SOURCE_LABELS[estimate ? "estimate" : "shop"]}).`,
        };
      });
    },

    async addModel(editor, input) {
      const parsed = ModelAdditionSchema.safeParse(input);
      if (!parsed.success) return fieldErrorsOf(parsed.error);
      const { brand: brandSlug, series: seriesSlug, name, prices } = parsed.data;
      const repairIds = Object.keys(prices);
      if (repairIds.length === 0 || repairIds.some((id) => !RepairIdSchema.safeParse(id).success)) {
        return { ok: false, status: 400, message: CATALOGUE_MESSAGES.unknownRepair };
      }
      return edit(editor, "add-model", ({ all }) => {
        const brand = all.find((candidate) => candidate.slug === brandSlug);
        if (!brand) return notFound(CATALOGUE_MESSAGES.unknownModel);
        if (!brand.series.some((series) => series.slug === seriesSlug)) {
          return notFound(CATALOGUE_MESSAGES.unknownSeries);
        }
        // Issue 37 §7: one name per brand whatever its case or spacing (the assistant listed two « iPhone 8 »).
        const key = (text: string) => text.normalize("NFC").replace(/\s+/gu, " ").trim().toLocaleLowerCase("fr");
        const models = brand.series.flatMap((series) => series.models);
        if (models.some((model) => key(model.name) === key(name))) {
          return { ok: false, status: 409, message: CATALOGUE_MESSAGES.duplicateModel };
        }
        const slug = slugFor(name, brand.slug, all);
        if (!slug) return { ok: false, status: 400, message: "Un modèle de ce nom existe déjà dans le catalogue." };
        const summary = repairIds
          .map((id) => {
            const label = RepairIdSchema.safeParse(id);
            return `${label.success ? REPAIR_LABELS[label.data] : id} ${prices[id]} €`;
          })
          .join(", ");
        return {
          write: {
            addModel: { brandSlug, seriesSlug, slug, name },
            prices: repairIds.map((repairId) => ({
              brandSlug,
              modelSlug: slug,
              repairId,
              euros: prices[repairId]!,
              estimate: false,
            })),
            history: [
              {
                kind: "add-model",
                brandSlug,
                modelSlug: slug,
                modelName: name,
                repairId: null,
                oldValue: null,
                newValue: summary,
              },
            ],
          },
          message: `Modèle ajouté : ${name} (${brand.name}).`,
        };
      });
    },

    async setVisibility(editor, input) {
      const parsed = VisibilityEditSchema.safeParse(input);
      if (!parsed.success) return fieldErrorsOf(parsed.error);
      const { brand: brandSlug, model: modelSlug, hidden } = parsed.data;
      return edit(editor, hidden ? "hide" : "show", ({ all, hidden: hiddenNow }) => {
        const brand = all.find((candidate) => candidate.slug === brandSlug);
        const found = brand && modelIn(brand, modelSlug);
        if (!brand || !found) return notFound(CATALOGUE_MESSAGES.unknownModel);
        if (hiddenNow.has(modelSlug) === hidden) return { ok: true, message: CATALOGUE_MESSAGES.unchanged };
        const row = { brandSlug, modelSlug };
        return {
          write: {
            ...(hidden ? { hide: row } : { show: row }),
            history: [
              {
                kind: hidden ? "hide" : "show",
                ...row,
                modelName: found.model.name,
                repairId: null,
                oldValue: null,
                newValue: null,
              },
            ],
          },
          message: hidden
            ? `${found.model.name} est masqué : il n'apparaît plus sur le site.`
            : `${found.model.name} est de nouveau affiché sur le site.`,
        };
      });
    },

    poll,

    start() {
      if (timer) return;
      timer = setInterval(() => void poll(), pollIntervalMs);
      timer.unref();
    },

    async stop() {
      clearInterval(timer);
      timer = undefined;
      await queue;
    },
  };
}
