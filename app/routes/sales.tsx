/**
 * Sales hub /sales (spec §2 "Sales hub (/sales)"): video hero, two product
 * tiles, three promises (spec §9: warranty up to 24 months) and a link to
 * /contact — the only conversion path (spec §1: no ordering or payment).
 */
import { BadgeCheck, Headset, Laptop, ShieldCheck, Smartphone } from "lucide-react";
import type { Route } from "./+types/sales";
import { FeatureCard } from "~/components/ui/card";
import { HeroVideo, type HeroVideoSource } from "~/components/ui/hero-video";
import { CtaBanner, PageHero, Section } from "~/components/ui/section";
import { formatMonths, salesPromises } from "~/config/sales-promises";
import { getMeta } from "~/utils/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "Vente de PC et smartphones neufs et reconditionnés",
    description:
      `PC et smartphones neufs ou reconditionnés premium : qualité contrôlée, SAV dédié et garantie prolongée jusqu'à ${formatMonths(salesPromises.salesWarrantyMaxMonths)}. Conseils en magasin.`,
    path: "/sales",
  });

const HERO_SOURCES: readonly HeroVideoSource[] = [
  { src: "/media/sales-hero.webm", type: "video/webm" },
  { src: "/media/sales-hero.mp4", type: "video/mp4" },
];

const iconClass = "size-6";

const productTiles = [
  {
    title: "PC neufs et reconditionnés",
    to: "/products/pc",
    icon: <Laptop aria-hidden="true" className={iconClass} />,
    text: "Portables et fixes, pour la maison comme pour le bureau, livrés configurés et prêts à l'emploi.",
  },
  {
    title: "Smartphones neufs et reconditionnés",
    to: "/products/smartphones",
    icon: <Smartphone aria-hidden="true" className={iconClass} />,
    text: "Les grandes marques, neuves ou reconditionnées, avec transfert de vos données et assistance incluse.",
  },
] as const;

const promises = [
  {
    title: "Qualité garantie",
    icon: <BadgeCheck aria-hidden="true" className={iconClass} />,
    text: "Chaque appareil, neuf ou reconditionné, est contrôlé et testé par nos techniciens avant de vous être remis.",
  },
  {
    title: "SAV premium",
    icon: <Headset aria-hidden="true" className={iconClass} />,
    text: "Un interlocuteur dédié en magasin pour vos questions, vos réglages et le suivi de votre appareil après l'achat.",
  },
  {
    title: `Garantie prolongée jusqu'à ${formatMonths(salesPromises.salesWarrantyMaxMonths)}`,
    icon: <ShieldCheck aria-hidden="true" className={iconClass} />,
    text: "Prolongez la couverture de votre appareil et profitez-en l'esprit tranquille : en cas de panne couverte, la réparation est prise en charge.",
  },
] as const;

/** The sales hub page (spec §2 "Sales hub (/sales)"). */
export default function SalesPage() {
  return (
    <>
      <PageHero
        title="Découvrez notre sélection"
        subtitle="Du neuf au reconditionné premium"
        media={
          <HeroVideo sources={HERO_SOURCES} poster="/media/sales-hero-poster.webp" width={960} height={540} />
        }
      >
        <p className="max-w-xl text-slate-300">
          Ordinateurs et smartphones sélectionnés, contrôlés et préparés par notre atelier, pour un équipement
          fiable au meilleur prix.
        </p>
      </PageHero>

      <Section
        title="Nos produits"
        intro="Choisissez une catégorie pour découvrir les services inclus avec chaque appareil."
      >
        <ul className="grid gap-6 md:grid-cols-2">
          {productTiles.map((tile) => (
            <li key={tile.to} className="flex">
              <FeatureCard title={tile.title} to={tile.to} icon={tile.icon} className="w-full">
                <p>{tile.text}</p>
                <p aria-hidden="true" className="mt-4 font-semibold text-sky-300">
                  Découvrir →
                </p>
              </FeatureCard>
            </li>
          ))}
        </ul>
      </Section>

      <Section title="Nos engagements">
        <ul className="grid gap-6 md:grid-cols-3">
          {promises.map((promise) => (
            <li key={promise.title} className="flex">
              <FeatureCard title={promise.title} icon={promise.icon} className="w-full">
                <p>{promise.text}</p>
              </FeatureCard>
            </li>
          ))}
        </ul>
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
