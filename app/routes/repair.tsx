/**
 * Repair-service home (spec §2 "Home": "a repair-process section also
 * appears on the repair service home"; repair catalogue §1–2): hero, the four
 * repair categories, the repair process and a call-to-action to /contact.
 */
import { ClipboardList, PackageCheck, Stethoscope, Wrench } from "lucide-react";
import type { Route } from "./+types/repair";
import { RepairCategoryGrid } from "#app/components/catalogue/repair-category-grid.tsx";
import { RepairPromisesCard } from "#app/components/catalogue/repair-promises-card.tsx";
import { FinderSection } from "#app/components/finder/finder-section.tsx";
import { ButtonLink } from "#app/components/ui/button.tsx";
import { bookingPath } from "#app/booking/paths.ts";
import { Card } from "#app/components/ui/card.tsx";
import { CtaBanner, PageHero, Section } from "#app/components/ui/section.tsx";
import { getMeta } from "#app/utils/meta.ts";
import { ISLANDS_HANDLE } from "#app/islands/names.ts";

/** No hydration: the islands script only (issue 16, docs/decisions/013). */
export const handle = ISLANDS_HANDLE;

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "Réparation PC, smartphone, tablette et console",
    description:
      "Réparation de PC, smartphones, tablettes et consoles en magasin : diagnostic gratuit, devis avant travaux, Express 1H et garantie 12 mois.",
    path: "/repair",
  });

const PROCESS_STEPS = [
  {
    title: "Diagnostic gratuit",
    text: "Apportez votre appareil : nous identifions la panne sans frais et sans engagement.",
    icon: Stethoscope,
  },
  {
    title: "Devis",
    text: "Nous vous expliquons la panne et vous remettons un devis clair. Rien n'est fait sans votre accord.",
    icon: ClipboardList,
  },
  {
    title: "Réparation",
    text: "Nos techniciens réparent votre appareil avec des pièces d'origine, le plus souvent en 1 heure sur place.",
    icon: Wrench,
  },
  {
    title: "Restitution",
    text: "Vous récupérez votre appareil testé et fonctionnel, avec une garantie de 12 mois sur la réparation.",
    icon: PackageCheck,
  },
] as const;

/** Spec §2: the repair service home (/repair). */
export default function Repair() {
  return (
    <>
      <PageHero
        title="Réparation de vos appareils"
        subtitle="PC, smartphones, tablettes et consoles réparés dans notre atelier par des techniciens expérimentés, le plus souvent en 1 heure."
        media={<RepairPromisesCard heading="Nos engagements" />}
      >
        <ButtonLink to="/contact" size="lg">
          Nous contacter
        </ButtonLink>
        {/* Issue 18 §1: booking a free diagnosis at the shop. */}
        <ButtonLink to={bookingPath()} size="lg" variant="secondary">
          Prendre rendez-vous
        </ButtonLink>
        <ButtonLink to="#processus" size="lg" variant="secondary">
          Comment ça marche&nbsp;?
        </ButtonLink>
      </PageHero>

      <FinderSection />

      <Section
        title="Que souhaitez-vous faire réparer&nbsp;?"
        intro="Choisissez votre type d'appareil pour consulter nos tarifs de réparation par marque et par modèle."
      >
        <RepairCategoryGrid />
      </Section>

      <Section
        id="processus"
        title="Notre processus de réparation"
        intro="Quatre étapes simples, du diagnostic à la restitution de votre appareil."
      >
        <ol className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {PROCESS_STEPS.map(({ title, text, icon: Icon }, index) => (
            <li key={title} className="flex">
              <Card className="flex w-full flex-col gap-3">
                <div aria-hidden="true" className="flex items-center gap-3">
                  <span className="inline-flex size-10 items-center justify-center rounded-full bg-sky-400 text-lg font-bold text-slate-950">
                    {index + 1}
                  </span>
                  <Icon className="size-6 text-sky-300" />
                </div>
                <h3 className="text-xl font-semibold text-white">{title}</h3>
                <p className="text-slate-300">{text}</p>
              </Card>
            </li>
          ))}
        </ol>
        <p className="mt-6 max-w-3xl text-sm text-slate-300">
          La garantie de 12 mois s'applique aux pièces d'origine constructeur ; si vous optez pour des pièces
          compatibles, elles sont garanties 30 jours.
        </p>
      </Section>

      <CtaBanner
        title="Prêt à faire réparer votre appareil&nbsp;?"
        text="Contactez-nous pour un diagnostic gratuit ou un devis précis."
        to="/contact"
        label="Demander un diagnostic gratuit"
      />
    </>
  );
}
