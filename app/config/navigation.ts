/**
 * Site navigation (spec §2 "Shared layout"): the fixed top bar's five links,
 * and the mobile menu's three groups (main, "Nos services", footer).
 */
export type NavLinkItem = { label: string; to: string };

/** Top bar, in the spec's order. */
export const mainNav: readonly NavLinkItem[] = [
  { label: "Accueil", to: "/" },
  { label: "Contact", to: "/contact" },
  { label: "Développement web", to: "/dev-web" },
  { label: "Vente neuf et reconditionné", to: "/sales" },
  { label: "Mentions légales", to: "/mentions-legales" },
];

/** "Nos services" group of the mobile menu and the footer. */
export const servicesNav: readonly NavLinkItem[] = [
  { label: "Réparation", to: "/repair" },
  { label: "Vente et réparation", to: "/vente-reparation" },
  { label: "Assistance informatique", to: "/assistance-informatique" },
  { label: "Solutions professionnelles", to: "/solutions-pro" },
  { label: "Gaming et réalité virtuelle", to: "/gaming-vr" },
  { label: "PC neufs et reconditionnés", to: "/products/pc" },
  { label: "Smartphones neufs et reconditionnés", to: "/products/smartphones" },
];

/** Footer group of the mobile menu (with the shop's phone, e-mail and address). */
export const footerNav: readonly NavLinkItem[] = [{ label: "Assistance à distance", to: "/soft-assist" }];
