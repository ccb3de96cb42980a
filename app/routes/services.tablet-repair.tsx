/**
 * Tablet brand index /services/tablet-repair (repair catalogue §2): hero,
 * the tablet brand cards of the catalogue data (spec §2: nine), each linking
 * to its brand page, the benefit block
 * (original parts, fast repair, 12-month warranty) and the 'Contactez-nous'
 * banner to /contact.
 */
import type { Route } from "./+types/services.tablet-repair";
import { BrandIndex } from "#app/components/catalogue/brand-index.tsx";
import { CatalogueJsonLd } from "#app/components/catalogue/json-ld.tsx";
import { categoryPageData } from "#app/utils/catalogue-pages.server.ts";
import { catalogueOf } from "#app/catalogue/context.ts";
import { getMeta } from "#app/utils/meta.ts";
import { CATALOGUE_CATEGORIES, catalogueTrail } from "#app/utils/structured-data.ts";
import { ISLANDS_HANDLE } from "#app/islands/names.ts";

const category = CATALOGUE_CATEGORIES.tablet;

/** Only the brand cards and the meta text's brand names reach the page, not the catalogue's models and prices. */
export function loader({ context }: Route.LoaderArgs) {
  // Issue 29: the server's current catalogue (the JSON seed without a server).
  return categoryPageData("tablet", catalogueOf(context).brands);
}

/** No hydration: the islands script only (issue 16, docs/decisions/013). */
export const handle = ISLANDS_HANDLE;

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  getMeta(matches, {
    title: "Réparation tablette : tarifs par marque",
    description: `Réparation de tablettes ${loaderData.brandNames} : écran, batterie, connecteur, caméra. Diagnostic gratuit.`,
    path: category.path,
  });

/** Spec §2 "Tablet brand index". */
export default function TabletRepair({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <CatalogueJsonLd trail={catalogueTrail(category)} />
      <BrandIndex
        title="Réparation tablette"
        subtitle="Écran, batterie, connecteur ou caméra : nous réparons votre tablette, le plus souvent en 1 heure sur place."
        brandsTitle="Quelle est la marque de votre tablette&nbsp;?"
        brands={loaderData.brands}
        finderFamily="tablet"
        icon="tablet"
        ctaTitle="Une question sur la réparation de votre tablette&nbsp;?"
        ctaText="Le diagnostic est gratuit : contactez-nous pour un devis précis."
      />
    </>
  );
}
