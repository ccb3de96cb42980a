/**
 * Model finder search (issue 3): the spec'd queries find the expected model
 * first, with the catalogue's prices; accents, case and a typo are tolerated;
 * scoping by family or brand; the payload round-trips through JSON.
 */
import { describe, expect, it } from "vitest";
import { allOffers, brands, getModel, REPAIR_LABELS, type RepairId } from "./index.ts";
import {
  buildModelDocuments,
  buildModelIndex,
  buildSearchPayload,
  fold,
  loadModelIndex,
  searchModels,
  tokenize,
  type ModelHit,
} from "./search.ts";
import { searchPayload } from "./search-payload.server.ts";

const index = buildModelIndex(brands);

function search(query: string, options?: Parameters<typeof searchModels>[2]) {
  return searchModels(index, query, options);
}

function first(query: string): ModelHit {
  const hit = search(query).hits[0];
  if (hit === undefined) throw new Error(`aucun résultat pour « ${query} »`);
  return hit;
}

function slugs(query: string, options?: Parameters<typeof searchModels>[2]): string[] {
  return search(query, options).hits.map((hit) => hit.slug);
}

/** The catalogue's price of a repair of a model, in whole euros. */
function price(modelSlug: string, repair: RepairId): number {
  const euros = getModel(modelSlug)?.model.repairs.find((r) => r.id === repair)?.euros;
  if (euros === undefined) throw new Error(`${modelSlug} n'a pas de prix ${repair}`);
  return euros;
}

describe("text folding", () => {
  it("lower-cases, removes accents, spells + and splits on punctuation", () => {
    expect(fold("Écran ARRIÈRE")).toBe("ecran arriere");
    expect(tokenize("Galaxy S24+ (Écran)")).toEqual(["galaxy", "s24", "plus", "ecran"]);
    expect(tokenize("  ")).toEqual([]);
  });
});

describe("the issue's queries", () => {
  it("ps5 hdmi → PS5 first, with its HDMI port price first and highlighted", () => {
    const hit = first("ps5 hdmi");
    expect(hit.name).toBe("PS5");
    expect(hit.brand).toBe("PlayStation");
    expect(hit.href).toBe("/services/playstation-repair#" + hit.slug);
    expect(hit.repairs[0]).toEqual({ id: "port-hdmi", label: "Port HDMI", euros: 89, matched: true });
    expect(hit.repairs.slice(1).every((r) => !r.matched)).toBe(true);
    expect(search("ps5 hdmi").repairIds).toEqual(["port-hdmi"]);
  });

  it("iphone 13 ecran → iPhone 13 first (before 13 mini and Pro), Écran first", () => {
    const result = search("iphone 13 ecran");
    expect(result.hits.map((h) => h.name)).toEqual([
      "iPhone 13",
      "iPhone 13 mini",
      "iPhone 13 Pro",
      "iPhone 13 Pro Max",
    ]);
    const hit = result.hits[0]!;
    expect(hit.repairs[0]).toMatchObject({
      id: "ecran",
      label: "Écran",
      matched: true,
      euros: price(hit.slug, "ecran"),
    });
  });

  it("redmi pad se → Redmi Pad SE first, with the spec's prices", () => {
    const hit = first("redmi pad se");
    expect(hit.name).toBe("Redmi Pad SE");
    expect(hit.brandSlug).toBe("xiaomi-tablet");
    expect(hit.repairs.map((r) => [r.label, r.euros])).toEqual([
      ["Écran", 189],
      ["Batterie", 79],
      ["Connecteur", 69],
      ["Caméra", 79 + 10],
    ]);
  });

  it.each([
    ["iphnoe 13", "iPhone 13"],
    ["nintedo switch", "Switch"],
    ["redmi pda se", "Redmi Pad SE"],
    ["samsnug galaxy s24", "Galaxy S24"],
  ])("tolerates a typo: %s → %s first", (query, name) => {
    expect(first(query).name).toBe(name);
  });

  it("is case- and accent-insensitive, in the query and in the labels", () => {
    for (const query of ["IPHONE 13 ÉCRAN", "iPhone 13 Écran", "iphone 13 écran", "iphone 13 ECRAN"]) {
      const hit = first(query);
      expect(hit.name).toBe("iPhone 13");
      expect(hit.repairs[0]?.label).toBe("Écran");
      expect(hit.repairs[0]?.matched).toBe(true);
    }
    expect(first("Réparation caméra arrière iphone 13 pro").repairs[0]?.id).toBe("camera-arriere");
  });
});

describe("matching while typing and spelling variants", () => {
  it("matches prefixes, so results come as the visitor types", () => {
    expect(first("ps").name).toMatch(/^PS/);
    expect(first("iphone 13 p").name).toBe("iPhone 13 Pro");
    expect(first("redmi pad s").name).toBe("Redmi Pad SE");
    expect(first("ps5 hd").name).toBe("PS5");
    expect(first("ps5 hdm").repairs[0]?.id).toBe("port-hdmi");
  });

  it("accepts glued or spaced numbers and a spelt-out +", () => {
    expect(first("iphone13").name).toBe("iPhone 13");
    expect(first("ps 5").name).toBe("PS5");
    expect(first("reno 12").name).toBe("Oppo Reno12");
    expect(first("galaxy s24+").name).toBe("Galaxy S24+");
    expect(first("galaxy s24 plus").name).toBe("Galaxy S24+");
  });

  it("ranks the exact name before longer ones", () => {
    expect(slugs("pixel 7").map((s) => getModel(s)?.model.name)).toEqual(["Pixel 7", "Pixel 7 Pro", "Pixel 7a"]);
    expect(first("switch").name).toBe("Switch");
    expect(first("galaxy s24").name).toBe("Galaxy S24");
  });

  it("shares the assistant's fixes (issue 17): a model word is matched once, the exact name first", () => {
    expect(search("xbox one x ventilateur").hits.map((h) => h.name)).toEqual(["Xbox One X"]);
    expect(first("xbox one ventilateur").name).toBe("Xbox One");
    expect(slugs("redmi pad").slice(0, 2)).toEqual(["xiaomi-redmi-pad", "xiaomi-redmi-pad-se"]);
    expect(first("redmipad se").name).toBe("Redmi Pad SE");
    expect(first("playstation 4 slim").name).toBe("PS4 Slim");
  });

  it("does not take a model word for a repair (Wii U GamePad, PS3 Super Slim)", () => {
    expect(first("wii u gamepad").name).toBe("Wii U GamePad");
    expect(first("ps3 super").name).toBe("PS3 Super Slim");
    expect(first("encore mini").name).toBe("Encore Mini");
  });

  it("lists every repair named by a word of several labels, and English aliases", () => {
    expect(
      first("iphone 13 camera")
        .repairs.filter((r) => r.matched)
        .map((r) => r.id),
    ).toEqual(["camera-avant", "camera-arriere"]);
    expect(
      first("3ds ecran")
        .repairs.slice(0, 2)
        .map((r) => r.label),
    ).toEqual(["Écran supérieur", "Écran inférieur"]);
    expect(first("iphone 12 screen").repairs[0]?.id).toBe("ecran");
    expect(first("iphone 12 battery").repairs[0]?.id).toBe("batterie");
  });

  it("puts models offering the named repair first", () => {
    // Every Xbox Series has an HDMI port, only the X a Blu-ray drive.
    expect(first("xbox series blu-ray").name).toBe("Xbox Series X");
  });

  it("ignores words no model has, then takes any word, when no model matches them all", () => {
    expect(first("microsoft surface pro 9").name).toBe("Surface Pro 9 (2022)");
    expect(slugs("microsoft surface pro 9")).toEqual(slugs("surface pro 9"));
    const mixed = search("iphone 15 galaxy s24", { limit: 100 }).hits.map((h) => h.name);
    expect(mixed).toContain("iPhone 15");
    expect(mixed).toContain("Galaxy S24");
  });

  it("gives no result for an empty query, a query naming only a repair, or nonsense", () => {
    for (const query of ["", "   ", "batterie", "écran", "zzzzqx"]) {
      expect(search(query).hits).toEqual([]);
      expect(search(query).total).toBe(0);
    }
    expect(search("batterie").repairIds).toEqual(["batterie"]);
  });

  it("respects the limit and reports the total", () => {
    const all = search("iphone", { limit: 100 });
    expect(all.total).toBe(all.hits.length);
    expect(all.total).toBeGreaterThan(20);
    const few = search("iphone", { limit: 3 });
    expect(few.hits).toHaveLength(3);
    expect(few.total).toBe(all.total);
    expect(search("iphone").hits).toHaveLength(8);
  });
});

describe("scope", () => {
  it("limits to a family or several", () => {
    const tablets = search("xiaomi", { family: "tablet", limit: 100 }).hits;
    expect(tablets.length).toBeGreaterThan(0);
    expect(tablets.every((h) => h.family === "tablet")).toBe(true);
    const phones = search("xiaomi", { family: ["smartphone", "iphone"], limit: 100 }).hits;
    expect(phones.length).toBeGreaterThan(0);
    expect(phones.every((h) => h.family === "smartphone")).toBe(true);
    expect(search("ps5", { family: "tablet" }).hits).toEqual([]);
  });

  it("limits to a brand", () => {
    const hits = search("pad 6", { brandSlug: "xiaomi-tablet", limit: 100 }).hits;
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.brandSlug === "xiaomi-tablet")).toBe(true);
    expect(search("iphone", { brandSlug: "samsung" }).hits).toEqual([]);
    // Words out of scope are ignored: "13" alone is left on the Samsung page.
    expect(search("iphone 13", { brandSlug: "samsung" }).hits.every((h) => h.brandSlug === "samsung")).toBe(true);
  });

  it("finds family words: « tablette samsung » gives Samsung tablets only", () => {
    const hits = search("tablette samsung", { limit: 100 }).hits;
    expect(hits.length).toBeGreaterThan(5);
    expect(hits.every((h) => h.brandSlug === "samsung-tablet")).toBe(true);
  });
});

describe("documents and payload", () => {
  const documents = buildModelDocuments(brands);

  it("has one document per model, with the catalogue's repairs, labels and prices", () => {
    const offers = allOffers();
    expect(new Set(offers.map((o) => o.modelSlug)).size).toBe(documents.length);
    const fromDocs = documents.flatMap((doc) =>
      doc.repairs.map((r) => `${doc.href} ${doc.brand} ${doc.series} ${doc.name} ${r.id} ${r.label} ${r.euros}`),
    );
    const fromOffers = offers.map(
      (o) => `${o.href} ${o.brand} ${o.series} ${o.model} ${o.repairId} ${o.repairLabel} ${o.euros}`,
    );
    expect(fromDocs).toEqual(fromOffers);
    for (const doc of documents) for (const r of doc.repairs) expect(r.label).toBe(REPAIR_LABELS[r.id]);
  });

  it("the build-time module equals the payload built here, and survives JSON", () => {
    const payload = buildSearchPayload(documents);
    expect(searchPayload).toEqual(payload);
    const reloaded = loadModelIndex(JSON.parse(JSON.stringify(payload)));
    expect(searchModels(reloaded, "ps5 hdmi")).toEqual(search("ps5 hdmi"));
  });

  it("stays small: no more than 100 KB of JSON for the whole catalogue", () => {
    expect(JSON.stringify(searchPayload).length).toBeLessThan(100_000);
  });

  it("refuses duplicate slugs and a payload of another version", () => {
    const doc = documents[0]!;
    expect(() => buildSearchPayload([doc, doc])).toThrow(/double/);
    expect(() => loadModelIndex({ ...searchPayload, version: 1 as 2 })).toThrow(/version/);
  });
});
