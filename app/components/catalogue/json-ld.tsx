/**
 * JSON-LD of a catalogue page (issue 3): a `<script type="application/ld+json">`
 * rendered in the page, built from PUBLIC_URL (root loader data) and the
 * page's own data.
 */
import { useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "#app/root.tsx";
import { useShop } from "#app/shop/use-shop.ts";
import { cataloguePageGraph, serializeJsonLd, type Crumb, type OfferSource } from "#app/utils/structured-data.ts";

/** The site's canonical origin (PUBLIC_URL), as the root loader gives it to every page. */
export function usePublicUrl(): string {
  const data = useRouteLoaderData<typeof rootLoader>("root");
  // Same rule as getMeta(): a page without the root loader's PUBLIC_URL is a bug, not a fallback case.
  if (!data) throw new Error("JSON-LD : PUBLIC_URL introuvable dans les données du loader racine");
  return data.env.PUBLIC_URL;
}

type Props = {
  /** Breadcrumb from Accueil to this page (see `catalogueTrail`). */
  trail: readonly Crumb[];
  /** On a brand page: the brand whose repairs become offers. */
  brand?: OfferSource;
};

/**
 * The breadcrumb, the shop as an `ElectronicsStore` and, on brand pages, one
 * `Offer` per repair (minimum price in whole euros, taxes included).
 */
export function CatalogueJsonLd({ trail, brand }: Props) {
  const origin = usePublicUrl();
  // Issue 29: the identity of this render (« Boutique »), so a change shows in the JSON-LD too.
  const shop = useShop();
  return (
    <script
      type="application/ld+json"
      // serializeJsonLd escapes "<", ">" and "&", so the data cannot close or alter the element.
      dangerouslySetInnerHTML={{ __html: serializeJsonLd(cataloguePageGraph(origin, shop, trail, brand)) }}
    />
  );
}
