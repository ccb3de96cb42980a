/**
 * "Vente et réparation" /vente-reparation (spec §2 route table "Sales and
 * repair (listed route)"), built on the spec's older variant of the sales hub:
 * four feature cards and a contact call-to-action, plus links to /sales and
 * /repair.
 */
import { PackageCheck, Recycle, Timer, Wrench } from "lucide-react";
import type { Route } from "./+types/vente-reparation";
import { ButtonLink } from "~/components/ui/button";
import { FeatureCard } from "~/components/ui/card";
import { CtaBanner, PageHero, Section } from "~/components/ui/section";
import { formatHours, formatMonths, repairPromises, salesPromises } from "~/config/sales-promises";
import { getMeta } from "~/utils/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "Vente et réparation informatique",
    description:
      "Vente de produits neufs préinstallés et reconditionnés premium, réparation professionnelle de PC, smartphones, tablettes et consoles : un service rapide.",
    path: "/vente-reparation",
  });

const iconClass = "size-6";

const features = [
  {
    title: "Produits neufs préinstallés",
    icon: <PackageCheck aria-hidden="true" className={iconClass} />,
    text: "Vos PC et smartphones neufs sont livrés configurés, mis à jour et prêts à l'emploi dès le premier démarrage.",
  },
  {
    title: "Reconditionné premium",
    icon: <Recycle aria-hidden="true" className={iconClass} />,
    text: `Des appareils contrôlés et remis à neuf par nos techniciens, garantis jusqu'à ${formatMonths(salesPromises.salesWarrantyMaxMonths)} : performants, économiques et plus responsables.`,
  },
  {
    title: "Réparation professionnelle",
    icon: <Wrench aria-hidden="true" className={iconClass} />,
    text: `PC, smartphones, tablettes et consoles : diagnostic gratuit, pièces d'origine et réparations garanties ${formatMonths(repairPromises.warrantyMonths)}.`,
  },
  {
    title: "Service rapide",
    icon: <Timer aria-hidden="true" className={iconClass} />,
    text: `Réparation express en ${formatHours(repairPromises.expressRepairHours)} sur place pour les pannes les plus courantes, et un suivi clair à chaque étape.`,
  },
] as const;

/** The "Vente et réparation" page (spec §2, older variant of the sales hub). */
export default function VenteReparationPage() {
  return (
    <>
      <PageHero
        title="Vente et réparation"
        subtitle="Du neuf, du reconditionné premium et un atelier de réparation : tout votre matériel informatique au même endroit."
      >
        <ButtonLink to="/sales">Découvrir notre sélection</ButtonLink>
        <ButtonLink to="/repair" variant="secondary">
          Faire réparer un appareil
        </ButtonLink>
      </PageHero>

      <Section title="Pourquoi nous choisir ?">
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {features.map((feature) => (
            <li key={feature.title} className="flex">
              <FeatureCard title={feature.title} icon={feature.icon} className="w-full">
                <p>{feature.text}</p>
              </FeatureCard>
            </li>
          ))}
        </ul>
      </Section>

      <CtaBanner
        title="Un achat ou une réparation en vue ?"
        text="Décrivez-nous votre besoin : nous vous répondons avec un conseil ou un devis adapté."
        to="/contact"
        label="Nous contacter"
      />
    </>
  );
}
