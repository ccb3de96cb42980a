/**
 * A category page listing brands (repair catalogue §2: the smartphone and
 * tablet brand indexes): hero, one card per brand linking to its page,
 * the three-point benefit block and a 'Contactez-nous' banner to /contact.
 */
import { FinderSection } from "#app/components/finder/finder-section.tsx";
import type { Family } from "#app/catalogue/schema.ts";
import { FeatureCard } from "#app/components/ui/card.tsx";
import { CtaBanner, PageHero, Section } from "#app/components/ui/section.tsx";
import { repairIcons, type RepairIconName } from "#app/config/repair-categories.ts";
import type { BrandCard } from "#app/utils/catalogue-pages.server.ts";
import { INDEX_BENEFITS, PromiseGrid } from "./promise-grid";

type Props = {
  title: string;
  subtitle: string;
  /** `<h2>` above the brand cards. */
  brandsTitle: string;
  brands: readonly BrandCard[];
  /** Decorative icon of every brand card. */
  icon: RepairIconName;
  /** `<h2>` of the contact banner. */
  ctaTitle: string;
  ctaText: string;
  /** Families the model finder searches on this page. */
  finderFamily: Family | readonly Family[];
};

/** Brand cards link by their name (spec: "Apple /services/iphone-repair", …), the description below. */
export function BrandIndex({ title, subtitle, brandsTitle, brands, icon, ctaTitle, ctaText, finderFamily }: Props) {
  const Icon = repairIcons[icon];
  return (
    <>
      <PageHero title={title} subtitle={subtitle} />
      <FinderSection family={finderFamily} />
      <Section title={brandsTitle} intro="Choisissez la marque de votre appareil pour voir les tarifs par modèle.">
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {brands.map((brand) => (
            <li key={brand.slug} className="flex">
              <FeatureCard className="w-full" icon={<Icon className="size-6" />} title={brand.name} to={brand.path}>
                <p>{brand.description}</p>
              </FeatureCard>
            </li>
          ))}
        </ul>
      </Section>
      <PromiseGrid title="Nos engagements" items={INDEX_BENEFITS} />
      <CtaBanner title={ctaTitle} text={ctaText} to="/contact" label="Contactez-nous" />
    </>
  );
}
