/**
 * Console repair hub /services/console-repair (repair catalogue §2): a tile
 * per console brand of the catalogue data (spec §2: PlayStation, Xbox and
 * Nintendo) with the generations each covers (its data file's
 * `generations`), trust blocks (original parts, fast service, 12-month
 * warranty) and the call 'Besoin d'une réparation ?' offering a free
 * diagnosis, linking to /contact.
 */
import type { Route } from "./+types/services.console-repair";
import { CatalogueJsonLd } from "#app/components/catalogue/json-ld.tsx";
import { REPAIR_TRUST, PromiseGrid } from "#app/components/catalogue/promise-grid.tsx";
import { FeatureCard } from "#app/components/ui/card.tsx";
import { FinderSection } from "#app/components/finder/finder-section.tsx";
import { CtaBanner, PageHero, Section } from "#app/components/ui/section.tsx";
import { repairIcons } from "#app/config/repair-categories.ts";
import { categoryPageData } from "#app/utils/catalogue-pages.server.ts";
import { catalogueOf } from "#app/catalogue/context.ts";
import { getMeta } from "#app/utils/meta.ts";
import { CATALOGUE_CATEGORIES, catalogueTrail } from "#app/utils/structured-data.ts";
import { ISLANDS_HANDLE } from "#app/islands/names.ts";

const category = CATALOGUE_CATEGORIES.console;

/** Only the tiles and the meta text's brand names reach the page, not the catalogue's models and prices. */
export function loader({ context }: Route.LoaderArgs) {
  // Issue 29: the server's current catalogue (the JSON seed without a server).
  return categoryPageData("console", catalogueOf(context).brands);
}

/** No hydration: the islands script only (issue 16, docs/decisions/013). */
export const handle = ISLANDS_HANDLE;

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  getMeta(matches, {
    title: `Réparation console ${loaderData.brandNames}`,
    description: `Réparation de consoles ${loaderData.brandNames} : lecteur, port HDMI, alimentation, ventilateur, écran. Diagnostic gratuit et garantie 12 mois.`,
    path: category.path,
  });

/** Spec §2 "Console repair hub". */
export default function ConsoleRepair({ loaderData }: Route.ComponentProps) {
  const Icon = repairIcons.gamepad;
  return (
    <>
      <CatalogueJsonLd trail={catalogueTrail(category)} />
      <PageHero
        title="Réparation console"
        subtitle="Lecteur qui ne lit plus, port HDMI abîmé, surchauffe ou écran cassé : nous réparons vos consoles de salon et portables."
      />
      <FinderSection family="console" />
      <Section
        title="Choisissez votre console"
        intro="Consultez nos tarifs de réparation par console et par génération."
      >
        <ul className="grid gap-6 md:grid-cols-3">
          {loaderData.brands.map((brand) => (
            <li key={brand.slug} className="flex">
              <FeatureCard className="w-full" icon={<Icon className="size-6" />} title={brand.name} to={brand.path}>
                <p className="font-semibold text-sky-200">{brand.generations}</p>
                <p className="mt-2">{brand.description}</p>
              </FeatureCard>
            </li>
          ))}
        </ul>
      </Section>
      <PromiseGrid title="Nos engagements" items={REPAIR_TRUST} />
      <CtaBanner
        title="Besoin d'une réparation&nbsp;?"
        text="Le diagnostic est gratuit : apportez-nous votre console ou contactez-nous pour un devis."
        to="/contact"
        label="Demander un diagnostic gratuit"
      />
    </>
  );
}
