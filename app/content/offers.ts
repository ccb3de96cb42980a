/**
 * Copy of the feature cards of the home page (spec §2 "Home"), the web
 * development, gaming/VR, professional-solutions and IT-assistance pages
 * (spec §2), kept out of the route modules so that each page only lays out
 * its sections and every card renders through `FeatureGrid` (issue 14).
 */
import {
  Award,
  BadgeCheck,
  Briefcase,
  Clock,
  CodeXml,
  Gamepad2,
  Gauge,
  Glasses,
  Globe,
  MonitorCog,
  MonitorSmartphone,
  Network,
  Palette,
  Phone,
  Plane,
  Search,
  ShieldCheck,
  ShoppingBag,
  Sparkles,
  Store,
  Zap,
} from "lucide-react";
import type { FeatureItem } from "#app/components/ui/card.tsx";
import { formatHours, REPAIR_WARRANTY, salesPromises } from "#app/config/sales-promises.ts";

/** Home "Solutions pour les professionnels": link cards to the three other offers. */
export const HOME_PRO_SOLUTIONS: readonly FeatureItem[] = [
  {
    title: "Développement web",
    text: "Sites vitrines sur mesure avec IA intégrée, référencement naturel et boîtes mail professionnelles.",
    to: "/dev-web",
    icon: CodeXml,
  },
  {
    title: "Solutions professionnelles",
    text: "Gestion de parc informatique, solutions web, infrastructure et téléphonie pour votre entreprise.",
    to: "/solutions-pro",
    icon: Briefcase,
  },
  {
    title: "Vente neuf et reconditionné",
    text: "PC et smartphones neufs ou reconditionnés, configurés et prêts à l'emploi, avec garantie.",
    to: "/sales",
    icon: ShoppingBag,
  },
];

/** Home "Pourquoi nous faire confiance ?": the three trust points. */
export const HOME_TRUST_POINTS: readonly FeatureItem[] = [
  {
    title: "Pièces d'origine",
    text: `Nous réparons avec des pièces d'origine, gage d'une réparation fiable et durable, ou compatibles si vous le préférez : garantie ${REPAIR_WARRANTY}.`,
    icon: BadgeCheck,
  },
  {
    title: "Expertise certifiée",
    text: "Des techniciens certifiés et expérimentés, qui vous expliquent la panne et la solution avant d'intervenir.",
    icon: Award,
  },
  {
    title: "Service rapide",
    text: "Diagnostic gratuit et réparation Express 1H : la plupart des appareils repartent le jour même.",
    icon: Zap,
  },
];

/** /dev-web "Un site qui vous ressemble": the three feature blocks. */
export const DEV_WEB_FEATURES: readonly FeatureItem[] = [
  {
    title: "Design sur mesure",
    text: "Un site vitrine unique, à l'image de votre entreprise, pensé pour le mobile comme pour l'ordinateur et facile à faire évoluer.",
    icon: Palette,
  },
  {
    title: "IA intégrée",
    text: "Un assistant intelligent intégré à votre site pour répondre à vos visiteurs et les orienter, à toute heure.",
    icon: Sparkles,
  },
  {
    title: "Référencement SEO",
    text: "Un site rapide, bien structuré et optimisé pour les moteurs de recherche, afin que vos clients vous trouvent facilement.",
    icon: Search,
  },
];

/** /gaming-vr "Nos configurations gaming et VR": the four cards. */
export const GAMING_VR_CARDS: readonly FeatureItem[] = [
  {
    title: "PC gaming sur mesure",
    icon: Gamepad2,
    text: "Nous assemblons votre machine selon vos jeux, votre budget et vos envies, avec des composants choisis avec soin.",
    checks: ["Choix des composants avec vous", "Montage et câblage soignés", "Tests de stabilité avant remise"],
  },
  {
    title: "Setup complet de simulation automobile et aéronautique",
    icon: Plane,
    text: "Un setup complet, prêt à rouler ou à décoller : nous installons et réglons l'ensemble de votre poste de pilotage.",
    checks: [
      "Volants, pédaliers et cockpits",
      "Joysticks, manettes des gaz et palonniers",
      "Écrans multiples et réglages",
    ],
  },
  {
    title: "Performances maximales",
    icon: Gauge,
    text: "Des images fluides et un système silencieux, optimisés pour tirer le meilleur de chaque composant.",
    checks: ["Cartes graphiques de dernière génération", "Refroidissement performant", "Optimisation du système"],
  },
  {
    title: "Réalité virtuelle immersive",
    icon: Glasses,
    text: "Plongez au cœur de l'action avec un casque de réalité virtuelle et des accessoires à retour haptique.",
    checks: ["Casques VR configurés et calibrés", "Retour haptique", "Espace de jeu installé avec vous"],
  },
];

/** /solutions-pro "Nos solutions pour les entreprises" (spec §9: intervention within 4 hours). */
export const SOLUTIONS_PRO_CARDS: readonly FeatureItem[] = [
  {
    title: "Gestion de parc informatique",
    icon: MonitorCog,
    text: "Nous suivons et entretenons vos ordinateurs pour que vos équipes travaillent sans interruption.",
    checks: [
      "Inventaire, mises à jour et sauvegardes",
      "Maintenance préventive de vos postes",
      `Intervention sous ${formatHours(salesPromises.businessInterventionHours)} et prêt de matériel`,
    ],
  },
  {
    title: "Solutions web",
    icon: Globe,
    text: "Une présence en ligne professionnelle, de l'adresse de votre site à vos boîtes mail.",
    checks: ["Noms de domaine", "Applications", "Messagerie professionnelle"],
    button: { to: "/dev-web", label: "Découvrir le développement web" },
  },
  {
    title: "Infrastructure",
    icon: Network,
    text: "Un réseau fiable et sécurisé, dimensionné pour vos locaux et vos usages.",
    checks: ["Réseau filaire et Wi-Fi", "Serveurs et stockage partagé", "Sécurité et pare-feu"],
  },
  {
    title: "Téléphonie",
    icon: Phone,
    text: "Des communications claires et joignables partout, au bureau comme en déplacement.",
    checks: ["Téléphonie IP", "Standard et renvois d'appels", "Smartphones professionnels"],
  },
];

/** /assistance-informatique "Deux façons de vous dépanner": in store or remote. */
export const ASSISTANCE_WAYS: readonly FeatureItem[] = [
  {
    title: "Support en magasin",
    icon: Store,
    text: "Apportez votre ordinateur, votre smartphone ou votre tablette : un technicien l'examine devant vous.",
    checks: ["Diagnostic matériel complet", "Réparation sur place si possible", "Conseils personnalisés"],
  },
  {
    title: "Assistance à distance",
    icon: MonitorSmartphone,
    text: "Grâce à notre logiciel d'assistance à distance, un technicien se connecte à votre écran, avec votre accord, pour résoudre le problème.",
    checks: [
      "Intervention rapide sans déplacement",
      "Solutions sécurisées et professionnelles",
      "Accompagnement tout au long de l'intervention",
    ],
    button: { to: "/soft-assist", label: "Accéder à l'assistance à distance" },
  },
];

/** /assistance-informatique "Nos garanties". */
export const ASSISTANCE_GUARANTEES: readonly FeatureItem[] = [
  {
    title: "Sécurité garantie",
    icon: ShieldCheck,
    text: "Chaque session à distance se fait sur une connexion chiffrée, uniquement avec votre code et votre accord : vous voyez tout ce que fait le technicien et pouvez arrêter à tout moment.",
  },
  {
    title: "Service 24/7",
    icon: Clock,
    text: "Notre assistant virtuel répond à vos questions à toute heure depuis l'espace d'assistance à distance ; un technicien prend le relais dès que c'est nécessaire.",
  },
];
