/**
 * Tests of the repair catalogue against spec "repair-catalogue" §2, §3 and §9:
 * exact shop tables to the euro, repair types per family, price ranges,
 * generation order of estimates, slugs, estimate flags, formatting, and the
 * loader's refusal of broken data.
 */
import { describe, expect, it } from "vitest";
import googleJson from "./data/google.json";
import samsungJson from "./data/samsung.json";
import toshibaJson from "./data/toshiba-tablet.json";
import {
  ASSUMED_PHONE_OTHER_RANGE,
  CatalogueError,
  FAMILY_REPAIRS,
  REPAIR_IDS,
  REPAIR_LABELS,
  SPEC_RANGES,
  allOffers,
  brands,
  consoleBrands,
  formatPrice,
  getBrand,
  getBrandByPath,
  getModel,
  loadCatalogue,
  repairTypeLabel,
  smartphoneBrands,
  tabletBrands,
  type Brand,
  type EuroRange,
  type Model,
  type RepairId,
} from "./index.ts";

// ---------------------------------------------------------------- helpers

function brand(slug: string): Brand {
  const found = getBrand(slug);
  if (found === undefined) throw new Error(`marque absente : ${slug}`);
  return found;
}

function modelsOf(b: Brand): Model[] {
  return b.series.flatMap((series) => [...series.models]);
}

/** `{ ecran: 199, … }` for a model, in display order. */
function priceMap(model: Model): Partial<Record<RepairId, number>> {
  return Object.fromEntries(model.repairs.map((repair) => [repair.id, repair.euros]));
}

function price(model: Model, id: RepairId): number {
  const repair = model.repairs.find((r) => r.id === id);
  if (repair === undefined) throw new Error(`${model.name} n'a pas de prix ${id}`);
  return repair.euros;
}

function modelNamed(b: Brand, name: string): Model {
  const found = modelsOf(b).find((model) => model.name === name);
  if (found === undefined) throw new Error(`${b.slug} : modèle absent ${name}`);
  return found;
}

function expectWithin(values: readonly number[], range: EuroRange, what: string) {
  for (const value of values) {
    expect(Number.isInteger(value), `${what} : ${value} n'est pas entier`).toBe(true);
    expect(value, `${what} : ${value} < ${range.min}`).toBeGreaterThanOrEqual(range.min);
    expect(value, `${what} : ${value} > ${range.max}`).toBeLessThanOrEqual(range.max);
  }
}

/** The spec's "X to Y" ranges describe the shown prices, so both ends must be reached. */
function expectSpans(values: readonly number[], range: EuroRange, what: string) {
  expectWithin(values, range, what);
  expect(Math.min(...values), `${what} : minimum`).toBe(range.min);
  expect(Math.max(...values), `${what} : maximum`).toBe(range.max);
}

const phoneModels = () => smartphoneBrands.flatMap(modelsOf);
const tabletModels = () => tabletBrands.flatMap(modelsOf);
const prices = (models: readonly Model[], id: RepairId) => models.map((model) => price(model, id));

/** Deep copy of raw data with one object along `path` changed, without casting. */
function edited(raw: unknown, path: readonly PropertyKey[], change: (target: object) => void): unknown {
  const copy: unknown = structuredClone(raw);
  let node: unknown = copy;
  for (const key of path) node = typeof node === "object" && node !== null ? Reflect.get(node, key) : undefined;
  if (typeof node !== "object" || node === null) throw new Error(`pas d'objet en ${path.join(".")}`);
  change(node);
  return copy;
}

function issuesOf(raw: readonly unknown[]): readonly string[] {
  try {
    loadCatalogue(raw);
  } catch (error) {
    if (error instanceof CatalogueError) return error.issues;
    throw error;
  }
  throw new Error("loadCatalogue aurait dû refuser ces données");
}

// ---------------------------------------------------------------- spec §3 tables, transcribed

type TabletRow = [name: string, ecran: number, batterie: number, connecteur: number, camera: number];

const TOSHIBA: TabletRow[] = [
  ["Excite Pro", 199, 79, 69, 89],
  ["Excite Pure", 189, 79, 69, 89],
  ["Excite Write", 189, 79, 69, 89],
  ["Excite 10", 179, 69, 59, 79],
  ["Excite 7.7", 169, 69, 59, 79],
  ["Excite 7", 159, 69, 59, 79],
  ["Encore 2 Write", 179, 69, 59, 79],
  ["Encore 2 10", 169, 69, 59, 79],
  ["Encore 2 8", 159, 69, 59, 79],
  ["Encore Mini", 149, 69, 59, 79],
  ["Encore", 159, 69, 59, 79],
  ["Thrive 10", 169, 69, 59, 79],
  ["Thrive 7", 159, 69, 59, 79],
];

const XIAOMI_TABLETS: TabletRow[] = [
  ["Mi Pad 6 Pro", 249, 89, 69, 99],
  ["Mi Pad 6", 229, 89, 69, 99],
  ["Mi Pad 5 Pro", 229, 89, 69, 99],
  ["Mi Pad 5", 209, 79, 69, 89],
  ["Mi Pad 4 Plus", 189, 79, 69, 89],
  ["Mi Pad 4", 169, 79, 69, 89],
  ["Mi Pad 3", 159, 69, 59, 79],
  ["Mi Pad 2", 149, 69, 59, 79],
  ["Redmi Pad SE", 189, 79, 69, 89],
  ["Redmi Pad", 179, 79, 69, 89],
  ["Redmi Pad 5G", 199, 79, 69, 89],
  ["Xiaomi Pad 6S Pro", 269, 89, 69, 99],
  ["Pad 6 Pro", 249, 89, 69, 99],
  ["Pad 6", 229, 89, 69, 99],
  ["Pad 5 Pro", 229, 89, 69, 99],
  ["Pad 5", 209, 79, 69, 89],
];

/** Console rows: the repair types in the spec's order, each with its euros. */
type ConsoleRow = [name: string, repairs: [RepairId, number][]];

const PS_MODERN = (drive: number, hdmi: number, power: number, fan: number, disk: number): [RepairId, number][] => [
  ["lecteur-blu-ray", drive],
  ["port-hdmi", hdmi],
  ["alimentation", power],
  ["ventilateur", fan],
  ["disque-dur", disk],
];
const PS2_ROW: [RepairId, number][] = [
  ["lecteur-dvd", 59],
  ["port-av", 49],
  ["alimentation", 59],
  ["ventilateur", 39],
  ["carte-memoire", 29],
];

const PLAYSTATION: ConsoleRow[] = [
  ["PS5", PS_MODERN(129, 89, 99, 79, 119)],
  ["PS5 Digital", PS_MODERN(129, 89, 99, 79, 119)],
  ["PS4 Pro", PS_MODERN(89, 79, 89, 69, 99)],
  ["PS4 Slim", PS_MODERN(79, 69, 79, 59, 89)],
  ["PS4", PS_MODERN(79, 69, 79, 59, 89)],
  ["PS3 Super Slim", PS_MODERN(69, 59, 69, 49, 79)],
  ["PS3 Slim", PS_MODERN(69, 59, 69, 49, 79)],
  ["PS3", PS_MODERN(69, 59, 69, 49, 79)],
  ["PS2 Slim", PS2_ROW],
  ["PS2", PS2_ROW],
  [
    "PS1",
    [
      ["lecteur-cd", 49],
      ["port-av", 39],
      ["alimentation", 49],
      ["carte-memoire", 29],
    ],
  ],
];

const XBOX_ROW = (drive: RepairId, port: RepairId, euros: [number, number, number, number, number]) => {
  const ids: RepairId[] = [drive, port, "alimentation", "ventilateur", "disque-dur"];
  return ids.map((id, i): [RepairId, number] => [id, euros[i] ?? Number.NaN]);
};

const XBOX: ConsoleRow[] = [
  ["Xbox Series X", XBOX_ROW("lecteur-blu-ray", "port-hdmi", [129, 89, 99, 79, 119])],
  [
    "Xbox Series S",
    [
      ["port-hdmi", 89],
      ["alimentation", 99],
      ["ventilateur", 79],
      ["disque-dur", 119],
    ],
  ],
  ["Xbox One X", XBOX_ROW("lecteur-blu-ray", "port-hdmi", [89, 79, 89, 69, 99])],
  ["Xbox One S", XBOX_ROW("lecteur-blu-ray", "port-hdmi", [79, 69, 79, 59, 89])],
  ["Xbox One", XBOX_ROW("lecteur-blu-ray", "port-hdmi", [79, 69, 79, 59, 89])],
  ["Xbox 360 E", XBOX_ROW("lecteur-dvd", "port-hdmi", [69, 59, 69, 49, 79])],
  ["Xbox 360 S", XBOX_ROW("lecteur-dvd", "port-hdmi", [69, 59, 69, 49, 79])],
  ["Xbox 360", XBOX_ROW("lecteur-dvd", "port-av", [69, 59, 69, 49, 79])],
  ["Xbox Classic", XBOX_ROW("lecteur-dvd", "port-av", [59, 49, 59, 39, 69])],
];

const row = (ids: RepairId[], euros: number[]): [RepairId, number][] =>
  ids.map((id, i): [RepairId, number] => [id, euros[i] ?? Number.NaN]);
const SWITCH_IDS: RepairId[] = ["ecran", "batterie", "port-usb-c", "joy-con", "carte-mere"];
const DUAL_SCREEN_IDS: RepairId[] = ["ecran-superieur", "ecran-inferieur", "batterie", "boutons", "carte-mere"];
const SINGLE_SCREEN_IDS: RepairId[] = ["ecran", "batterie", "boutons", "joysticks", "carte-mere"];

const NINTENDO: ConsoleRow[] = [
  ["Switch OLED", row(SWITCH_IDS, [169, 79, 69, 59, 159])],
  ["Switch", row(SWITCH_IDS, [149, 79, 69, 59, 149])],
  ["Switch Lite", row(["ecran", "batterie", "port-usb-c", "boutons", "carte-mere"], [129, 69, 69, 49, 139])],
  ["Wii U", row(["lecteur-disque", "port-hdmi", "alimentation", "gamepad", "carte-mere"], [89, 69, 59, 99, 129])],
  ["Wii U GamePad", row(SINGLE_SCREEN_IDS, [79, 49, 39, 39, 89])],
  ["Wii", row(["lecteur-disque", "port-av", "alimentation", "ventilateur", "carte-mere"], [69, 49, 49, 39, 89])],
  ["New 3DS XL", row(DUAL_SCREEN_IDS, [79, 69, 49, 39, 99])],
  ["New 3DS", row(DUAL_SCREEN_IDS, [69, 59, 49, 39, 89])],
  ["3DS XL", row(DUAL_SCREEN_IDS, [69, 59, 49, 39, 89])],
  ["3DS", row(DUAL_SCREEN_IDS, [59, 49, 49, 39, 79])],
  ["2DS XL", row(SINGLE_SCREEN_IDS, [69, 49, 39, 39, 89])],
  ["2DS", row(SINGLE_SCREEN_IDS, [59, 49, 39, 39, 79])],
  ["DSi XL", row(DUAL_SCREEN_IDS, [59, 49, 39, 29, 69])],
  ["DSi", row(DUAL_SCREEN_IDS, [49, 39, 39, 29, 59])],
  ["DS Lite", row(DUAL_SCREEN_IDS, [49, 39, 39, 29, 59])],
  ["DS", row(DUAL_SCREEN_IDS, [39, 29, 39, 29, 49])],
];

/** Brands whose every price comes from a spec table. */
const SHOP_BRANDS = ["toshiba-tablet", "xiaomi-tablet", "playstation", "xbox", "nintendo"];
/** The two iPhone prices given as samples in spec §9; every other iPhone price is an estimate. */
const IPHONE_SHOP_PRICES = [
  ["iphone-8", "ecran"],
  ["iphone-16-pro-max", "ecran"],
];

// ---------------------------------------------------------------- tests

/**
 * The cards of a category page that spec §2 names, in page order: a brand
 * added to the data beyond the spec does not change it (issue 14), a spec
 * brand missing or out of order does.
 */
function specCards(list: readonly Brand[], spec: readonly (readonly [string, string])[]): [string, string][] {
  const specPaths = new Set(spec.map(([, path]) => path));
  return list.filter((b) => specPaths.has(b.path)).map((b) => [b.name, b.path]);
}

describe("brands and pages (spec §2)", () => {
  it("lists the ten smartphone brands of the spec in its order, Apple first, with their pages", () => {
    expect(smartphoneBrands[0]?.name).toBe("Apple");
    const spec = [
      ["Apple", "/services/iphone-repair"],
      ["Samsung", "/services/samsung-repair"],
      ["Xiaomi", "/services/xiaomi-repair"],
      ["Google", "/services/google-repair"],
      ["Huawei", "/services/huawei-repair"],
      ["Oppo", "/services/oppo-repair"],
      ["Realme", "/services/realme-repair"],
      ["Sony", "/services/sony-repair"],
      ["Honor", "/services/honor-repair"],
      ["Asus", "/services/asus-repair"],
    ] as const;
    expect(specCards(smartphoneBrands, spec)).toEqual(spec);
  });

  it("lists the nine tablet brands of the spec in its order with their pages", () => {
    const spec = [
      ["Acer", "/services/acer-tablet-repair"],
      ["iPad", "/services/ipad-repair"],
      ["Asus", "/services/asus-tablet-repair"],
      ["Huawei", "/services/huawei-tablet-repair"],
      ["Surface", "/services/surface-repair"],
      ["Samsung", "/services/samsung-tablet-repair"],
      ["Sony", "/services/sony-tablet-repair"],
      ["Toshiba", "/services/toshiba-tablet-repair"],
      ["Xiaomi", "/services/xiaomi-tablet-repair"],
    ] as const;
    expect(specCards(tabletBrands, spec)).toEqual(spec);
  });

  it("lists the three console pages of the hub", () => {
    const spec = [
      ["PlayStation", "/services/playstation-repair"],
      ["Xbox", "/services/xbox-repair"],
      ["Nintendo", "/services/nintendo-repair"],
    ] as const;
    expect(specCards(consoleBrands, spec)).toEqual(spec);
  });

  it("files each brand under the category page of its family", () => {
    expect(brands).toEqual([...smartphoneBrands, ...tabletBrands, ...consoleBrands]);
    expect(smartphoneBrands.map((b) => b.family)).toContain("iphone");
    for (const b of tabletBrands) expect(b.family, b.slug).toBe("tablet");
  });

  it("gives every brand a one-sentence French description and a title", () => {
    for (const b of brands) {
      expect(b.description, b.slug).toMatch(/^[A-ZÉ].+\.$/u);
      expect(b.description.slice(0, -1), b.slug).not.toMatch(/[.!?]\s/u);
      expect(b.title, b.slug).toMatch(/^Réparation /u);
    }
  });

  it("finds brands by slug and by page path", () => {
    expect(getBrand("samsung-tablet")?.path).toBe("/services/samsung-tablet-repair");
    expect(getBrandByPath("/services/surface-repair")?.slug).toBe("surface");
    expect(getBrandByPath("/services/playstation-repair/")?.name).toBe("PlayStation");
    expect(getBrand("nokia")).toBeUndefined();
    expect(getBrandByPath("/services/console-repair")).toBeUndefined();
  });

  it("groups Toshiba and Xiaomi tablets into the spec's series", () => {
    const names = (slug: string) => brand(slug).series.map((s) => [s.name, s.models.map((m) => m.name)]);
    expect(names("toshiba-tablet")).toEqual([
      ["Série Excite", ["Excite Pro", "Excite Pure", "Excite Write", "Excite 10", "Excite 7.7", "Excite 7"]],
      ["Série Encore", ["Encore 2 Write", "Encore 2 10", "Encore 2 8", "Encore Mini", "Encore"]],
      ["Série Thrive", ["Thrive 10", "Thrive 7"]],
    ]);
    expect(names("xiaomi-tablet")).toEqual([
      [
        "Série Mi Pad",
        ["Mi Pad 6 Pro", "Mi Pad 6", "Mi Pad 5 Pro", "Mi Pad 5", "Mi Pad 4 Plus", "Mi Pad 4", "Mi Pad 3", "Mi Pad 2"],
      ],
      ["Série Redmi Pad", ["Redmi Pad SE", "Redmi Pad", "Redmi Pad 5G"]],
      ["Série Pad", ["Xiaomi Pad 6S Pro", "Pad 6 Pro", "Pad 6", "Pad 5 Pro", "Pad 5"]],
    ]);
  });

  it("groups iPhones in generation rows 8, X, 11 to 16, from the 8 to the 16 Pro Max", () => {
    const rows = brand("iphone").series;
    expect(rows.map((s) => s.name)).toEqual([
      "iPhone 8 et SE",
      "iPhone X",
      "iPhone 11",
      "iPhone 12",
      "iPhone 13",
      "iPhone 14",
      "iPhone 15",
      "iPhone 16",
    ]);
    const all = modelsOf(brand("iphone")).map((m) => m.name);
    expect(all[0]).toBe("iPhone 8");
    expect(all.at(-1)).toBe("iPhone 16 Pro Max");
    expect(all).toEqual(expect.arrayContaining(["iPhone SE (2020)", "iPhone SE (2022)", "iPhone 13 Pro"]));
  });

  it("covers the spec's model ranges", () => {
    const names = (slug: string) => modelsOf(brand(slug)).map((m) => m.name);
    expect(names("google")).toEqual(expect.arrayContaining(["Pixel 3", "Pixel 8 Pro"]));
    expect(brand("samsung").series.map((s) => s.name)).toEqual([
      "Série Galaxy S",
      "Série Galaxy S FE",
      "Série Galaxy Z",
      "Série Galaxy Note",
      "Série Galaxy A",
    ]);
    expect(brand("surface").series.map((s) => s.name)).toEqual([
      "Série Surface Pro",
      "Série Surface Go",
      "Série Surface Book",
      "Série Surface Laptop",
    ]);
    expect(brand("samsung-tablet").series.map((s) => s.name)).toEqual(
      expect.arrayContaining(["Série Galaxy Tab S", "Série Galaxy Tab A", "Série Galaxy Book"]),
    );
    expect(brand("playstation").series.map((s) => s.name)).toEqual([
      "PlayStation 5",
      "PlayStation 4",
      "PlayStation 3",
      "PlayStation 2",
      "PlayStation 1",
    ]);
    for (const b of brands) {
      const count = modelsOf(b).length;
      expect(count, b.slug).toBeGreaterThanOrEqual(6);
      expect(count, b.slug).toBeLessThanOrEqual(40);
    }
  });
});

describe("exact spec tables (§3), to the euro", () => {
  const tableCase = (slug: string, rows: TabletRow[]) => {
    const b = brand(slug);
    expect(modelsOf(b).map((m) => m.name)).toEqual(rows.map(([name]) => name));
    for (const [name, ecran, batterie, connecteur, camera] of rows) {
      expect(priceMap(modelNamed(b, name)), name).toEqual({ ecran, batterie, connecteur, camera });
    }
  };

  it("Toshiba tablets: 13 models", () => {
    expect(TOSHIBA).toHaveLength(13);
    tableCase("toshiba-tablet", TOSHIBA);
  });

  it("Xiaomi tablets: 16 models", () => {
    expect(XIAOMI_TABLETS).toHaveLength(16);
    tableCase("xiaomi-tablet", XIAOMI_TABLETS);
  });

  const consoleCase = (slug: string, rows: ConsoleRow[]) => {
    const b = brand(slug);
    expect(modelsOf(b).map((m) => m.name)).toEqual(rows.map(([name]) => name));
    for (const [name, repairs] of rows) {
      // Order matters too: the spec lists each console's repair types in order.
      expect(
        modelNamed(b, name).repairs.map((r) => [r.id, r.euros]),
        name,
      ).toEqual(repairs);
    }
  };

  it("PlayStation: PS5 to PS1 with their own repair types", () => consoleCase("playstation", PLAYSTATION));

  it("Xbox: Series X to Classic, the Series S without a drive", () => {
    consoleCase("xbox", XBOX);
    const seriesS = modelNamed(brand("xbox"), "Xbox Series S").repairs.map((r) => r.id);
    expect(seriesS.some((id) => id.startsWith("lecteur"))).toBe(false);
  });

  it("Nintendo: Switch OLED to DS, each with its listed repair types", () => consoleCase("nintendo", NINTENDO));
});

describe("repair types (§3)", () => {
  it("has a French label for every repair type, including the console ones", () => {
    for (const id of REPAIR_IDS) expect(repairTypeLabel(id)).toBe(REPAIR_LABELS[id]);
    expect(repairTypeLabel("lecteur-blu-ray")).toBe("Lecteur Blu-ray");
    expect(repairTypeLabel("port-hdmi")).toBe("Port HDMI");
    expect(repairTypeLabel("carte-memoire")).toBe("Carte mémoire");
    expect(repairTypeLabel("ecran-superieur")).toBe("Écran supérieur");
    expect(repairTypeLabel("port-usb-c")).toBe("Port USB-C");
  });

  it("uses the spec's repair lists per family", () => {
    const labels = (ids: readonly RepairId[]) => ids.map(repairTypeLabel);
    expect(labels(FAMILY_REPAIRS.iphone)).toEqual([
      "Écran",
      "Batterie",
      "Vitre arrière",
      "Connecteur de charge",
      "Caméra avant",
      "Caméra arrière",
    ]);
    expect(labels(FAMILY_REPAIRS.smartphone)).toEqual(["Écran", "Batterie", "Vitre arrière", "Connecteur", "Caméra"]);
    expect(labels(FAMILY_REPAIRS.tablet)).toEqual(["Écran", "Batterie", "Connecteur", "Caméra"]);
  });

  it("gives every phone and tablet model every repair type of its family, in order", () => {
    for (const b of brands) {
      if (b.family === "console") continue;
      for (const model of modelsOf(b)) {
        expect(
          model.repairs.map((r) => r.id),
          `${b.slug} ${model.name}`,
        ).toEqual(FAMILY_REPAIRS[b.family]);
      }
    }
  });
});

describe("prices (§9)", () => {
  it("are positive whole euros everywhere", () => {
    for (const offer of allOffers()) {
      expect(Number.isInteger(offer.euros) && offer.euros > 0, `${offer.modelSlug} ${offer.repairId}`).toBe(true);
    }
  });

  it("iPhone: screen from 49 (iPhone 8) to 299 (16 Pro Max), battery 39 to 69", () => {
    const iphones = modelsOf(brand("iphone"));
    expect(price(modelNamed(brand("iphone"), "iPhone 8"), "ecran")).toBe(49);
    expect(price(modelNamed(brand("iphone"), "iPhone 16 Pro Max"), "ecran")).toBe(299);
    expectSpans(prices(iphones, "ecran"), SPEC_RANGES.iphone.ecran, "écran iPhone");
    expectSpans(prices(iphones, "batterie"), SPEC_RANGES.iphone.batterie, "batterie iPhone");
  });

  it("smartphones: screen 49 to 399, battery 39 to 89", () => {
    expectSpans(prices(phoneModels(), "ecran"), SPEC_RANGES.smartphone.ecran, "écran smartphone");
    expectSpans(prices(phoneModels(), "batterie"), SPEC_RANGES.smartphone.batterie, "batterie smartphone");
  });

  it("smartphones: other repairs stay inside the assumed sanity band", () => {
    const others: RepairId[] = [
      "vitre-arriere",
      "connecteur",
      "connecteur-de-charge",
      "camera",
      "camera-avant",
      "camera-arriere",
    ];
    for (const model of phoneModels()) {
      for (const repair of model.repairs) {
        if (others.includes(repair.id))
          expectWithin([repair.euros], ASSUMED_PHONE_OTHER_RANGE, `${model.name} ${repair.id}`);
      }
    }
  });

  it("smartphones: foldables are the most expensive screens of their brand", () => {
    const withFoldables = smartphoneBrands.filter((b) => modelsOf(b).some((m) => m.foldable));
    expect(withFoldables.map((b) => b.slug)).toContain("samsung");
    for (const b of withFoldables) {
      const foldables = modelsOf(b).filter((m) => m.foldable);
      const others = modelsOf(b).filter((m) => !m.foldable);
      expect(Math.min(...prices(foldables, "ecran")), b.slug).toBeGreaterThan(Math.max(...prices(others, "ecran")));
    }
    const samsungFoldables = modelsOf(brand("samsung"))
      .filter((m) => m.foldable)
      .map((m) => m.name);
    expect(samsungFoldables.every((name) => /Galaxy Z (Fold|Flip)/u.test(name))).toBe(true);
    expect(samsungFoldables.length).toBeGreaterThanOrEqual(4);
  });

  it("tablets across brands: screen 139–599, battery 69–129, connector 59–89, camera 79–129", () => {
    const ranges = SPEC_RANGES.tablet;
    expectSpans(prices(tabletModels(), "ecran"), ranges.ecran, "écran tablette");
    expectSpans(prices(tabletModels(), "batterie"), ranges.batterie, "batterie tablette");
    expectSpans(prices(tabletModels(), "connecteur"), ranges.connecteur, "connecteur tablette");
    expectSpans(prices(tabletModels(), "camera"), ranges.camera, "caméra tablette");
  });

  it("Toshiba and Xiaomi tablets stay inside their own ranges", () => {
    const cases = [
      ["toshiba-tablet", SPEC_RANGES.toshibaTablet],
      ["xiaomi-tablet", SPEC_RANGES.xiaomiTablet],
    ] as const;
    for (const [slug, ranges] of cases) {
      const models = modelsOf(brand(slug));
      expectSpans(prices(models, "ecran"), ranges.ecran, `${slug} écran`);
      expectSpans(prices(models, "batterie"), ranges.batterie, `${slug} batterie`);
      expectSpans(prices(models, "connecteur"), ranges.connecteur, `${slug} connecteur`);
      expectSpans(prices(models, "camera"), ranges.camera, `${slug} caméra`);
    }
  });

  it("estimated prices never fall from an older to a newer model of the same line", () => {
    let compared = 0;
    for (const b of brands) {
      const ordered = modelsOf(b).filter((m) => m.year !== undefined && m.line !== undefined);
      for (const older of ordered) {
        for (const newer of ordered) {
          if (older.line !== newer.line || (older.year ?? 0) >= (newer.year ?? 0)) continue;
          compared += 1;
          for (const repair of older.repairs) {
            expect(
              price(newer, repair.id),
              `${b.slug} ${repair.id} : ${newer.name} (${newer.year}) moins cher que ${older.name} (${older.year})`,
            ).toBeGreaterThanOrEqual(repair.euros);
          }
        }
      }
    }
    // Guards against the check passing vacuously if year/line disappeared from the data.
    expect(compared).toBeGreaterThan(300);
  });

  it("orders every model with an estimated price by year and line", () => {
    for (const b of brands) {
      for (const model of modelsOf(b)) {
        if (model.repairs.some((r) => r.estimate)) {
          expect(model.year, model.slug).toBeTypeOf("number");
          expect(model.line, model.slug).toBeTypeOf("string");
        }
      }
    }
  });
});

describe("estimates versus shop prices", () => {
  it("flags every spec-table price as a shop price", () => {
    for (const slug of SHOP_BRANDS) {
      for (const model of modelsOf(brand(slug))) {
        for (const repair of model.repairs) expect(repair.estimate, `${model.slug} ${repair.id}`).toBe(false);
      }
    }
  });

  it("flags every other price as an estimate, except the two iPhone samples of §9", () => {
    for (const b of brands) {
      if (SHOP_BRANDS.includes(b.slug)) continue;
      for (const model of modelsOf(b)) {
        for (const repair of model.repairs) {
          const isSample = IPHONE_SHOP_PRICES.some(([slug, id]) => slug === model.slug && id === repair.id);
          expect(repair.estimate, `${model.slug} ${repair.id}`).toBe(!isSample);
        }
      }
    }
  });
});

describe("slugs", () => {
  it("are URL-safe ascii and unique across the whole catalogue", () => {
    const slugs = brands.flatMap((b) => modelsOf(b).map((m) => m.slug));
    for (const slug of slugs) expect(slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/u);
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(new Set(brands.map((b) => b.slug)).size).toBe(brands.length);
    expect(getModel("iphone-13-pro")?.model.name).toBe("iPhone 13 Pro");
    expect(getModel("iphone-13-pro")?.brand.slug).toBe("iphone");
  });

  it("give series anchors that never clash with model anchors of the same page", () => {
    for (const b of brands) {
      const seriesSlugs = b.series.map((s) => s.slug);
      const modelSlugs = new Set(modelsOf(b).map((m) => m.slug));
      expect(new Set(seriesSlugs).size, b.slug).toBe(seriesSlugs.length);
      for (const slug of seriesSlugs) expect(modelSlugs.has(slug), `${b.slug} ${slug}`).toBe(false);
    }
  });
});

describe("formatPrice", () => {
  it("writes 'à partir de N €' the fr-FR way, without decimals", () => {
    // No-break spaces keep "49 €" on one line; which one precedes € (U+00A0 in
    // Node 24's ICU, U+202F in some browsers) depends on the CLDR version.
    expect(formatPrice(49)).toMatch(/^à partir de 49[\u00a0\u202f]€$/u);
    expect(formatPrice(1299)).toMatch(/^à partir de 1[\u00a0\u202f]299[\u00a0\u202f]€$/u);
    expect(formatPrice(0)).toMatch(/^à partir de 0[\u00a0\u202f]€$/u);
  });

  it("refuses anything but whole euros", () => {
    expect(() => formatPrice(49.5)).toThrow(RangeError);
    expect(() => formatPrice(-1)).toThrow(RangeError);
    expect(() => formatPrice(Number.NaN)).toThrow(RangeError);
  });
});

describe("allOffers", () => {
  it("flattens every model and repair once, with page path and anchor", () => {
    const offers = allOffers();
    const repairCount = brands.reduce((n, b) => n + modelsOf(b).reduce((k, m) => k + m.repairs.length, 0), 0);
    expect(offers).toHaveLength(repairCount);
    expect(new Set(offers.map((o) => `${o.modelSlug}/${o.repairId}`)).size).toBe(offers.length);
    expect(offers.find((o) => o.modelSlug === "ps5" && o.repairId === "lecteur-blu-ray")).toEqual({
      brand: "PlayStation",
      brandSlug: "playstation",
      family: "console",
      series: "PlayStation 5",
      model: "PS5",
      modelSlug: "ps5",
      repairId: "lecteur-blu-ray",
      repairLabel: "Lecteur Blu-ray",
      euros: 129,
      estimate: false,
      path: "/services/playstation-repair",
      href: "/services/playstation-repair#ps5",
    });
    expect(allOffers()).toBe(offers);
    expect(Object.isFrozen(offers[0])).toBe(true);
  });
});

describe("loadCatalogue rejects invalid data", () => {
  const firstPrices = ["series", 0, "models", 0, "prices"];

  it("accepts the shipped files", () => {
    expect(loadCatalogue([samsungJson, googleJson, toshibaJson]).map((b) => b.slug)).toEqual([
      "samsung",
      "google",
      "toshiba-tablet",
    ]);
  });

  it("names the brand and model of a missing repair type", () => {
    const broken = edited(samsungJson, firstPrices, (p) => Reflect.deleteProperty(p, "camera"));
    const issues = issuesOf([broken]);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toContain("marque « samsung »");
    expect(issues[0]).toContain("modèle « Galaxy S24 Ultra » (galaxy-s24-ultra)");
    expect(issues[0]).toContain("manquants : camera");
  });

  it("names the brand and model of a price that is not whole euros", () => {
    const broken = edited(toshibaJson, ["series", 1, "models", 3, "prices"], (p) => Reflect.set(p, "ecran", 149.5));
    const issues = issuesOf([broken]);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toContain("marque « toshiba-tablet »");
    expect(issues[0]).toContain("série « Série Encore »");
    expect(issues[0]).toContain("modèle « Encore Mini »");
    expect(issues[0]).toContain("prices.ecran");
    expect(issues[0]).toContain("entier");
  });

  it("refuses a price given as text", () => {
    const broken = edited(toshibaJson, firstPrices, (p) => Reflect.set(p, "ecran", "199"));
    expect(issuesOf([broken])[0]).toContain("modèle « Excite Pro »");
  });

  it("refuses a duplicate model slug within a brand", () => {
    const broken = edited(googleJson, ["series", 0, "models", 1], (m) => Reflect.set(m, "slug", "pixel-8-pro"));
    const issues = issuesOf([broken]);
    expect(issues.join("\n")).toContain("marque « google »");
    expect(issues.join("\n")).toContain("slug de modèle en double dans la marque : pixel-8-pro");
  });

  it("refuses a model slug already used by another brand", () => {
    const broken = edited(googleJson, ["series", 0, "models", 0], (m) => Reflect.set(m, "slug", "galaxy-s24-ultra"));
    const issues = issuesOf([samsungJson, broken]);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toContain("marque « google »");
    expect(issues[0]).toContain("déjà utilisé par la marque « samsung »");
  });

  it("refuses an unknown repair type, an unknown field and an unsafe slug", () => {
    const unknownRepair = edited(toshibaJson, firstPrices, (p) => Reflect.set(p, "vitre", 99));
    expect(issuesOf([unknownRepair])[0]).toMatch(/modèle « Excite Pro ».*vitre/u);
    const unknownField = edited(toshibaJson, ["series", 0, "models", 0], (m) => Reflect.set(m, "prix", 1));
    expect(issuesOf([unknownField])[0]).toMatch(/modèle « Excite Pro ».*champ\(s\) inconnu\(s\) : prix/u);
    const badSlug = edited(toshibaJson, ["series", 0, "models", 0], (m) => Reflect.set(m, "slug", "Excite Pro"));
    expect(issuesOf([badSlug])[0]).toContain("slug");
  });

  it("refuses a repair type foreign to the family and a path that does not match the slug", () => {
    const extra = edited(toshibaJson, firstPrices, (p) => Reflect.set(p, "vitre-arriere", 99));
    expect(issuesOf([extra])[0]).toContain("en trop pour la famille tablet : vitre-arriere");
    const badPath = edited(toshibaJson, [], (b) => Reflect.set(b, "path", "/services/toshiba-repair"));
    expect(issuesOf([badPath])[0]).toContain("/services/toshiba-tablet-repair");
  });

  it("keeps the hub's generations line for consoles", () => {
    const onTablet = edited(toshibaJson, [], (b) => Reflect.set(b, "generations", "Excite, Encore"));
    expect(issuesOf([onTablet])[0]).toContain("generations : réservé aux consoles");
    expect(brand("xbox").generations).toBe("Series X|S, One, 360, Classic");
  });

  it("refuses an estimated model without a generation order", () => {
    const broken = edited(googleJson, ["series", 0, "models", 0], (m) => Reflect.deleteProperty(m, "year"));
    expect(issuesOf([broken]).join("\n")).toMatch(/Pixel 8 Pro.*year/u);
  });

  it("reports the problems of every file at once", () => {
    const missing = edited(samsungJson, firstPrices, (p) => Reflect.deleteProperty(p, "ecran"));
    const fraction = edited(toshibaJson, firstPrices, (p) => Reflect.set(p, "batterie", 0.5));
    const issues = issuesOf([missing, fraction]);
    expect(issues).toHaveLength(2);
    expect(issues[0]).toContain("marque « samsung »");
    expect(issues[1]).toContain("marque « toshiba-tablet »");
  });
});
