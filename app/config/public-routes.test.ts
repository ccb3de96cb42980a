/** The pre-rendered path list covers the whole repair catalogue (repair catalogue §2; issues 3 and 14). */
import { describe, expect, it } from "vitest";
import { brands } from "#app/catalogue/index.ts";
import { PRERENDERED_PATHS, sitemapXml } from "./public-routes";

const listed: readonly string[] = PRERENDERED_PATHS;

describe("PRERENDERED_PATHS", () => {
  it("holds every catalogue brand page", () => {
    for (const brand of brands) expect(listed, brand.slug).toContain(brand.path);
  });

  it("holds the four category pages, each followed by its brand pages in spec §2 order", () => {
    const at = (path: string) => listed.indexOf(path);
    expect(at("/services/pc-repair")).toBeGreaterThan(at("/repair"));
    expect(listed.slice(at("/services/smartphone-repair"), at("/services/smartphone-repair") + 3)).toEqual([
      "/services/smartphone-repair",
      "/services/iphone-repair",
      "/services/samsung-repair",
    ]);
    expect(listed[at("/services/tablet-repair") + 1]).toBe("/services/acer-tablet-repair");
    expect(listed.slice(at("/services/console-repair"))).toEqual([
      "/services/console-repair",
      "/services/playstation-repair",
      "/services/xbox-repair",
      "/services/nintendo-repair",
    ]);
  });

  it("lists under /services/ exactly the four category pages and one page per brand", () => {
    expect(listed.filter((path) => path.startsWith("/services/"))).toHaveLength(4 + brands.length);
  });

  it("has no duplicate", () => {
    expect(new Set(listed).size).toBe(listed.length);
  });
});

describe("sitemapXml", () => {
  it("gives every pre-rendered path, then /soft-assist, /rendez-vous and /suivi, as absolute URLs on the origin, in order", () => {
    const xml = sitemapXml("https://www.atelier.example");
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">\n/u,
    );
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/gu)].map((match) => match[1]);
    expect(locs).toEqual(
      [...listed, "/soft-assist", "/rendez-vous", "/suivi"].map(
        (path) => new URL(path, "https://www.atelier.example").href,
      ),
    );
    expect(locs).toContain("https://www.atelier.example/services/iphone-repair");
  });
});
