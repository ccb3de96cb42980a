/**
 * IT assistance page /assistance-informatique (spec §2 "IT assistance page"):
 * in-store and remote support cards, two reassurance blocks and the
 * "Besoin d'aide ?" call-to-action.
 */
import type { Route } from "./+types/assistance-informatique";
import { FeatureGrid } from "#app/components/ui/card.tsx";
import { CtaBanner, PageHero, Section } from "#app/components/ui/section.tsx";
import { ASSISTANCE_GUARANTEES, ASSISTANCE_WAYS } from "#app/content/offers.ts";
import { getMeta } from "#app/utils/meta.ts";
import { ISLANDS_HANDLE } from "#app/islands/names.ts";

/** No hydration: the islands script only (issue 16, docs/decisions/013). */
export const handle = ISLANDS_HANDLE;

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "Assistance informatique en magasin ou à distance",
    description:
      "Support technique professionnel en magasin ou à distance : diagnostic matériel complet, réparation sur place, intervention rapide et sécurisée.",
    path: "/assistance-informatique",
  });

/** The IT assistance page (spec §2 "IT assistance page (/assistance-informatique)"). */
export default function AssistanceInformatiquePage() {
  return (
    <>
      <PageHero title="Assistance informatique" subtitle="Support technique professionnel en magasin ou à distance" />

      <Section
        title="Deux façons de vous dépanner"
        intro="Venez nous voir avec votre appareil, ou laissez un technicien intervenir directement sur votre ordinateur."
      >
        <FeatureGrid items={ASSISTANCE_WAYS} list={false} />
      </Section>

      <Section title="Nos garanties">
        <FeatureGrid items={ASSISTANCE_GUARANTEES} list={false} />
      </Section>

      <CtaBanner
        title="Besoin d'aide ?"
        text="Décrivez votre problème : nous vous proposons la solution la plus rapide, en magasin ou à distance."
        to="/contact"
        label="Nous contacter"
      />
    </>
  );
}
