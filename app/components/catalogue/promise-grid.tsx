/**
 * Trust and benefit blocks of the catalogue pages (repair catalogue §1 and
 * §2: original parts, fast repair / Express 1H, Garantie 12 mois), and the
 * texts each page family shows in them.
 */
import { FeatureCard } from "#app/components/ui/card.tsx";
import { Section } from "#app/components/ui/section.tsx";
import { repairIcons, type RepairIconName } from "#app/config/repair-categories.ts";
import { REPAIR_WARRANTY } from "#app/config/sales-promises.ts";

export type PromiseBlock = { readonly title: string; readonly text: string; readonly icon: RepairIconName };

// §9: 12 months with manufacturer parts, 30 days with aftermarket parts. Pages that also show
// aftermarket prices (phones) must say both, so the 12-month promise is never read as unconditional.
const WARRANTY_BOTH = `Garantie ${REPAIR_WARRANTY}.`;

/** Benefit block of the smartphone and tablet brand indexes (§2: original parts, fast repair, 12-month warranty). */
export const INDEX_BENEFITS: readonly PromiseBlock[] = [
  {
    title: "Pièces d'origine",
    text: "Des pièces d'origine constructeur sur demande, ou des pièces premium compatibles selon votre budget.",
    icon: "parts",
  },
  { title: "Réparation rapide", text: "La plupart des réparations sont faites en 1 heure sur place.", icon: "express" },
  { title: "Garantie 12 mois", text: WARRANTY_BOTH, icon: "warranty" },
];

/** Trust blocks of the tablet brand pages (§2, Toshiba: original parts certified by the brand, Express 1H, 12 months). */
export const TABLET_TRUST: readonly PromiseBlock[] = [
  {
    title: "Pièces d'origine certifiées",
    text: "Des pièces d'origine certifiées par la marque, pour une réparation fiable et durable.",
    icon: "parts",
  },
  { title: "Express 1H", text: "La plupart des réparations sont faites en 1 heure sur place.", icon: "express" },
  {
    title: "Garantie 12 mois",
    text: WARRANTY_BOTH,
    icon: "warranty",
  },
];

/** Trust blocks of the console hub, the console brand pages (§2: original parts, fast service, 12-month warranty) and the PC page. */
export const REPAIR_TRUST: readonly PromiseBlock[] = [
  { title: "Pièces d'origine", text: "Des pièces d'origine pour une réparation fiable et durable.", icon: "parts" },
  {
    title: "Service rapide",
    text: "Diagnostic gratuit et réparation rapide : la plupart des pannes sont réglées en 1 heure sur place.",
    icon: "express",
  },
  {
    title: "Garantie 12 mois",
    text: WARRANTY_BOTH,
    icon: "warranty",
  },
];

/** A titled section (`<h2>`) of three cards (`<h3>`), icons decorative. */
export function PromiseGrid({ title, items }: { title: string; items: readonly PromiseBlock[] }) {
  return (
    <Section title={title}>
      <ul className="grid gap-6 md:grid-cols-3">
        {items.map((item) => {
          const Icon = repairIcons[item.icon];
          return (
            <li key={item.title} className="flex">
              <FeatureCard className="w-full" icon={<Icon className="size-6" />} title={item.title}>
                <p>{item.text}</p>
              </FeatureCard>
            </li>
          );
        })}
      </ul>
    </Section>
  );
}
