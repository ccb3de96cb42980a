/**
 * New and refurbished smartphones /products/smartphones (spec §2
 * "/products/smartphones"): included services, premium support (24-month
 * warranty extendable to 36, 24h assistance, spec §9), additional services
 * (7/7 priority support, spec §9) and the "Envie d'un nouveau smartphone ?"
 * link to /contact.
 */
import {
  ArrowRightLeft,
  Clock,
  Headset,
  Settings,
  ShieldCheck,
  Smartphone,
  Sparkles,
  Users,
} from "lucide-react";
import type { Route } from "./+types/products.smartphones";
import { FeatureGrid, type FeatureItem } from "~/components/ui/card";
import { CtaBanner, PageHero, Section } from "~/components/ui/section";
import { formatDaysPerWeek, formatHours, formatMonths, salesPromises } from "~/config/sales-promises";
import { getMeta } from "~/utils/meta";

const warranty = formatMonths(salesPromises.smartphoneWarrantyMonths);
const extendedWarranty = formatMonths(salesPromises.smartphoneWarrantyExtendedMonths);
const assistanceDelay = formatHours(salesPromises.smartphoneAssistanceHours);
const priorityDays = formatDaysPerWeek(salesPromises.prioritySupportDaysPerWeek);

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "Smartphones neufs et reconditionnés",
    description:
      `Smartphones neufs et reconditionnés, configurés avec transfert de données : garantie ${warranty} extensible à ${extendedWarranty}, assistance sous ${assistanceDelay}, support ${priorityDays}.`,
    path: "/products/smartphones",
  });


const iconClass = "size-6";

const included: readonly FeatureItem[] = [
  {
    title: "Configuration",
    icon: <Settings aria-hidden="true" className={iconClass} />,
    text: "Mise en service, comptes, mises à jour et applications essentielles : votre smartphone est prêt à l'emploi.",
  },
  {
    title: "Transfert de données",
    icon: <ArrowRightLeft aria-hidden="true" className={iconClass} />,
    text: "Contacts, photos, messages et applications passent de votre ancien téléphone au nouveau, en toute sécurité.",
  },
];

const premium: readonly FeatureItem[] = [
  {
    title: `Garantie ${warranty}, extensible à ${extendedWarranty}`,
    icon: <ShieldCheck aria-hidden="true" className={iconClass} />,
    text: `Chaque smartphone est garanti ${warranty} ; avec l'extension, vous êtes couvert jusqu'à ${extendedWarranty}.`,
  },
  {
    title: "SAV dédié",
    icon: <Headset aria-hidden="true" className={iconClass} />,
    text: "Un interlocuteur en magasin pour vos réglages, vos questions et le suivi de votre appareil.",
  },
  {
    title: `Assistance sous ${assistanceDelay}`,
    icon: <Clock aria-hidden="true" className={iconClass} />,
    text: `Un souci avec votre smartphone ? Un technicien vous répond et vous accompagne sous ${assistanceDelay}.`,
  },
];

const additional: readonly FeatureItem[] = [
  {
    title: "Protection d'écran",
    icon: <Smartphone aria-hidden="true" className={iconClass} />,
    text: "Verre trempé ou film de protection posé en magasin, sans bulles, pour protéger votre écran dès le premier jour.",
  },
  {
    title: "Flotte professionnelle (MDM)",
    icon: <Users aria-hidden="true" className={iconClass} />,
    text: "Déploiement et gestion centralisée des smartphones de vos équipes grâce à une solution de gestion de flotte mobile (MDM).",
  },
  {
    title: `Support prioritaire ${priorityDays}`,
    icon: <Sparkles aria-hidden="true" className={iconClass} />,
    text: `Vos demandes sont traitées en priorité, ${salesPromises.prioritySupportDaysPerWeek} jours sur 7.`,
  },
];

/** The new and refurbished smartphones page (spec §2 "/products/smartphones"). */
export default function ProductsSmartphonesPage() {
  return (
    <>
      <PageHero
        title="Smartphones neufs et reconditionnés"
        subtitle="Les grandes marques, neuves ou reconditionnées, configurées pour vous et suivies par notre équipe."
      />

      <Section title="Services inclus" intro="Avec chaque smartphone acheté chez nous, sans supplément.">
        <FeatureGrid items={included} />
      </Section>

      <Section title="Support premium" intro="Un accompagnement dans la durée, bien après l'achat.">
        <FeatureGrid items={premium} className="lg:grid-cols-3" />
      </Section>

      <Section title="Services additionnels" intro="Pour protéger votre appareil et équiper votre entreprise.">
        <FeatureGrid items={additional} className="lg:grid-cols-3" />
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
