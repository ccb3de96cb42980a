/**
 * Professional solutions /solutions-pro (spec §2 "Professional solutions"):
 * four cards (IT fleet management, web solutions, infrastructure, telephony)
 * and the "Prêt à optimiser votre entreprise ?" call-to-action.
 */
import { Globe, MonitorCog, Network, Phone } from "lucide-react";
import type { Route } from "./+types/solutions-pro";
import { ButtonLink } from "~/components/ui/button";
import { CheckList, FeatureCard } from "~/components/ui/card";
import { CtaBanner, PageHero, Section } from "~/components/ui/section";
import { formatHours, salesPromises } from "~/config/sales-promises";
import { getMeta } from "~/utils/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "Solutions informatiques pour les entreprises",
    description:
      "Gestion de parc informatique, noms de domaine, applications et messagerie professionnelle, infrastructure réseau et téléphonie pour les entreprises.",
    path: "/solutions-pro",
  });

const iconClass = "size-6";

const fleet = [
  "Inventaire, mises à jour et sauvegardes",
  "Maintenance préventive de vos postes",
  `Intervention sous ${formatHours(salesPromises.businessInterventionHours)} et prêt de matériel`,
] as const;

const web = ["Noms de domaine", "Applications", "Messagerie professionnelle"] as const;

const infrastructure = ["Réseau filaire et Wi-Fi", "Serveurs et stockage partagé", "Sécurité et pare-feu"] as const;

const telephony = ["Téléphonie IP", "Standard et renvois d'appels", "Smartphones professionnels"] as const;

/** The professional solutions page (spec §2 "Professional solutions (/solutions-pro)"). */
export default function SolutionsProPage() {
  return (
    <>
      <PageHero
        title="Solutions professionnelles"
        subtitle="Un partenaire informatique de proximité pour équiper, sécuriser et faire grandir votre entreprise."
      />

      <Section
        title="Nos solutions pour les entreprises"
        intro="Indépendants, commerces, PME : nous adaptons chaque solution à votre activité et à votre budget."
      >
        <div className="grid gap-6 md:grid-cols-2">
          <FeatureCard title="Gestion de parc informatique" icon={<MonitorCog aria-hidden="true" className={iconClass} />}>
            <p>Nous suivons et entretenons vos ordinateurs pour que vos équipes travaillent sans interruption.</p>
            <CheckList items={fleet} className="mt-4" />
          </FeatureCard>
          <FeatureCard title="Solutions web" icon={<Globe aria-hidden="true" className={iconClass} />}>
            <p>Une présence en ligne professionnelle, de l'adresse de votre site à vos boîtes mail.</p>
            <CheckList items={web} className="mt-4" />
            <ButtonLink to="/dev-web" variant="secondary" className="mt-6">
              Découvrir le développement web
            </ButtonLink>
          </FeatureCard>
          <FeatureCard title="Infrastructure" icon={<Network aria-hidden="true" className={iconClass} />}>
            <p>Un réseau fiable et sécurisé, dimensionné pour vos locaux et vos usages.</p>
            <CheckList items={infrastructure} className="mt-4" />
          </FeatureCard>
          <FeatureCard title="Téléphonie" icon={<Phone aria-hidden="true" className={iconClass} />}>
            <p>Des communications claires et joignables partout, au bureau comme en déplacement.</p>
            <CheckList items={telephony} className="mt-4" />
          </FeatureCard>
        </div>
      </Section>

      <CtaBanner
        title="Prêt à optimiser votre entreprise ?"
        text="Parlons de vos besoins : nous établissons avec vous une solution sur mesure."
        to="/contact"
        label="Nous contacter"
      />
    </>
  );
}
