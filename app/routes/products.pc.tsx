/**
 * New and refurbished PCs /products/pc (spec §2 "/products/pc"): included
 * services, premium support (warranty up to 3 years with extension, spec §9),
 * professional services (4h business intervention, spec §9) and the
 * "Besoin d'un nouveau PC ?" link to /contact.
 */
import {
  Building2,
  DatabaseBackup,
  Headset,
  Settings,
  ShieldCheck,
  Truck,
  Wrench,
} from "lucide-react";
import type { Route } from "./+types/products.pc";
import { FeatureGrid, type FeatureItem } from "~/components/ui/card";
import { CtaBanner, PageHero, Section } from "~/components/ui/section";
import { formatHours, formatYears, salesPromises } from "~/config/sales-promises";
import { getMeta } from "~/utils/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "PC neufs et reconditionnés",
    description:
      `PC neufs et reconditionnés livrés configurés, transfert de vos données, garantie jusqu'à ${formatYears(salesPromises.pcWarrantyMaxYearsWithExtension)} et services pro : installation sur site, intervention sous ${formatHours(salesPromises.businessInterventionHours)}.`,
    path: "/products/pc",
  });


const iconClass = "size-6";

const included: readonly FeatureItem[] = [
  {
    title: "Configuration initiale",
    icon: <Settings aria-hidden="true" className={iconClass} />,
    text: "Système à jour, comptes créés, logiciels essentiels installés : votre PC est prêt à l'emploi dès la sortie du magasin.",
  },
  {
    title: "Transfert et sauvegarde",
    icon: <DatabaseBackup aria-hidden="true" className={iconClass} />,
    text: "Nous transférons vos fichiers depuis votre ancien ordinateur et mettons en place une sauvegarde de vos données.",
  },
];

const premium: readonly FeatureItem[] = [
  {
    title: `Garantie jusqu'à ${formatYears(salesPromises.pcWarrantyMaxYearsWithExtension)}`,
    icon: <ShieldCheck aria-hidden="true" className={iconClass} />,
    text: `Avec l'extension de garantie, votre PC est couvert jusqu'à ${formatYears(salesPromises.pcWarrantyMaxYearsWithExtension)}.`,
  },
  {
    title: "SAV dédié",
    icon: <Headset aria-hidden="true" className={iconClass} />,
    text: "Un interlocuteur en magasin qui connaît votre machine et suit chacune de vos demandes.",
  },
  {
    title: "Maintenance",
    icon: <Wrench aria-hidden="true" className={iconClass} />,
    text: "Nettoyage, mises à jour et contrôle de l'état de votre PC pour le garder rapide et fiable dans la durée.",
  },
];

const professional: readonly FeatureItem[] = [
  {
    title: "Installation sur site",
    icon: <Truck aria-hidden="true" className={iconClass} />,
    text: "Nous livrons, installons et raccordons vos postes directement dans vos locaux.",
  },
  {
    title: "Support entreprise",
    icon: <Building2 aria-hidden="true" className={iconClass} />,
    text: `Intervention sous ${formatHours(salesPromises.businessInterventionHours)} et prêt de matériel pendant la réparation : votre activité ne s'arrête pas.`,
  },
];

/** The new and refurbished PCs page (spec §2 "/products/pc"). */
export default function ProductsPcPage() {
  return (
    <>
      <PageHero
        title="PC neufs et reconditionnés"
        subtitle="Des ordinateurs fiables, prêts à l'emploi et accompagnés d'un service complet, du premier démarrage à la maintenance."
      />

      <Section title="Services inclus" intro="Avec chaque PC acheté chez nous, sans supplément.">
        <FeatureGrid items={included} />
      </Section>

      <Section title="Support premium" intro="Un accompagnement dans la durée, bien après l'achat.">
        <FeatureGrid items={premium} className="lg:grid-cols-3" />
      </Section>

      <Section title="Services professionnels" intro="Pour les entreprises, les commerces et les indépendants.">
        <FeatureGrid items={professional} />
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
