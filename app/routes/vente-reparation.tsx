/**
 * "Vente et réparation" /vente-reparation (spec §2 route table "Sales and
 * repair (listed route)"), built on the spec's older variant of the sales hub:
 * four feature cards and a contact call-to-action, plus links to /sales and
 * /repair.
 */
import type { Route } from "./+types/vente-reparation";
import { ButtonLink } from "#app/components/ui/button.tsx";
import { FeatureGrid } from "#app/components/ui/card.tsx";
import { CtaBanner, PageHero, Section } from "#app/components/ui/section.tsx";
import { VENTE_REPARATION_FEATURES } from "#app/content/sales.ts";
import { getMeta } from "#app/utils/meta.ts";
import { ISLANDS_HANDLE } from "#app/islands/names.ts";

/** No hydration: the islands script only (issue 16, docs/decisions/013). */
export const handle = ISLANDS_HANDLE;

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "Vente et réparation informatique",
    description:
      "Vente de produits neufs préinstallés et reconditionnés premium, réparation professionnelle de PC, smartphones, tablettes et consoles : un service rapide.",
    path: "/vente-reparation",
  });

/** The "Vente et réparation" page (spec §2, older variant of the sales hub). */
export default function VenteReparationPage() {
  return (
    <>
      <PageHero
        title="Vente et réparation"
        subtitle="Du neuf, du reconditionné premium et un atelier de réparation : tout votre matériel informatique au même endroit."
      >
        <ButtonLink to="/sales">Découvrir notre sélection</ButtonLink>
        <ButtonLink to="/repair" variant="secondary">
          Faire réparer un appareil
        </ButtonLink>
      </PageHero>

      <Section title="Pourquoi nous choisir ?">
        <FeatureGrid items={VENTE_REPARATION_FEATURES} columns="sm:grid-cols-2 lg:grid-cols-4" />
      </Section>

      <CtaBanner
        title="Un achat ou une réparation en vue ?"
        text="Décrivez-nous votre besoin : nous vous répondons avec un conseil ou un devis adapté."
        to="/contact"
        label="Nous contacter"
      />
    </>
  );
}
