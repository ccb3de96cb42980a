/**
 * New and refurbished smartphones /products/smartphones (spec §2
 * "/products/smartphones"): included services, premium support (24-month
 * warranty extendable to 36, 24h assistance, spec §9), additional services
 * (7/7 priority support, spec §9) and the "Envie d'un nouveau smartphone ?"
 * link to /contact.
 */
import type { Route } from "./+types/products.smartphones";
import { FeatureGrid } from "#app/components/ui/card.tsx";
import { CtaBanner, PageHero, Section } from "#app/components/ui/section.tsx";
import {
  SMARTPHONE_ADDITIONAL,
  SMARTPHONE_INCLUDED,
  SMARTPHONE_PREMIUM,
  SMARTPHONE_TERMS,
} from "#app/content/sales.ts";
import { getMeta } from "#app/utils/meta.ts";
import { ISLANDS_HANDLE } from "#app/islands/names.ts";

const { warranty, extendedWarranty, assistanceDelay, priorityDays } = SMARTPHONE_TERMS;

/** No hydration: the islands script only (issue 16, docs/decisions/013). */
export const handle = ISLANDS_HANDLE;

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "Smartphones neufs et reconditionnés",
    description: `Smartphones neufs et reconditionnés, configurés avec transfert de données : garantie ${warranty} extensible à ${extendedWarranty}, assistance sous ${assistanceDelay}, support ${priorityDays}.`,
    path: "/products/smartphones",
  });

/** The new and refurbished smartphones page (spec §2 "/products/smartphones"). */
export default function ProductsSmartphonesPage() {
  return (
    <>
      <PageHero
        title="Smartphones neufs et reconditionnés"
        subtitle="Les grandes marques, neuves ou reconditionnées, configurées pour vous et suivies par notre équipe."
      />

      <Section title="Services inclus" intro="Avec chaque smartphone acheté chez nous, sans supplément.">
        <FeatureGrid items={SMARTPHONE_INCLUDED} />
      </Section>

      <Section title="Support premium" intro="Un accompagnement dans la durée, bien après l'achat.">
        <FeatureGrid items={SMARTPHONE_PREMIUM} className="lg:grid-cols-3" />
      </Section>

      <Section title="Services additionnels" intro="Pour protéger votre appareil et équiper votre entreprise.">
        <FeatureGrid items={SMARTPHONE_ADDITIONAL} className="lg:grid-cols-3" />
      </Section>

      <CtaBanner
        title="Trouvons ensemble le smartphone idéal"
        text="Photo, autonomie, budget : dites-nous ce qui compte pour vous."
        to="/contact"
        label="Envie d'un nouveau smartphone ?"
      />
    </>
  );
}
