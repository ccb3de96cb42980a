/**
 * IT assistance page /assistance-informatique (spec §2 "IT assistance page"):
 * in-store and remote support cards, two reassurance blocks and the
 * "Besoin d'aide ?" call-to-action.
 */
import { Clock, MonitorSmartphone, ShieldCheck, Store } from "lucide-react";
import type { Route } from "./+types/assistance-informatique";
import { ButtonLink } from "~/components/ui/button";
import { CheckList, FeatureCard } from "~/components/ui/card";
import { CtaBanner, PageHero, Section } from "~/components/ui/section";
import { getMeta } from "~/utils/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "Assistance informatique en magasin ou à distance",
    description:
      "Support technique professionnel en magasin ou à distance : diagnostic matériel complet, réparation sur place, intervention rapide et sécurisée.",
    path: "/assistance-informatique",
  });

const iconClass = "size-6";

const inStore = ["Diagnostic matériel complet", "Réparation sur place si possible", "Conseils personnalisés"] as const;

const remote = [
  "Intervention rapide sans déplacement",
  "Solutions sécurisées et professionnelles",
  "Accompagnement tout au long de l'intervention",
] as const;

/** The IT assistance page (spec §2 "IT assistance page (/assistance-informatique)"). */
export default function AssistanceInformatiquePage() {
  return (
    <>
      <PageHero
        title="Assistance informatique"
        subtitle="Support technique professionnel en magasin ou à distance"
      />

      <Section
        title="Deux façons de vous dépanner"
        intro="Venez nous voir avec votre appareil, ou laissez un technicien intervenir directement sur votre ordinateur."
      >
        <div className="grid gap-6 md:grid-cols-2">
          <FeatureCard title="Support en magasin" icon={<Store aria-hidden="true" className={iconClass} />}>
            <p>Apportez votre ordinateur, votre smartphone ou votre tablette : un technicien l'examine devant vous.</p>
            <CheckList items={inStore} className="mt-4" />
          </FeatureCard>
          <FeatureCard
            title="Assistance à distance"
            icon={<MonitorSmartphone aria-hidden="true" className={iconClass} />}
          >
            <p>
              Grâce à notre logiciel d'assistance à distance, un technicien se connecte à votre écran, avec votre
              accord, pour résoudre le problème.
            </p>
            <CheckList items={remote} className="mt-4" />
            <ButtonLink to="/soft-assist" variant="secondary" className="mt-6">
              Accéder à l'assistance à distance
            </ButtonLink>
          </FeatureCard>
        </div>
      </Section>

      <Section title="Nos garanties">
        <div className="grid gap-6 md:grid-cols-2">
          <FeatureCard title="Sécurité garantie" icon={<ShieldCheck aria-hidden="true" className={iconClass} />}>
            <p>
              Chaque session à distance se fait sur une connexion chiffrée, uniquement avec votre code et votre
              accord : vous voyez tout ce que fait le technicien et pouvez arrêter à tout moment.
            </p>
          </FeatureCard>
          <FeatureCard title="Service 24/7" icon={<Clock aria-hidden="true" className={iconClass} />}>
            <p>
              Notre assistant virtuel répond à vos questions à toute heure depuis l'espace d'assistance à distance ;
              un technicien prend le relais dès que c'est nécessaire.
            </p>
          </FeatureCard>
        </div>
      </Section>

      <CtaBanner
        title="Besoin d'aide ?"
        text="Décrivez votre problème : nous vous proposons la solution la plus rapide, en magasin ou à distance."
        to="/contact"
        label="Nous contacter"
      />
    </>
  );
}
