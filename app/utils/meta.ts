/**
 * `getMeta()`: the one helper for titles, descriptions and canonical URLs
 * (issue 2). Each public route's `meta` export calls it, so every page gets a
 * unique `<title>`, a description and a canonical URL built from `PUBLIC_URL`
 * (read by the root loader, which is the only place it comes from).
 */
import type { MetaDescriptor } from "react-router";
import { defaultShop, type ShopIdentity } from "#app/config/shop.ts";

type MatchLike = { id: string; loaderData?: unknown } | undefined;

/** Reads PUBLIC_URL from the root loader's data; throws if the root loader is missing. */
export function publicUrlFromMatches(matches: readonly MatchLike[]): string {
  const root = matches.find((match) => match?.id === "root")?.loaderData;
  if (root && typeof root === "object" && "env" in root) {
    const env = (root as { env: { PUBLIC_URL?: unknown } }).env;
    if (typeof env.PUBLIC_URL === "string") return env.PUBLIC_URL;
  }
  throw new Error("getMeta: PUBLIC_URL introuvable dans les données du loader racine");
}

/** Issue 29: the shop's identity of the root loader's data (« Boutique »), or the defaults. */
export function shopFromMatches(matches: readonly MatchLike[]): ShopIdentity {
  const root = matches.find((match) => match?.id === "root")?.loaderData;
  const shop = root && typeof root === "object" && "shop" in root ? (root as { shop?: ShopIdentity }).shop : undefined;
  return shop ?? defaultShop;
}

export type PageMeta = {
  /** Page title, without the shop name (added here). */
  title: string;
  /** 50–160 characters for search results. */
  description: string;
  /** Path of the canonical URL, e.g. "/contact". */
  path: string;
  /** Set for pages that must not be indexed (signed-in area). */
  noindex?: boolean;
};

/**
 * Meta descriptors for one page.
 * @param matches the `matches` argument of a route's `meta` function.
 */
export function getMeta(matches: readonly MatchLike[], page: PageMeta): MetaDescriptor[] {
  const canonical = new URL(page.path, publicUrlFromMatches(matches)).href;
  const shop = shopFromMatches(matches);
  const title = page.path === "/" ? `${shop.name} – ${shop.tagline}` : `${page.title} | ${shop.name}`;
  const descriptors: MetaDescriptor[] = [
    { title },
    { name: "description", content: page.description },
    { tagName: "link", rel: "canonical", href: canonical },
    { property: "og:title", content: title },
    { property: "og:description", content: page.description },
    { property: "og:url", content: canonical },
    { property: "og:type", content: "website" },
    { property: "og:locale", content: "fr_FR" },
    { property: "og:site_name", content: shop.name },
  ];
  if (page.noindex) descriptors.push({ name: "robots", content: "noindex" });
  return descriptors;
}
