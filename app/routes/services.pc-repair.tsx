/**
 * PC repair page /services/pc-repair (spec §2 route table, repair catalogue
 * §1): the common PC repairs, described without prices because the
 * catalogue has none for PCs (a quote follows the free diagnosis), the
 * repair promises and a call to action to /contact.
 */
import {
  BatteryCharging,
  Cpu,
  DatabaseBackup,
  Fan,
  HardDrive,
  Keyboard,
  Monitor,
  MonitorCog,
  Stethoscope,
} from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/services.pc-repair";
import { CatalogueJsonLd } from "#app/components/catalogue/json-ld.tsx";
import { PromiseGrid, REPAIR_TRUST } from "#app/components/catalogue/promise-grid.tsx";
import { ButtonLink } from "#app/components/ui/button.tsx";
import { bookingPath } from "#app/booking/paths.ts";
import { FeatureGrid } from "#app/components/ui/card.tsx";
import { CtaBanner, PageHero, Section } from "#app/components/ui/section.tsx";
import { getMeta } from "#app/utils/meta.ts";
import { CATALOGUE_CATEGORIES, catalogueTrail } from "#app/utils/structured-data.ts";
import { ISLANDS_HANDLE } from "#app/islands/names.ts";

const category = CATALOGUE_CATEGORIES.pc;

/** No hydration: the islands script only (issue 16, docs/decisions/013). */
export const handle = ISLANDS_HANDLE;

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "Réparation PC portable et fixe",
    description:
      "Réparation de PC portables et fixes : écran, clavier, batterie, SSD, virus, récupération de données, carte mère. Diagnostic gratuit et devis avant travaux.",
    path: category.path,
  });

// No prices on purpose: the catalogue has none for PCs, and a PC fault is priced after the diagnosis.
const PC_REPAIRS = [
  {
    title: "Diagnostic gratuit",
    text: "Nous identifions la panne sans frais et vous remettons un devis clair avant toute intervention.",
    icon: Stethoscope,
  },
  {
    title: "Écran",
    text: "Dalle fissurée, lignes ou écran noir : remplacement de l'écran de votre ordinateur portable.",
    icon: Monitor,
  },
  {
    title: "Clavier et pavé tactile",
    text: "Touches qui ne répondent plus ou liquide renversé : remplacement du clavier ou du pavé tactile.",
    icon: Keyboard,
  },
  {
    title: "Batterie et charge",
    text: "Autonomie en chute, batterie gonflée, prise ou chargeur défectueux : remise en état de l'alimentation.",
    icon: BatteryCharging,
  },
  {
    title: "SSD et mise à niveau",
    text: "Passage au SSD, ajout de mémoire vive : votre ordinateur retrouve sa rapidité, vos données transférées.",
    icon: HardDrive,
  },
  {
    title: "Nettoyage, surchauffe et virus",
    text: "Dépoussiérage, pâte thermique, ventilateur bruyant, suppression des virus et logiciels indésirables.",
    icon: Fan,
  },
  {
    title: "Récupération de données",
    text: "Disque en panne ou fichiers effacés : nous tentons de récupérer vos documents et vos photos.",
    icon: DatabaseBackup,
  },
  {
    title: "Carte mère et connectique",
    text: "PC qui ne démarre plus, ports USB ou vidéo abîmés : diagnostic et réparation de la carte mère.",
    icon: Cpu,
  },
  {
    title: "Système et logiciels",
    text: "Réinstallation de Windows, mises à jour, installation de vos logiciels et de vos périphériques.",
    icon: MonitorCog,
  },
] as const;

/** The PC repair category page. */
export default function PcRepair() {
  return (
    <>
      <CatalogueJsonLd trail={catalogueTrail(category)} />
      <PageHero
        title="Réparation PC"
        subtitle="Ordinateurs portables et fixes : écran, clavier, batterie, lenteurs, virus ou panne de démarrage, nos techniciens trouvent la panne et la réparent."
      >
        <ButtonLink to="/contact" size="lg">
          Demander un diagnostic gratuit
        </ButtonLink>
        {/* Issue 18 §1: a page without prices books a free diagnosis. */}
        <ButtonLink to={bookingPath()} size="lg" variant="secondary">
          Prendre rendez-vous
        </ButtonLink>
      </PageHero>
      <Section
        title="Nos réparations PC"
        intro="Chaque panne de PC est différente : le tarif vous est donné sur devis, après un diagnostic gratuit et sans engagement."
      >
        <FeatureGrid className="sm:grid-cols-2 lg:grid-cols-3" items={PC_REPAIRS} />
        <p className="mt-8 max-w-3xl text-lg text-slate-300">
          Vous avez une Microsoft Surface (Pro, Go, Book ou Laptop)&nbsp;?{" "}
          <Link
            to="/services/surface-repair"
            className="font-semibold text-sky-300 underline underline-offset-4 hover:text-sky-200"
          >
            Consultez nos tarifs Surface
          </Link>
          .
        </p>
      </Section>
      <PromiseGrid title="Nos engagements" items={REPAIR_TRUST} />
      <CtaBanner
        title="Votre PC est en panne&nbsp;?"
        text="Apportez-le pour un diagnostic gratuit, ou contactez-nous pour un devis précis."
        to="/contact"
        label="Contactez-nous"
      />
    </>
  );
}
