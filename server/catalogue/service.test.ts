/**
 * Issue 29, « Prices in the dashboard »: the catalogue service on a real database (PGlite). A fresh install
 * is exactly the JSON seed; a price edit is validated with the loader's rules, stored with its history and
 * announced for the brand and category pages; a bad edit is refused in French and stores nothing; models can
 * be hidden, shown and added; a second server process sees a change at its next poll; the finder's index
 * and the assistant follow; the retention job deletes history older than 3 years.
 */
import { sql } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brands as seedBrands, formatPrice } from "#app/catalogue/index.ts";
import { CATALOGUE_MESSAGES } from "#app/catalogue/prices-protocol.ts";
import { users } from "#database/schema.ts";
import { lookupRepairPrice } from "#server/assistant/knowledge.ts";
import { offlineAnswer } from "#server/assistant/offline.ts";
import { createPageChanges } from "#server/page-changes.ts";
import { purgeExpired } from "#server/retention.ts";
import { openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import { createCatalogueService, type CatalogueService } from "./service.ts";

const logger = pino({ level: "silent" });
const EDITOR = { userId: "u-gerant", name: "Sam Gérant" };
let database: TestDatabase;
let service: CatalogueService;
const announced: (readonly string[] | undefined)[] = [];

const historyCount = async () =>
  Number(
    (
      (await database.db.execute(sql`select count(*)::int as n from catalogue_history`)) as unknown as {
        rows: { n: number }[];
      }
    ).rows[0]!.n,
  );

beforeAll(async () => {
  database = await openTestDatabase("pglite");
  await database.db.insert(users).values({ id: EDITOR.userId, name: EDITOR.name, email: "gerant@exemple.fr" });
  const pageChanges = createPageChanges();
  pageChanges.subscribe((paths) => announced.push(paths));
  service = await createCatalogueService({ db: database.db, logger, pageChanges });
}, 60_000);

afterAll(async () => {
  await service?.stop();
  await database?.dispose();
});

describe("catalogue service", () => {
  it("is exactly the JSON seed on a fresh install (the spec's tables)", () => {
    expect(service.current().brands).toEqual(seedBrands);
    expect(service.pricesView().brands.every((b) => b.series.every((s) => s.models.every((m) => !m.hidden)))).toBe(
      true,
    );
  });

  it("stores a valid price edit with its history, and announces the brand and category pages", async () => {
    const before = service
      .current()
      .getModel("iphone-13")!
      .model.repairs.find((r) => r.id === "ecran")!;
    const etag = service.searchIndex().etag;
    const outcome = await service.setPrice(EDITOR, {
      brand: "iphone",
      model: "iphone-13",
      repair: "ecran",
      euros: before.euros + 10,
      estimate: false,
    });
    expect(outcome).toMatchObject({ ok: true });
    const after = service
      .current()
      .getModel("iphone-13")!
      .model.repairs.find((r) => r.id === "ecran")!;
    expect(after).toMatchObject({ euros: before.euros + 10, estimate: false });
    expect(announced.at(-1)).toEqual(["/services/iphone-repair", "/services/smartphone-repair"]);
    // The finder's index and the assistant quote the new price.
    expect(service.searchIndex().etag).not.toBe(etag);
    const lookup = lookupRepairPrice("écran iPhone 13", service.current().brands);
    expect(lookup.kind === "found" && lookup.model.repairs[0]!.euros).toBe(before.euros + 10);
    expect(offlineAnswer("Combien pour l'écran d'un iPhone 13 ?", service.current().brands)).toContain(
      formatPrice(before.euros + 10),
    );
    // The seed's price was an estimate: two history rows, the price and its source.
    const entries = (await service.history()).slice(0, 2);
    expect(entries.map((e) => e.kind).sort()).toEqual(["price", "source"]);
    expect(entries.find((e) => e.kind === "source")).toMatchObject({
      oldValue: "estimation",
      newValue: "prix de la boutique",
    });
    const entry = entries.find((e) => e.kind === "price");
    expect(entry).toMatchObject({ who: "Sam Gérant", brand: "Apple", model: "iPhone 13" });
    expect(entry!.repair).toBe("Écran");
    expect(entry!.newValue).toBe(formatPrice(before.euros + 10).replace("à partir de ", ""));
  });

  it("refuses bad edits in French and stores nothing", async () => {
    const count = await historyCount();
    const base = { brand: "iphone", model: "iphone-13", repair: "ecran", estimate: false };
    const zero = await service.setPrice(EDITOR, { ...base, euros: 0 });
    expect(zero).toMatchObject({ ok: false, status: 400, fieldErrors: { euros: "Le prix doit être d'au moins 1 €." } });
    expect(await service.setPrice(EDITOR, { ...base, euros: 12.5 })).toMatchObject({ ok: false, status: 400 });
    expect(await service.setPrice(EDITOR, { ...base, euros: "149" })).toMatchObject({ ok: false, status: 400 });
    expect(await service.setPrice(EDITOR, { ...base, model: "iphone-99", euros: 100 })).toMatchObject({
      ok: false,
      status: 404,
      message: "Ce modèle n'existe pas dans cette marque.",
    });
    expect(await service.setPrice(EDITOR, { ...base, brand: "samsung", euros: 100 })).toMatchObject({ status: 404 });
    expect(await service.setPrice(EDITOR, { ...base, repair: "lecteur-blu-ray", euros: 100 })).toMatchObject({
      status: 400,
    });
    expect(await service.setPrice(EDITOR, null)).toMatchObject({ ok: false, status: 400 });
    expect(await historyCount()).toBe(count);
  });

  it("adds a model (prix de la boutique), refuses what the loader refuses, and hides and shows it", async () => {
    const added = await service.addModel(EDITOR, {
      brand: "toshiba-tablet",
      series: "serie-excite",
      name: "Excite Go",
      prices: { ecran: 149, batterie: 69, connecteur: 59, camera: 79 },
    });
    expect(added).toEqual({ ok: true, message: "Modèle ajouté : Excite Go (Toshiba)." });
    const entry = service.current().getModel("excite-go")!;
    expect(entry.series.name).toBe("Série Excite");
    expect(entry.model.repairs.map((r) => [r.id, r.euros, r.estimate])).toEqual([
      ["ecran", 149, false],
      ["batterie", 69, false],
      ["connecteur", 59, false],
      ["camera", 79, false],
    ]);
    // A tablet needs its four repair types (the loader's rule), and an estimate needs year and line.
    const missing = await service.addModel(EDITOR, {
      brand: "toshiba-tablet",
      series: "serie-excite",
      name: "Excite Mini",
      prices: { ecran: 149 },
    });
    expect(missing).toMatchObject({ ok: false, status: 400 });
    expect(!missing.ok && missing.message).toMatch(/^Modification refusée : .*types de réparation manquants/);
    // Issue 37 §7: the same name in another case or spacing, and names with a NUL, a line break, a C1 control
    // or a direction override: refused in French (no 500), nothing added.
    const prices = { ecran: 149, batterie: 69, connecteur: 59, camera: 79 };
    const twin = await service.addModel(EDITOR, {
      brand: "toshiba-tablet",
      series: "serie-excite",
      name: " excite  GO ",
      prices,
    });
    expect(twin).toEqual({ ok: false, status: 409, message: CATALOGUE_MESSAGES.duplicateModel });
    for (const name of [
      "Excite\u0000X",
      "Excite\nX",
      "Excite\u0085X",
      "Excite\u202EX",
      "Excite\uD800X",
      "Excite\u200BX",
    ]) {
      const refused = await service.addModel(EDITOR, { brand: "toshiba-tablet", series: "serie-excite", name, prices });
      expect(refused, JSON.stringify(name)).toMatchObject({ ok: false, status: 400 });
    }
    expect(service.current().getModel("excite-x")).toBeUndefined();
    const estimate = await service.setPrice(EDITOR, {
      brand: "toshiba-tablet",
      model: "excite-go",
      repair: "ecran",
      euros: 149,
      estimate: true,
    });
    expect(estimate).toEqual({ ok: false, status: 400, message: CATALOGUE_MESSAGES.notEstimable });
    // « Tarifs » offers « Estimation » only where the catalogue can check it (a seed model with its generation).
    const models = service.pricesView().brands.flatMap((b) => b.series.flatMap((s) => s.models));
    const estimable = (slug: string) => models.find((m) => m.slug === slug)?.estimable;
    expect(estimable("excite-go")).toBe(false);
    expect(estimable("iphone-13")).toBe(true);

    expect(await service.setVisibility(EDITOR, { brand: "toshiba-tablet", model: "excite-go", hidden: true })).toEqual({
      ok: true,
      message: "Excite Go est masqué : il n'apparaît plus sur le site.",
    });
    expect(service.current().getModel("excite-go")).toBeUndefined();
    const listed = service.pricesView().brands.find((b) => b.slug === "toshiba-tablet")!;
    expect(listed.series[0]!.models.find((m) => m.slug === "excite-go")?.hidden).toBe(true);
    await service.setVisibility(EDITOR, { brand: "toshiba-tablet", model: "excite-go", hidden: false });
    expect(service.current().getModel("excite-go")).toBeDefined();
    expect((await service.history()).slice(0, 3).map((e) => e.kind)).toEqual(["show", "hide", "add-model"]);
  });

  it("lets a second server process see a change at its next poll, and announce it to its own pages", async () => {
    const otherChanges = createPageChanges();
    const seen: (readonly string[] | undefined)[] = [];
    otherChanges.subscribe((paths) => seen.push(paths));
    const other = await createCatalogueService({
      db: database.db,
      logger,
      pageChanges: otherChanges,
      pollIntervalMs: 20,
    });
    other.start();
    try {
      await service.setPrice(EDITOR, {
        brand: "playstation",
        model: "ps5",
        repair: "port-hdmi",
        euros: 101,
        estimate: false,
      });
      await expect
        .poll(
          () =>
            other
              .current()
              .getModel("ps5")!
              .model.repairs.find((r) => r.id === "port-hdmi")!.euros,
        )
        .toBe(101);
      expect(seen).toEqual([["/services/playstation-repair", "/services/console-repair"]]);
    } finally {
      await other.stop();
    }
  });

  it("is deleted from the history by the retention job after 3 years", async () => {
    await database.db.execute(
      sql`update catalogue_history set changed_at = now() - interval '1100 days' where id = (select min(id) from catalogue_history)`,
    );
    const count = await historyCount();
    const policy = {
      requestDays: 1095,
      sentMailDays: 30,
      sessionDays: 365,
      assistantDays: 365,
      appointmentDays: 365,
      repairDays: 365,
      signalingHours: 24,
      batchSize: 100,
      intervalHours: 24,
    };
    const counts = await purgeExpired({ db: database.db, policy, outboxFolder: database.dataDir, pauseMs: 0 });
    expect(counts.priceHistory).toBe(1);
    expect(await historyCount()).toBe(count - 1);
  });
});
