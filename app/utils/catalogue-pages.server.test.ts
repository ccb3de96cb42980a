/**
 * Loader data of the catalogue pages (issue 3): only one brand's data, prices
 * formatted by formatPrice, meta descriptions of 70–160 characters quoting
 * the brand's cheapest price.
 */
import { describe, expect, it } from "vitest";
import { brands, catalogue, consoleBrands, formatPrice, smartphoneBrands, tabletBrands } from "#app/catalogue/index.ts";
import { formatEuros } from "#app/config/shop.ts";
import {
  brandDescription,
  brandPageData,
  brandPageForPath,
  categoryBrandCards,
  categoryBrandNames,
  categoryPageData,
  cheapestPrice,
} from "./catalogue-pages.server";

describe("brandPageData", () => {
  it("keeps every model and repair of the brand, each price formatted 'à partir de N €'", () => {
    for (const brand of brands) {
      const { brand: view } = brandPageData(brand);
      expect(view.path).toBe(brand.path);
      expect(view.series.map((s) => s.slug)).toEqual(brand.series.map((s) => s.slug));
      const models = brand.series.flatMap((s) => s.models);
      const viewModels = view.series.flatMap((s) => s.models);
      expect(viewModels.map((m) => m.slug)).toEqual(models.map((m) => m.slug));
      viewModels.forEach((model, i) => {
        expect(model.repairs.map(({ text: _text, ...repair }) => repair)).toEqual(models[i]!.repairs);
        for (const repair of model.repairs) expect(repair.text).toBe(formatPrice(repair.euros));
      });
    }
  });

  it("carries nothing from other brands", () => {
    const data = JSON.stringify(brandPageData(brands.find((b) => b.slug === "toshiba-tablet")!));
    expect(data).not.toContain("Galaxy");
    expect(data).not.toContain("iPhone");
  });

  it("is found by page path, and unknown paths give nothing", () => {
    expect(brandPageForPath("/services/ipad-repair", catalogue)?.brand.slug).toBe("ipad");
    expect(brandPageForPath("/services/pc-repair", catalogue)).toBeUndefined();
    expect(brandPageForPath("/services/inconnu", catalogue)).toBeUndefined();
  });
});

describe("brandDescription", () => {
  it("is 70–160 characters and quotes the cheapest price of the brand", () => {
    for (const brand of brands) {
      const text = brandDescription(brand);
      expect(text.length, text).toBeGreaterThanOrEqual(70);
      expect(text.length, text).toBeLessThanOrEqual(160);
      expect(text).toContain(brand.title);
      expect(text).toContain(`à partir de ${formatEuros(cheapestPrice(brand))} TTC`);
    }
  });

  it("uses the lowest repair price, e.g. 29 € for PlayStation (PS2 memory card, PS1 memory card)", () => {
    expect(cheapestPrice(brands.find((b) => b.slug === "playstation")!)).toBe(29);
    expect(cheapestPrice(brands.find((b) => b.slug === "toshiba-tablet")!)).toBe(59);
  });
});

describe("categoryBrandCards", () => {
  it("lists each category's brands in spec order, with name, description and link only", () => {
    expect(categoryBrandCards("smartphone").map((c) => c.path)).toEqual(smartphoneBrands.map((b) => b.path));
    expect(categoryBrandCards("tablet").map((c) => c.name)).toEqual(tabletBrands.map((b) => b.name));
    expect(categoryBrandCards("console")).toEqual(
      consoleBrands.map(({ slug, name, description, path, generations }) => ({
        slug,
        name,
        description,
        path,
        generations,
      })),
    );
    expect(categoryBrandCards("console")[0]?.generations).toBe("PS5, PS4, PS3, PS2, PS1");
    expect(categoryBrandCards("tablet").every((card) => !("generations" in card))).toBe(true);
  });
});

/** The spec's meta sentences (repair catalogue §2); brands added to the data since are left out of the check. */
const SPEC_BRAND_NAMES = {
  smartphone: "iPhone, Samsung, Xiaomi, Google, Huawei, Oppo, Realme, Sony, Honor et Asus",
  tablet: "iPad, Surface, Samsung, Huawei, Xiaomi, Acer, Asus, Sony et Toshiba",
  console: "PlayStation, Xbox et Nintendo",
} as const;

/** The names of a French list "A, B et C". */
const namesOf = (list: string) => list.split(/, | et /u);

describe("categoryBrandNames", () => {
  it("says the spec's sentence for the spec's brands: ranked brands first, then page order", () => {
    for (const [category, sentence] of Object.entries(SPEC_BRAND_NAMES)) {
      const named = new Set(namesOf(sentence));
      const specBrands = brands.filter((b) => named.has(b.metaName));
      expect(categoryBrandNames(category as keyof typeof SPEC_BRAND_NAMES, specBrands)).toBe(sentence);
    }
  });

  it("names every brand of the category once, whatever the data hold", () => {
    const categories = { smartphone: smartphoneBrands, tablet: tabletBrands, console: consoleBrands } as const;
    for (const [category, list] of Object.entries(categories)) {
      const names = namesOf(categoryBrandNames(category as keyof typeof categories));
      expect(names.toSorted()).toEqual(list.map((b) => b.metaName).toSorted());
    }
  });

  it("puts the lowest metaRank first, then the unranked brands in the order given", () => {
    const [a, b, c] = tabletBrands;
    const list = [
      { ...a!, metaName: "Alpha", metaRank: undefined },
      { ...b!, metaName: "Bravo", metaRank: 2 },
      { ...c!, metaName: "Charlie", metaRank: 1 },
    ];
    expect(categoryBrandNames("tablet", list)).toBe("Charlie, Bravo et Alpha");
  });

  it("follows the brand list it is given", () => {
    const withoutIpad = brands.filter((b) => b.slug !== "ipad");
    expect(namesOf(categoryBrandNames("tablet", withoutIpad))).toEqual(
      namesOf(categoryBrandNames("tablet")).filter((name) => name !== "iPad"),
    );
    expect(categoryPageData("tablet", withoutIpad).brands.map((c) => c.slug)).not.toContain("ipad");
    expect(categoryPageData("console")).toEqual({
      brands: categoryBrandCards("console"),
      brandNames: categoryBrandNames("console"),
    });
  });
});
