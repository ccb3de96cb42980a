/**
 * Copy of the sales pages' feature cards (spec §2 "/sales", "/products/pc",
 * "/products/smartphones", "Sales and repair"; promises from spec §9 through
 * `#app/config/sales-promises.ts`), kept out of the route modules so that each page
 * only lays out its sections and every card renders through `FeatureGrid`
 * (issue 14).
 */
import {
  ArrowRightLeft,
  BadgeCheck,
  Building2,
  Clock,
  DatabaseBackup,
  Headset,
  Laptop,
  PackageCheck,
  Recycle,
  Settings,
  ShieldCheck,
  Smartphone,
  Sparkles,
  Timer,
  Truck,
  Users,
  Wrench,
} from "lucide-react";
import type { FeatureItem } from "#app/components/ui/card.tsx";
import {
  formatDaysPerWeek,
  formatHours,
  formatMonths,
  formatYears,
  REPAIR_WARRANTY,
  repairPromises,
  salesPromises,
} from "#app/config/sales-promises.ts";

/** The smartphone page's spec §9 terms as the visitor reads them ("24 mois", "24h", "7j/7"), also in its meta description. */
export const SMARTPHONE_TERMS = {
  warranty: formatMonths(salesPromises.smartphoneWarrantyMonths),
  extendedWarranty: formatMonths(salesPromises.smartphoneWarrantyExtendedMonths),
  assistanceDelay: formatHours(salesPromises.smartphoneAssistanceHours),
  priorityDays: formatDaysPerWeek(salesPromises.prioritySupportDaysPerWeek),
} as const;

const { warranty, extendedWarranty, assistanceDelay, priorityDays } = SMARTPHONE_TERMS;
const pcWarranty = formatYears(salesPromises.pcWarrantyMaxYearsWithExtension);

/** /sales "Nos produits": the two link tiles to the product pages. */
export const SALES_PRODUCT_TILES: readonly FeatureItem[] = [
  {
    title: "PC neufs et reconditionnés",
    to: "/products/pc",
    icon: Laptop,
    text: "Portables et fixes, pour la maison comme pour le bureau, livrés configurés et prêts à l'emploi.",
  },
  {
    title: "Smartphones neufs et reconditionnés",
    to: "/products/smartphones",
    icon: Smartphone,
    text: "Les grandes marques, neuves ou reconditionnées, avec transfert de vos données et assistance incluse.",
  },
];

/** /sales "Nos engagements" (spec §9: warranty up to 24 months). */
export const SALES_PROMISES: readonly FeatureItem[] = [
  {
    title: "Qualité garantie",
    icon: BadgeCheck,
    text: "Chaque appareil, neuf ou reconditionné, est contrôlé et testé par nos techniciens avant de vous être remis.",
  },
  {
    title: "SAV premium",
    icon: Headset,
    text: "Un interlocuteur dédié en magasin pour vos questions, vos réglages et le suivi de votre appareil après l'achat.",
  },
  {
    title: `Garantie prolongée jusqu'à ${formatMonths(salesPromises.salesWarrantyMaxMonths)}`,
    icon: ShieldCheck,
    text: "Prolongez la couverture de votre appareil et profitez-en l'esprit tranquille : en cas de panne couverte, la réparation est prise en charge.",
  },
];

/** /products/pc "Services inclus". */
export const PC_INCLUDED: readonly FeatureItem[] = [
  {
    title: "Configuration initiale",
    icon: Settings,
    text: "Système à jour, comptes créés, logiciels essentiels installés : votre PC est prêt à l'emploi dès la sortie du magasin.",
  },
  {
    title: "Transfert et sauvegarde",
    icon: DatabaseBackup,
    text: "Nous transférons vos fichiers depuis votre ancien ordinateur et mettons en place une sauvegarde de vos données.",
  },
];

/** /products/pc "Support premium" (spec §9: up to 3 years with the extension). */
export const PC_PREMIUM: readonly FeatureItem[] = [
  {
    title: `Garantie jusqu'à ${pcWarranty}`,
    icon: ShieldCheck,
    text: `Avec l'extension de garantie, votre PC est couvert jusqu'à ${pcWarranty}.`,
  },
  {
    title: "SAV dédié",
    icon: Headset,
    text: "Un interlocuteur en magasin qui connaît votre machine et suit chacune de vos demandes.",
  },
  {
    title: "Maintenance",
    icon: Wrench,
    text: "Nettoyage, mises à jour et contrôle de l'état de votre PC pour le garder rapide et fiable dans la durée.",
  },
];

/** /products/pc "Services professionnels" (spec §9: intervention within 4 hours). */
export const PC_PROFESSIONAL: readonly FeatureItem[] = [
  {
    title: "Installation sur site",
    icon: Truck,
    text: "Nous livrons, installons et raccordons vos postes directement dans vos locaux.",
  },
  {
    title: "Support entreprise",
    icon: Building2,
    text: `Intervention sous ${formatHours(salesPromises.businessInterventionHours)} et prêt de matériel pendant la réparation : votre activité ne s'arrête pas.`,
  },
];

/** /products/smartphones "Services inclus". */
export const SMARTPHONE_INCLUDED: readonly FeatureItem[] = [
  {
    title: "Configuration",
    icon: Settings,
    text: "Mise en service, comptes, mises à jour et applications essentielles : votre smartphone est prêt à l'emploi.",
  },
  {
    title: "Transfert de données",
    icon: ArrowRightLeft,
    text: "Contacts, photos, messages et applications passent de votre ancien téléphone au nouveau, en toute sécurité.",
  },
];

/** /products/smartphones "Support premium" (spec §9: 24 months extendable to 36, assistance within 24 hours). */
export const SMARTPHONE_PREMIUM: readonly FeatureItem[] = [
  {
    title: `Garantie ${warranty}, extensible à ${extendedWarranty}`,
    icon: ShieldCheck,
    text: `Chaque smartphone est garanti ${warranty} ; avec l'extension, vous êtes couvert jusqu'à ${extendedWarranty}.`,
  },
  {
    title: "SAV dédié",
    icon: Headset,
    text: "Un interlocuteur en magasin pour vos réglages, vos questions et le suivi de votre appareil.",
  },
  {
    title: `Assistance sous ${assistanceDelay}`,
    icon: Clock,
    text: `Un souci avec votre smartphone ? Un technicien vous répond et vous accompagne sous ${assistanceDelay}.`,
  },
];

/** /products/smartphones "Services additionnels" (spec §9: priority support 7 days a week). */
export const SMARTPHONE_ADDITIONAL: readonly FeatureItem[] = [
  {
    title: "Protection d'écran",
    icon: Smartphone,
    text: "Verre trempé ou film de protection posé en magasin, sans bulles, pour protéger votre écran dès le premier jour.",
  },
  {
    title: "Flotte professionnelle (MDM)",
    icon: Users,
    text: "Déploiement et gestion centralisée des smartphones de vos équipes grâce à une solution de gestion de flotte mobile (MDM).",
  },
  {
    title: `Support prioritaire ${priorityDays}`,
    icon: Sparkles,
    text: `Vos demandes sont traitées en priorité, ${salesPromises.prioritySupportDaysPerWeek} jours sur 7.`,
  },
];

/** /vente-reparation "Pourquoi nous choisir ?". */
export const VENTE_REPARATION_FEATURES: readonly FeatureItem[] = [
  {
    title: "Produits neufs préinstallés",
    icon: PackageCheck,
    text: "Vos PC et smartphones neufs sont livrés configurés, mis à jour et prêts à l'emploi dès le premier démarrage.",
  },
  {
    title: "Reconditionné premium",
    icon: Recycle,
    text: `Des appareils contrôlés et remis à neuf par nos techniciens, garantis jusqu'à ${formatMonths(salesPromises.salesWarrantyMaxMonths)} : performants, économiques et plus responsables.`,
  },
  {
    title: "Réparation professionnelle",
    icon: Wrench,
    text: `PC, smartphones, tablettes et consoles : diagnostic gratuit et réparations garanties ${REPAIR_WARRANTY}.`,
  },
  {
    title: "Service rapide",
    icon: Timer,
    text: `Réparation express en ${formatHours(repairPromises.expressRepairHours)} sur place pour les pannes les plus courantes, et un suivi clair à chaque étape.`,
  },
];
