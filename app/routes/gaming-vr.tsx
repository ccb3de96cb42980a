/**
 * Gaming and virtual reality /gaming-vr (spec §2 "Gaming and virtual
 * reality"): four cards and the "Prêt à passer au niveau supérieur ?"
 * call-to-action.
 */
import { Gamepad2, Gauge, Glasses, Plane } from "lucide-react";
import type { Route } from "./+types/gaming-vr";
import { CheckList, FeatureCard } from "~/components/ui/card";
import { CtaBanner, PageHero, Section } from "~/components/ui/section";
import { getMeta } from "~/utils/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "Gaming et réalité virtuelle : PC et simulateurs sur mesure",
    description:
      "PC gaming sur mesure, setups complets de simulation automobile et aéronautique, performances maximales et réalité virtuelle immersive avec retour haptique.",
    path: "/gaming-vr",
  });

const iconClass = "size-6";

const cards = [
  {
    title: "PC gaming sur mesure",
    icon: <Gamepad2 aria-hidden="true" className={iconClass} />,
    text: "Nous assemblons votre machine selon vos jeux, votre budget et vos envies, avec des composants choisis avec soin.",
    items: ["Choix des composants avec vous", "Montage et câblage soignés", "Tests de stabilité avant remise"],
  },
  {
    title: "Setup complet de simulation automobile et aéronautique",
    icon: <Plane aria-hidden="true" className={iconClass} />,
    text: "Un setup complet, prêt à rouler ou à décoller : nous installons et réglons l'ensemble de votre poste de pilotage.",
    items: ["Volants, pédaliers et cockpits", "Joysticks, manettes des gaz et palonniers", "Écrans multiples et réglages"],
  },
  {
    title: "Performances maximales",
    icon: <Gauge aria-hidden="true" className={iconClass} />,
    text: "Des images fluides et un système silencieux, optimisés pour tirer le meilleur de chaque composant.",
    items: ["Cartes graphiques de dernière génération", "Refroidissement performant", "Optimisation du système"],
  },
  {
    title: "Réalité virtuelle immersive",
    icon: <Glasses aria-hidden="true" className={iconClass} />,
    text: "Plongez au cœur de l'action avec un casque de réalité virtuelle et des accessoires à retour haptique.",
    items: ["Casques VR configurés et calibrés", "Retour haptique", "Espace de jeu installé avec vous"],
  },
] as const;

/** The gaming and virtual reality page (spec §2 "Gaming and virtual reality (/gaming-vr)"). */
export default function GamingVrPage() {
  return (
    <>
      <PageHero
        title="Gaming et Réalité Virtuelle"
        subtitle="Des configurations sur mesure pour jouer, piloter et s'immerger comme jamais."
      />

      <Section
        title="Nos configurations gaming et VR"
        intro="Du PC de jeu au simulateur complet, nous concevons, installons et réglons votre équipement."
      >
        <ul className="grid gap-6 md:grid-cols-2">
          {cards.map((card) => (
            <li key={card.title} className="flex">
              <FeatureCard title={card.title} icon={card.icon} className="w-full">
                <p>{card.text}</p>
                <CheckList items={card.items} className="mt-4" />
              </FeatureCard>
            </li>
          ))}
        </ul>
      </Section>

      <CtaBanner
        title="Prêt à passer au niveau supérieur ?"
        text="Décrivez-nous votre projet : nous vous proposons la configuration adaptée."
        to="/contact"
        label="Nous contacter"
      />
    </>
  );
}
