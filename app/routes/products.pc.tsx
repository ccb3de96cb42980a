/**
 * New and refurbished PCs /products/pc (spec §2 "/products/pc"): included
 * services, premium support (warranty up to 3 years with extension, spec §9),
 * professional services (4h business intervention, spec §9) and the
 * "Besoin d'un nouveau PC ?" link to /contact.
 */
import type { Route } from "./+types/products.pc";
import { FeatureGrid } from "#app/components/ui/card.tsx";
import { CtaBanner, PageHero, Section } from "#app/components/ui/section.tsx";
import { formatHours, formatYears, salesPromises } from "#app/config/sales-promises.ts";
import { PC_INCLUDED, PC_PREMIUM, PC_PROFESSIONAL } from "#app/content/sales.ts";
import { getMeta } from "#app/utils/meta.ts";
import { ISLANDS_HANDLE } from "#app/islands/names.ts";

/** No hydration: the islands script only (issue 16, docs/decisions/013). */
export const handle = ISLANDS_HANDLE;

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "PC neufs et reconditionnés",
    description: `PC neufs et reconditionnés livrés configurés, transfert de vos données, garantie jusqu'à ${formatYears(salesPromises.pcWarrantyMaxYearsWithExtension)} et services pro : installation sur site, intervention sous ${formatHours(salesPromises.businessInterventionHours)}.`,
    path: "/products/pc",
  });

/** The new and refurbished PCs page (spec §2 "/products/pc"). */
export default function ProductsPcPage() {
  return (
    <>
      <PageHero
        title="PC neufs et reconditionnés"
        subtitle="Des ordinateurs fiables, prêts à l'emploi et accompagnés d'un service complet, du premier démarrage à la maintenance."
      />

      <Section title="Services inclus" intro="Avec chaque PC acheté chez nous, sans supplément.">
        <FeatureGrid items={PC_INCLUDED} />
      </Section>

      <Section title="Support premium" intro="Un accompagnement dans la durée, bien après l'achat.">
        <FeatureGrid items={PC_PREMIUM} className="lg:grid-cols-3" />
      </Section>

      <Section title="Services professionnels" intro="Pour les entreprises, les commerces et les indépendants.">
        <FeatureGrid items={PC_PROFESSIONAL} />
      </Section>

      <CtaBanner
        title="Trouvons ensemble le PC qu'il vous faut"
        text="Bureautique, création, jeu ou usage professionnel : dites-nous ce que vous en attendez."
        to="/contact"
        label="Besoin d'un nouveau PC ?"
      />
    </>
  );
}
