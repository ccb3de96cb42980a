/**
 * Every public route that is pre-rendered at build time (issue 2). The build
 * (react-router.config.ts), the e2e tests and later the sitemap read this list.
 */
export const PRERENDERED_PATHS = [
  "/",
  "/contact",
  "/dev-web",
  "/mentions-legales",
  "/vente-reparation",
  "/sales",
  "/assistance-informatique",
  "/solutions-pro",
  "/gaming-vr",
  "/products/pc",
  "/products/smartphones",
  "/repair",
  // Repair catalogue §2, in its order: each category page followed by its brand pages.
  "/services/pc-repair",
  "/services/smartphone-repair",
  "/services/iphone-repair",
  "/services/samsung-repair",
  "/services/xiaomi-repair",
  "/services/google-repair",
  "/services/huawei-repair",
  "/services/oppo-repair",
  "/services/realme-repair",
  "/services/sony-repair",
  "/services/honor-repair",
  "/services/asus-repair",
  "/services/tablet-repair",
  "/services/acer-tablet-repair",
  "/services/ipad-repair",
  "/services/asus-tablet-repair",
  "/services/huawei-tablet-repair",
  "/services/surface-repair",
  "/services/samsung-tablet-repair",
  "/services/sony-tablet-repair",
  "/services/toshiba-tablet-repair",
  "/services/xiaomi-tablet-repair",
  "/services/console-repair",
  "/services/playstation-repair",
  "/services/xbox-repair",
  "/services/nintendo-repair",
] as const;

export type PrerenderedPath = (typeof PRERENDERED_PATHS)[number];
