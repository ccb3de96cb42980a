/**
 * Home page (spec §2 "Home"): hero with a contact call-to-action, the four
 * repair categories, three professional solutions, three trust points and a
 * final call-to-action to /contact. Repair promises: repair catalogue §1.
 */
import { Award, BadgeCheck, Briefcase, CodeXml, ShoppingBag, Zap } from "lucide-react";
import type { Route } from "./+types/home";
import { RepairCategoryGrid } from "~/components/catalogue/repair-category-grid";
import { FinderSection } from "~/components/finder/finder-section";
import { ButtonLink } from "~/components/ui/button";
import { Card, FeatureGrid } from "~/components/ui/card";
import { IconList } from "~/components/ui/icon-list";
import { CtaBanner, PageHero, Section } from "~/components/ui/section";
import { REPAIR_PROMISES, repairIcons } from "~/config/repair-categories";
import { getMeta } from "~/utils/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "Accueil",
    description:
      "Réparation de PC, smartphones, tablettes et consoles : diagnostic gratuit, pièces d'origine, garantie 12 mois et réparation express en 1 heure.",
    path: "/",
  });

const PRO_SOLUTIONS = [
  {
    title: "Développement web",
    text: "Sites vitrines sur mesure avec IA intégrée, référencement naturel et boîtes mail professionnelles.",
    to: "/dev-web",
    icon: CodeXml,
  },
  {
    title: "Solutions professionnelles",
    text: "Gestion de parc informatique, solutions web, infrastructure et téléphonie pour votre entreprise.",
    to: "/solutions-pro",
    icon: Briefcase,
  },
  {
    title: "Vente neuf et reconditionné",
    text: "PC et smartphones neufs ou reconditionnés, configurés et prêts à l'emploi, avec garantie.",
    to: "/sales",
    icon: ShoppingBag,
  },
] as const;

const TRUST_POINTS = [
  {
    title: "Pièces d'origine",
    text: "Nous réparons avec des pièces d'origine, gage d'une réparation fiable et durable, garantie 12 mois.",
    icon: BadgeCheck,
  },
  {
    title: "Expertise certifiée",
    text: "Des techniciens certifiés et expérimentés, qui vous expliquent la panne et la solution avant d'intervenir.",
    icon: Award,
  },
  {
    title: "Service rapide",
    text: "Diagnostic gratuit et réparation Express 1H : la plupart des appareils repartent le jour même.",
    icon: Zap,
  },
] as const;

/** Spec §2 "Home". */
export default function Home() {
  return (
    <>
      <PageHero
        title="Réparation, vente et assistance informatique près de chez vous"
        subtitle="PC, smartphones, tablettes et consoles réparés sur place, appareils neufs et reconditionnés, sites web et solutions pour les professionnels."
        media={
          <Card className="p-6 sm:p-8">
            <p className="mb-5 text-sm font-semibold tracking-wide text-sky-300 uppercase">Nos engagements réparation</p>
            <IconList
              items={REPAIR_PROMISES.map((promise) => {
                const Icon = repairIcons[promise.icon];
                return { title: promise.title, text: promise.text, icon: <Icon className="size-6" /> };
              })}
            />
          </Card>
        }
      >
        <ButtonLink to="/contact" size="lg">Nous contacter</ButtonLink>
        <ButtonLink to="/repair" size="lg" variant="secondary">Découvrir nos réparations</ButtonLink>
      </PageHero>

      <FinderSection />

      <Section
        id="reparations"
        title="Nos services de réparation"
        intro="Choisissez votre appareil : diagnostic gratuit, pièces d'origine et Garantie 12 mois sur toutes nos réparations."
      >
        <RepairCategoryGrid />
      </Section>

      <Section
        title="Solutions pour les professionnels"
        intro="Au-delà de la réparation, nous accompagnons les entreprises et les indépendants dans leurs projets numériques."
      >
        <FeatureGrid
          className="md:grid-cols-3"
          items={PRO_SOLUTIONS.map(({ title, text, to, icon: Icon }) => ({ title, text, to, icon: <Icon className="size-6" /> }))}
        />
      </Section>

      <Section title="Pourquoi nous faire confiance&nbsp;?">
        <FeatureGrid
          className="md:grid-cols-3"
          items={TRUST_POINTS.map(({ title, text, icon: Icon }) => ({ title, text, icon: <Icon className="size-6" /> }))}
        />
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
