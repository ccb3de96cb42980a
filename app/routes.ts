/** Every route of the site, in code (spec §2 route table). */
import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("contact", "routes/contact.tsx"),
  route("dev-web", "routes/dev-web.tsx"),
  route("mentions-legales", "routes/mentions-legales.tsx"),
  route("vente-reparation", "routes/vente-reparation.tsx"),
  route("sales", "routes/sales.tsx"),
  route("assistance-informatique", "routes/assistance-informatique.tsx"),
  route("solutions-pro", "routes/solutions-pro.tsx"),
  route("gaming-vr", "routes/gaming-vr.tsx"),
  route("products/pc", "routes/products.pc.tsx"),
  route("products/smartphones", "routes/products.smartphones.tsx"),
  route("repair", "routes/repair.tsx"),
  // Repair catalogue §2: the four category pages, then one template for the 22 brand pages
  // (static segments outrank `:page`, so the categories never reach the brand loader).
  route("services/pc-repair", "routes/services.pc-repair.tsx"),
  route("services/smartphone-repair", "routes/services.smartphone-repair.tsx"),
  route("services/tablet-repair", "routes/services.tablet-repair.tsx"),
  route("services/console-repair", "routes/services.console-repair.tsx"),
  route("services/:page", "routes/services.brand.tsx"),
  // Issue 18 §1: booking a slot, and the customer's page for it (signed link), with its .ics.
  route("rendez-vous", "routes/rendez-vous.tsx"),
  route("rendez-vous/gerer", "routes/rendez-vous.gerer.tsx"),
  route("rendez-vous/invitation.ics", "routes/rendez-vous.invitation.ts"),
  route("dashboard", "routes/dashboard.tsx"),
  route("soft-assist", "routes/soft-assist.tsx"),
  // Where the password-reset mail's link lands (better-auth redirects here with ?token=).
  route("soft-assist/nouveau-mot-de-passe", "routes/soft-assist.nouveau-mot-de-passe.tsx"),
  // Issue 29: a technician's invitation link, and the one-time manager set-up link printed at first start.
  route("soft-assist/invitation", "routes/soft-assist.invitation.tsx"),
  route("soft-assist/gerant", "routes/soft-assist.gerant.tsx"),
  route("robots.txt", "routes/robots.txt.ts"),
  route("sitemap.xml", "routes/sitemap.xml.ts"),
  // Issue 18 §2: the public repair-tracking page (code + e-mail or phone).
  route("suivi", "routes/suivi.tsx"),
  // Spec §2: any unknown path goes to / and replaces the history entry.
  route("*", "routes/catch-all.tsx"),
] satisfies RouteConfig;
