/**
 * Every public route that is pre-rendered at build time (issue 2). The build
 * (react-router.config.ts), the sitemap (`sitemapXml`, served by
 * app/routes/sitemap.xml.ts, which adds the indexed server-rendered pages)
 * and the e2e tests read this list.
 *
 * The repair catalogue's part follows the brand list of the catalogue data
 * (issue 14): adding or removing a data file adds or removes its page here,
 * in the sitemap and in the build, with no path written by hand.
 */
import { brands, brandsInCategory, CATEGORIES, categoryPath, type Brand } from "#app/catalogue/index.ts";

/** The public pages outside the repair catalogue, in site order. */
const SITE_PATHS = [
  "/",
  "/contact",
  "/dev-web",
  "/mentions-legales",
  "/vente-reparation",
  "/sales",
  "/assistance-informatique",
  "/solutions-pro",
  "/gaming-vr",
  "/products/pc",
  "/products/smartphones",
  "/repair",
] as const;

/**
 * The repair catalogue's pages in the order of spec §2: the PC page, then
 * each category page followed by its brand pages in the order of `brands`.
 */
export function cataloguePaths(brandList: readonly Brand[]): string[] {
  return [
    "/services/pc-repair",
    ...CATEGORIES.flatMap((category) => [
      categoryPath(category),
      ...brandsInCategory(brandList, category).map((b) => b.path),
    ]),
  ];
}

/** Every pre-rendered path for a brand list: the site's pages, then the catalogue's. */
export function prerenderedPaths(brandList: readonly Brand[]): string[] {
  return [...SITE_PATHS, ...cataloguePaths(brandList)];
}

/** The pre-rendered paths of the site, for the catalogue of the data files. */
export const PRERENDERED_PATHS: readonly string[] = prerenderedPaths(brands);

/**
 * Pages rendered per request that search engines may index: the signed-out
 * /soft-assist, the entry to remote support and the desktop app
 * (docs/decisions/014); booking a repair and following it (issue 18).
 */
export const INDEXED_SERVER_PATHS: readonly string[] = ["/soft-assist", "/rendez-vous", "/suivi"];

/** What the sitemap lists: the pre-rendered pages, then the indexed server-rendered ones. */
export const SITEMAP_PATHS: readonly string[] = [...PRERENDERED_PATHS, ...INDEXED_SERVER_PATHS];

/**
 * The sitemap (sitemaps.org 0.9): one `<loc>` per path, absolute on
 * `origin` (PUBLIC_URL, e.g. "https://www.atelier.fr"), in the order given.
 */
export function sitemapXml(origin: string, paths: readonly string[] = SITEMAP_PATHS): string {
  const urls = paths.map((path) => `  <url><loc>${new URL(path, origin).href}</loc></url>`).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}
