/**
 * The catalogue data are the one list of brands (issue 14): a brand added to
 * the data shows up in the pre-rendered paths, the sitemap, its category
 * page (cards and meta text), its own page and the model finder; a brand
 * taken out disappears from all of them. Nothing else names brands.
 *
 * To add a brand for real: write `data/<slug>.json` (see `./schema.ts`) and
 * put its slug in `data/brands.json` where its card goes (spec §2 order).
 */
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { cataloguePaths, PRERENDERED_PATHS, prerenderedPaths, sitemapXml } from "#app/config/public-routes.ts";
import { brandPageData, categoryPageData } from "#app/utils/catalogue-pages.server.ts";
import * as tabletRoute from "#app/routes/services.tablet-repair.tsx";
import {
  brands,
  brandSlugs,
  CatalogueError,
  createCatalogue,
  loadCatalogue,
  readBrandFiles,
  type Brand,
} from "./index.ts";
import { buildModelIndex, searchModels } from "./search.ts";

const ORIGIN = "https://www.atelier.example";
/** The parsed data files, in `data/brands.json` order, before validation. */
const rawBrands = await readBrandFiles();

/** An example brand file, as a newcomer would write `data/lenovo-tablet.json`. */
const lenovo = {
  slug: "lenovo-tablet",
  name: "Lenovo",
  title: "Réparation tablette Lenovo",
  description: "Nous réparons les tablettes Lenovo Tab P et Tab M.",
  family: "tablet",
  path: "/services/lenovo-tablet-repair",
  priceSource: "shop",
  series: [
    {
      name: "Série Tab P",
      slug: "serie-lenovo-tab-p",
      models: [
        { name: "Tab P11", slug: "lenovo-tab-p11", prices: { ecran: 189, batterie: 79, connecteur: 69, camera: 89 } },
      ],
    },
  ],
};

/** Everything the site derives from a brand list, as a visitor or a crawler would meet it. */
function site(list: readonly Brand[]) {
  const paths = prerenderedPaths(list);
  const tablets = categoryPageData("tablet", list);
  const matches = [{ id: "root", loaderData: { env: { PUBLIC_URL: ORIGIN } } }];
  const meta = tabletRoute.meta({ matches, loaderData: tablets } as never) as Record<string, string>[];
  const tabletMeta = meta.find((d) => d.name === "description")?.content ?? "";
  return {
    paths,
    sitemap: sitemapXml(ORIGIN, paths),
    tabletCards: tablets.brands.map((card) => card.name),
    tabletMeta,
    /** The brand names of the tablet page's meta text, in its order. */
    tabletMetaNames: /^Réparation de tablettes (.+?) : /u.exec(tabletMeta)?.[1]?.split(/, | et /u) ?? [],
    tabletPaths: list.filter((brand) => brand.family === "tablet").map((brand) => brand.path),
    search: (query: string) => searchModels(buildModelIndex(list), query).hits,
  };
}

describe("a brand added to the data", () => {
  const withLenovo = loadCatalogue([...rawBrands, lenovo]);
  const now = site(brands);
  const after = site(withLenovo);

  it("gets its page pre-rendered after the other tablets, and a sitemap entry", () => {
    const at = now.paths.indexOf(now.tabletPaths.at(-1)!) + 1;
    expect(after.paths).toEqual([...now.paths.slice(0, at), "/services/lenovo-tablet-repair", ...now.paths.slice(at)]);
    expect(after.sitemap).toContain(`<loc>${ORIGIN}/services/lenovo-tablet-repair</loc>`);
  });

  it("gets a card on its category page and a place in the page's meta text", () => {
    expect(after.tabletCards).toEqual([...now.tabletCards, "Lenovo"]);
    expect(after.tabletMetaNames).toEqual([...now.tabletMetaNames, "Lenovo"]);
    expect(after.tabletMeta).toMatch(/, [^,]+ et Lenovo : écran/u);
  });

  it("gets its own page data and is found by the model finder at its price", () => {
    const brand = createCatalogue(withLenovo).getBrandByPath("/services/lenovo-tablet-repair");
    expect(brand && brandPageData(brand).brand.series[0]?.models[0]?.repairs[0]?.text).toMatch(/^à partir de 189\s€$/u);
    const [hit] = after.search("lenovo p11 ecran");
    expect(hit?.href).toBe("/services/lenovo-tablet-repair#lenovo-tab-p11");
    expect(hit?.repairs[0]).toMatchObject({ id: "ecran", euros: 189, matched: true });
    expect(now.search("lenovo p11 ecran").map((h) => h.slug)).not.toContain("lenovo-tab-p11");
  });

  it("is validated like the others", () => {
    const broken = { ...lenovo, path: "/services/lenovo-repair" };
    expect(() => loadCatalogue([...rawBrands, broken])).toThrow(/marque « lenovo-tablet » — path/u);
    const clash = { ...lenovo, metaRank: 1 };
    expect(() => loadCatalogue([...rawBrands, clash])).toThrow(/metaRank 1 déjà pris/u);
  });
});

describe("a brand taken out of the data", () => {
  const before = site(brands);
  const after = site(brands.filter((brand) => brand.slug !== "sony-tablet"));

  it("leaves the paths, the sitemap, its category page, its meta text and the finder", () => {
    expect(before.paths).toContain("/services/sony-tablet-repair");
    expect(after.paths).toEqual(before.paths.filter((path) => path !== "/services/sony-tablet-repair"));
    expect(after.sitemap).not.toContain("sony-tablet");
    expect(after.tabletCards).not.toContain("Sony");
    expect(before.tabletMetaNames).toContain("Sony");
    expect(after.tabletMetaNames).toEqual(before.tabletMetaNames.filter((name) => name !== "Sony"));
    expect(before.search("xperia z4 tablet")[0]?.brandSlug).toBe("sony-tablet");
    expect(after.search("xperia z4 tablet").map((hit) => hit.brandSlug)).not.toContain("sony-tablet");
  });
});

describe("the default brand list", () => {
  it("is the data: brands.json names every data file once, in the order of the brands", () => {
    const files = readdirSync(new URL("./data/", import.meta.url))
      .filter((name) => name.endsWith(".json") && name !== "brands.json")
      .map((name) => name.replace(/\.json$/u, ""));
    expect([...brandSlugs()].sort()).toEqual(files.sort());
    expect(brands.map((brand) => brand.slug)).toEqual(brandSlugs());
  });

  it("drives the site's pre-rendered paths", () => {
    expect(PRERENDERED_PATHS).toEqual(prerenderedPaths(brands));
    expect(cataloguePaths(brands)).toHaveLength(4 + brands.length);
  });

  it("refuses a manifest naming a brand twice or a missing file", async () => {
    expect(() => brandSlugs({ brands: ["ipad", "ipad"] })).toThrow(/en double : ipad/u);
    expect(() => brandSlugs({ brands: ["ipad"], extra: 1 })).toThrow(CatalogueError);
    await expect(readBrandFiles(["ipad", "marque-absente"])).rejects.toThrow(/data\/marque-absente\.json/u);
  });
});
