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
] as const;

export type PrerenderedPath = (typeof PRERENDERED_PATHS)[number];
