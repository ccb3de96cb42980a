/**
 * Gaming and virtual reality /gaming-vr (spec §2 "Gaming and virtual
 * reality"): four cards and the "Prêt à passer au niveau supérieur ?"
 * call-to-action.
 */
import type { Route } from "./+types/gaming-vr";
import { FeatureGrid } from "#app/components/ui/card.tsx";
import { CtaBanner, PageHero, Section } from "#app/components/ui/section.tsx";
import { GAMING_VR_CARDS } from "#app/content/offers.ts";
import { getMeta } from "#app/utils/meta.ts";
import { ISLANDS_HANDLE } from "#app/islands/names.ts";

/** No hydration: the islands script only (issue 16, docs/decisions/013). */
export const handle = ISLANDS_HANDLE;

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "Gaming et réalité virtuelle : PC et simulateurs sur mesure",
    description:
      "PC gaming sur mesure, setups complets de simulation automobile et aéronautique, performances maximales et réalité virtuelle immersive avec retour haptique.",
    path: "/gaming-vr",
  });

/** The gaming and virtual reality page (spec §2 "Gaming and virtual reality (/gaming-vr)"). */
export default function GamingVrPage() {
  return (
    <>
      <PageHero
        title="Gaming et Réalité Virtuelle"
        subtitle="Des configurations sur mesure pour jouer, piloter et s'immerger comme jamais."
      />

      <Section
        title="Nos configurations gaming et VR"
        intro="Du PC de jeu au simulateur complet, nous concevons, installons et réglons votre équipement."
      >
        <FeatureGrid items={GAMING_VR_CARDS} />
      </Section>

      <CtaBanner
        title="Prêt à passer au niveau supérieur ?"
        text="Décrivez-nous votre projet : nous vous proposons la configuration adaptée."
        to="/contact"
        label="Nous contacter"
      />
    </>
  );
}
