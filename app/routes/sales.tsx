/**
 * Sales hub /sales (spec §2 "Sales hub (/sales)"): video hero, two product
 * tiles, three promises (spec §9: warranty up to 24 months) and a link to
 * /contact — the only conversion path (spec §1: no ordering or payment).
 */
import type { Route } from "./+types/sales";
import { FeatureGrid } from "#app/components/ui/card.tsx";
import { HeroVideo, type HeroVideoSource } from "#app/components/ui/hero-video.tsx";
import { CtaBanner, PageHero, Section } from "#app/components/ui/section.tsx";
import { formatMonths, salesPromises } from "#app/config/sales-promises.ts";
import { SALES_PRODUCT_TILES, SALES_PROMISES } from "#app/content/sales.ts";
import { getMeta } from "#app/utils/meta.ts";
import { Island } from "#app/islands/island.tsx";
import { ISLANDS_HANDLE } from "#app/islands/names.ts";

/** No hydration: the islands script only (issue 16, docs/decisions/013). */
export const handle = ISLANDS_HANDLE;

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "Vente de PC et smartphones neufs et reconditionnés",
    description: `PC et smartphones neufs ou reconditionnés premium : qualité contrôlée, SAV dédié et garantie prolongée jusqu'à ${formatMonths(salesPromises.salesWarrantyMaxMonths)}. Conseils en magasin.`,
    path: "/sales",
  });

const HERO_SOURCES: readonly HeroVideoSource[] = [
  { src: "/media/sales-hero.webm", type: "video/webm" },
  { src: "/media/sales-hero.mp4", type: "video/mp4" },
];

/** The sales hub page (spec §2 "Sales hub (/sales)"). */
export default function SalesPage() {
  return (
    <>
      <PageHero
        title="Découvrez notre sélection"
        subtitle="Du neuf au reconditionné premium"
        media={
          <Island
            name="hero-video"
            component={HeroVideo}
            props={{ sources: HERO_SOURCES, poster: "/media/sales-hero-poster.webp", width: 960, height: 540 }}
          />
        }
      >
        <p className="max-w-xl text-slate-300">
          Ordinateurs et smartphones sélectionnés, contrôlés et préparés par notre atelier, pour un équipement fiable au
          meilleur prix.
        </p>
      </PageHero>

      <Section
        title="Nos produits"
        intro="Choisissez une catégorie pour découvrir les services inclus avec chaque appareil."
      >
        <FeatureGrid
          items={SALES_PRODUCT_TILES}
          after={
            <p aria-hidden="true" className="mt-4 font-semibold text-sky-300">
              Découvrir →
            </p>
          }
        />
      </Section>

      <Section title="Nos engagements">
        <FeatureGrid items={SALES_PROMISES} columns="md:grid-cols-3" />
      </Section>

      <CtaBanner
        title="Vous hésitez entre plusieurs modèles ?"
        text="Parlez-nous de vos usages : nous vous orientons vers l'appareil adapté à votre budget."
        to="/contact"
        label="Besoin de conseils ?"
      />
    </>
  );
}
