/**
 * Site navigation (spec §2 "Shared layout"): the fixed top bar's five links,
 * and the mobile menu's three groups (main, "Nos services", footer); issue 40:
 * the ways in to what the shop offers beyond the spec's pages (`waysInNav`),
 * in the top bar, the phone menu and the footer.
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

/**
 * Issue 40, « What the shop now offers cannot be found »: the prices and the finder, booking, following a repair
 * and remote help, shown on desktop (« Réparations et aide » in the top bar), in the phone menu and the footer.
 */
export const waysInNav: readonly NavLinkItem[] = [
  { label: "Réparations et tarifs", to: "/repair" },
  { label: "Prendre rendez-vous", to: "/rendez-vous" },
  { label: "Suivre ma réparation", to: "/suivi" },
  { label: "Assistance à distance", to: "/soft-assist" },
];

/** The title of the `waysInNav` group, wherever it is shown. */
export const WAYS_IN_TITLE = "Réparations et aide";
