/**
 * Professional solutions /solutions-pro (spec §2 "Professional solutions"):
 * four cards (IT fleet management, web solutions, infrastructure, telephony)
 * and the "Prêt à optimiser votre entreprise ?" call-to-action.
 */
import type { Route } from "./+types/solutions-pro";
import { FeatureGrid } from "#app/components/ui/card.tsx";
import { CtaBanner, PageHero, Section } from "#app/components/ui/section.tsx";
import { SOLUTIONS_PRO_CARDS } from "#app/content/offers.ts";
import { getMeta } from "#app/utils/meta.ts";
import { ISLANDS_HANDLE } from "#app/islands/names.ts";

/** No hydration: the islands script only (issue 16, docs/decisions/013). */
export const handle = ISLANDS_HANDLE;

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "Solutions informatiques pour les entreprises",
    description:
      "Gestion de parc informatique, noms de domaine, applications et messagerie professionnelle, infrastructure réseau et téléphonie pour les entreprises.",
    path: "/solutions-pro",
  });

/** The professional solutions page (spec §2 "Professional solutions (/solutions-pro)"). */
export default function SolutionsProPage() {
  return (
    <>
      <PageHero
        title="Solutions professionnelles"
        subtitle="Un partenaire informatique de proximité pour équiper, sécuriser et faire grandir votre entreprise."
      />

      <Section
        title="Nos solutions pour les entreprises"
        intro="Indépendants, commerces, PME : nous adaptons chaque solution à votre activité et à votre budget."
      >
        <FeatureGrid items={SOLUTIONS_PRO_CARDS} list={false} />
      </Section>

      <CtaBanner
        title="Prêt à optimiser votre entreprise ?"
        text="Parlons de vos besoins : nous établissons avec vous une solution sur mesure."
        to="/contact"
        label="Nous contacter"
      />
    </>
  );
}
