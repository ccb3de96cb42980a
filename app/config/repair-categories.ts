/**
 * The four repair categories and the repair promises (spec §1 and §2 "Home",
 * repair catalogue §1–2), shared by the home page (/) and the repair-service
 * home (/repair). The category pages under /services/ are the catalogue's
 * entry points.
 */
import {
  BadgeCheck,
  Gamepad2,
  Laptop,
  ShieldCheck,
  Smartphone,
  Stethoscope,
  Tablet,
  Zap,
  type LucideIcon,
} from "lucide-react";
import { formatMonths, REPAIR_WARRANTY, repairPromises } from "./sales-promises.ts";

/** Names of the icons used by the repair data (mapped to components by `repairIcons`). */
export type RepairIconName =
  "laptop" | "smartphone" | "tablet" | "gamepad" | "diagnosis" | "warranty" | "express" | "parts";

/** The lucide-react component for each icon name (render it with `aria-hidden`). */
export const repairIcons: Readonly<Record<RepairIconName, LucideIcon>> = {
  laptop: Laptop,
  smartphone: Smartphone,
  tablet: Tablet,
  gamepad: Gamepad2,
  diagnosis: Stethoscope,
  warranty: ShieldCheck,
  express: Zap,
  parts: BadgeCheck,
};

export type RepairCategory = {
  id: "pc" | "smartphone" | "tablet" | "console";
  /** Card title, also the accessible name of the card's link. */
  title: string;
  description: string;
  /** Category entry of the repair catalogue (spec §2 route table). */
  path: `/services/${string}`;
  icon: RepairIconName;
};

/** Spec §2: the four category entries, in this order on / and /repair. */
export const REPAIR_CATEGORIES = [
  {
    id: "pc",
    title: "Réparation PC",
    description:
      "Ordinateurs portables et fixes : écran, clavier, batterie, surchauffe, lenteurs, virus ou panne de démarrage.",
    path: "/services/pc-repair",
    icon: "laptop",
  },
  {
    id: "smartphone",
    title: "Réparation smartphone",
    description:
      "Écran cassé, batterie fatiguée, connecteur de charge ou caméra : iPhone, Samsung, Xiaomi, Google et bien d'autres.",
    path: "/services/smartphone-repair",
    icon: "smartphone",
  },
  {
    id: "tablet",
    title: "Réparation tablette",
    description:
      "iPad, Surface, Samsung, Huawei, Xiaomi… Remplacement d'écran, de batterie, de connecteur ou de caméra.",
    path: "/services/tablet-repair",
    icon: "tablet",
  },
  {
    id: "console",
    title: "Réparation console",
    description: "PlayStation, Xbox et Nintendo : lecteur, manettes, surchauffe, ports HDMI et alimentation.",
    path: "/services/console-repair",
    icon: "gamepad",
  },
] as const satisfies readonly RepairCategory[];

export type RepairPromise = { title: string; text: string; icon: RepairIconName };

/** Repair catalogue §1: the promises repeated across the repair pages (titles verbatim). */
export const REPAIR_PROMISES = [
  { title: "Diagnostic gratuit", text: "Nous identifions la panne sans frais avant tout devis.", icon: "diagnosis" },
  {
    title: `Express ${repairPromises.expressRepairHours}H`,
    text: `La plupart des réparations sont faites en ${repairPromises.expressRepairHours} heure sur place.`,
    icon: "express",
  },
  {
    title: "Pièces d'origine",
    text: "Des pièces d'origine sur demande pour une réparation durable, ou compatibles pour un prix plus doux.",
    icon: "parts",
  },
  {
    title: `Garantie ${formatMonths(repairPromises.warrantyMonths)}`,
    text: `Garantie ${REPAIR_WARRANTY}.`,
    icon: "warranty",
  },
] as const satisfies readonly RepairPromise[];
