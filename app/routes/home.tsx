/**
 * Home page (spec §2 "Home"): hero with a contact call-to-action, the four
 * repair categories, three professional solutions, three trust points and a
 * final call-to-action to /contact. Repair promises: repair catalogue §1.
 */
import type { Route } from "./+types/home";
import { RepairCategoryGrid } from "#app/components/catalogue/repair-category-grid.tsx";
import { RepairPromisesCard } from "#app/components/catalogue/repair-promises-card.tsx";
import { FinderSection } from "#app/components/finder/finder-section.tsx";
import { ButtonLink } from "#app/components/ui/button.tsx";
import { bookingPath } from "#app/booking/paths.ts";
import { FeatureGrid } from "#app/components/ui/card.tsx";
import { CtaBanner, PageHero, Section } from "#app/components/ui/section.tsx";
import { HOME_PRO_SOLUTIONS, HOME_TRUST_POINTS } from "#app/content/offers.ts";
import { REPAIR_WARRANTY } from "#app/config/sales-promises.ts";
import { getMeta } from "#app/utils/meta.ts";
import { ISLANDS_HANDLE } from "#app/islands/names.ts";

/** No hydration: the islands script only (issue 16, docs/decisions/013). */
export const handle = ISLANDS_HANDLE;

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "Accueil",
    description:
      "Réparation de PC, smartphones, tablettes et consoles : diagnostic gratuit, garantie 12 mois avec pièces d'origine et réparation express en 1 heure.",
    path: "/",
  });

/** Spec §2 "Home". */
export default function Home() {
  return (
    <>
      <PageHero
        title="Réparation, vente et assistance informatique près de chez vous"
        subtitle="PC, smartphones, tablettes et consoles réparés sur place, appareils neufs et reconditionnés, sites web et solutions pour les professionnels."
        media={<RepairPromisesCard heading="Nos engagements réparation" />}
      >
        <ButtonLink to={bookingPath()} size="lg">
          Prendre rendez-vous
        </ButtonLink>
        <ButtonLink to="/contact" size="lg" variant="secondary">
          Nous contacter
        </ButtonLink>
        <ButtonLink to="/repair" size="lg" variant="secondary">
          Découvrir nos réparations
        </ButtonLink>
      </PageHero>

      <FinderSection />

      <Section
        id="reparations"
        title="Nos services de réparation"
        intro={`Choisissez votre appareil : diagnostic gratuit, et une garantie de ${REPAIR_WARRANTY}.`}
      >
        <RepairCategoryGrid />
      </Section>

      <Section
        title="Solutions pour les professionnels"
        intro="Au-delà de la réparation, nous accompagnons les entreprises et les indépendants dans leurs projets numériques."
      >
        <FeatureGrid items={HOME_PRO_SOLUTIONS} columns="md:grid-cols-3" />
      </Section>

      <Section title="Pourquoi nous faire confiance&nbsp;?">
        <FeatureGrid items={HOME_TRUST_POINTS} columns="md:grid-cols-3" />
      </Section>

      <CtaBanner
        title="Un appareil en panne&nbsp;?"
        text="Le diagnostic est gratuit et la plupart des réparations sont faites en 1 heure sur place."
        to="/contact"
        label="Demander un diagnostic gratuit"
      />
    </>
  );
}
