/**
 * Loader data of the catalogue pages (issue 3): only one brand's data, prices
 * formatted by formatPrice, meta descriptions of 70–160 characters quoting
 * the brand's cheapest price.
 */
import { describe, expect, it } from "vitest";
import { brands, consoleBrands, formatPrice, smartphoneBrands, tabletBrands } from "~/catalogue";
import { formatEuros } from "~/config/shop";
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
    expect(brandPageForPath("/services/ipad-repair")?.brand.slug).toBe("ipad");
    expect(brandPageForPath("/services/pc-repair")).toBeUndefined();
    expect(brandPageForPath("/services/inconnu")).toBeUndefined();
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
      consoleBrands.map(({ slug, name, description, path, generations }) => ({ slug, name, description, path, generations })),
    );
    expect(categoryBrandCards("console")[0]?.generations).toBe("PS5, PS4, PS3, PS2, PS1");
    expect(categoryBrandCards("tablet").every((card) => !("generations" in card))).toBe(true);
  });
});

describe("categoryBrandNames", () => {
  it("names each category's brands the way its meta text does: ranked brands first, then page order", () => {
    expect(categoryBrandNames("smartphone")).toBe("iPhone, Samsung, Xiaomi, Google, Huawei, Oppo, Realme, Sony, Honor et Asus");
    expect(categoryBrandNames("tablet")).toBe("iPad, Surface, Samsung, Huawei, Xiaomi, Acer, Asus, Sony et Toshiba");
    expect(categoryBrandNames("console")).toBe("PlayStation, Xbox et Nintendo");
  });

  it("follows the brand list it is given", () => {
    const withoutIpad = brands.filter((b) => b.slug !== "ipad");
    expect(categoryBrandNames("tablet", withoutIpad)).toBe("Surface, Samsung, Huawei, Xiaomi, Acer, Asus, Sony et Toshiba");
    expect(categoryPageData("tablet", withoutIpad).brands.map((c) => c.slug)).not.toContain("ipad");
    expect(categoryPageData("console")).toEqual({ brands: categoryBrandCards("console"), brandNames: "PlayStation, Xbox et Nintendo" });
  });
});
