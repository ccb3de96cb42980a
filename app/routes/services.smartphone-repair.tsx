/**
 * Smartphone brand index /services/smartphone-repair (repair catalogue §2):
 * hero, the smartphone brand cards of the catalogue data (spec §2: ten,
 * Apple first) each linking to its brand page,
 * the benefit block (original parts, fast repair, 12-month warranty) and
 * the 'Contactez-nous' banner to /contact.
 */
import type { Route } from "./+types/services.smartphone-repair";
import { BrandIndex } from "#app/components/catalogue/brand-index.tsx";
import { CatalogueJsonLd } from "#app/components/catalogue/json-ld.tsx";
import { categoryPageData } from "#app/utils/catalogue-pages.server.ts";
import { catalogueOf } from "#app/catalogue/context.ts";
import { getMeta } from "#app/utils/meta.ts";
import { CATALOGUE_CATEGORIES, catalogueTrail } from "#app/utils/structured-data.ts";
import { ISLANDS_HANDLE } from "#app/islands/names.ts";

const category = CATALOGUE_CATEGORIES.smartphone;

/** Only the brand cards and the meta text's brand names reach the page, not the catalogue's models and prices. */
export function loader({ context }: Route.LoaderArgs) {
  // Issue 29: the server's current catalogue (the JSON seed without a server).
  return categoryPageData("smartphone", catalogueOf(context).brands);
}

/** No hydration: the islands script only (issue 16, docs/decisions/013). */
export const handle = ISLANDS_HANDLE;

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  getMeta(matches, {
    title: "Réparation smartphone : tarifs par marque",
    description: `Réparation de smartphones ${loaderData.brandNames} : écran, batterie, caméra. Diagnostic gratuit, Express 1H.`,
    path: category.path,
  });

/** Spec §2 "Smartphone brand index". */
export default function SmartphoneRepair({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <CatalogueJsonLd trail={catalogueTrail(category)} />
      <BrandIndex
        title="Réparation smartphone"
        subtitle="Écran cassé, batterie fatiguée, vitre arrière, connecteur ou caméra : nous réparons votre smartphone, le plus souvent en 1 heure sur place."
        brandsTitle="Quelle est la marque de votre smartphone&nbsp;?"
        brands={loaderData.brands}
        icon="smartphone"
        finderFamily={["smartphone", "iphone"]}
        ctaTitle="Une question sur la réparation de votre smartphone&nbsp;?"
        ctaText="Le diagnostic est gratuit : contactez-nous pour un devis précis."
      />
    </>
  );
}
