/**
 * Every public route shows its spec headings and links (spec §2, issue 2). Strings quoted by the
 * spec are matched verbatim; hrefs are the spec's targets.
 */
import { expect, test, type Page } from "@playwright/test";

type Expectation = {
  h1: string;
  /** Headings (any level) that must be visible. */
  headings?: string[];
  /** [accessible name, href] of links inside <main>. */
  links?: [string | RegExp, string | RegExp][];
  /** Texts that must appear in <main>. */
  texts?: string[];
};

const pages: Record<string, Expectation> = {
  "/": {
    h1: "Réparation, vente et assistance informatique près de chez vous",
    links: [
      ["Nous contacter", "/contact"],
      ["Réparation PC", "/services/pc-repair"],
      ["Réparation smartphone", "/services/smartphone-repair"],
      ["Réparation tablette", "/services/tablet-repair"],
      ["Réparation console", "/services/console-repair"],
      ["Développement web", "/dev-web"],
      ["Solutions professionnelles", "/solutions-pro"],
      ["Vente neuf et reconditionné", "/sales"],
      ["Demander un diagnostic gratuit", "/contact"],
    ],
    headings: ["Pièces d'origine", "Expertise certifiée", "Service rapide"],
  },
  "/contact": {
    h1: "Contactez-nous",
    links: [
      [/rue de l'Exemple/, /^https:\/\/www\.google\.com\/maps/],
      [/01 99 00 12 34/, "tel:+33199001234"],
      [/contact@atelier-informatique\.example/, "mailto:contact@atelier-informatique.example"],
    ],
    texts: ["Du lundi au vendredi : 9h – 14h", "14h – 19h sur rendez-vous"],
  },
  "/dev-web": {
    h1: "Développement web sur mesure",
    headings: ["Design sur mesure", "IA intégrée", "Référencement SEO", "Demander un devis"],
    links: [
      ["Demander un devis", "#devis"],
      [/^Choisir.*5 Go/, /#devis$/],
      [/^Choisir.*10 Go/, /#devis$/],
      [/^Choisir.*50 Go/, /#devis$/],
    ],
    texts: ["3,99 €", "4,99 €", "9,99 €", "48 heures"],
  },
  "/mentions-legales": {
    h1: "Mentions légales",
    headings: [
      "Éditeur du site",
      "Directeur de la publication",
      "Hébergement",
      "Propriété intellectuelle",
      "Protection des données personnelles",
      "Cookies",
    ],
    texts: ["15 000 €", "droit d'accès", "droit de rectification", "droit de suppression"],
  },
  "/repair": {
    h1: "Réparation de vos appareils",
    headings: ["Notre processus de réparation", "Diagnostic gratuit"],
    links: [
      ["Réparation PC", "/services/pc-repair"],
      ["Réparation smartphone", "/services/smartphone-repair"],
      ["Réparation tablette", "/services/tablet-repair"],
      ["Réparation console", "/services/console-repair"],
      // Issue 18 §1.
      ["Prendre rendez-vous", "/rendez-vous"],
    ],
  },
  "/sales": {
    h1: "Découvrez notre sélection",
    texts: ["Du neuf au reconditionné premium", "24 mois"],
    links: [
      [/PC/, "/products/pc"],
      [/[Ss]martphones/, "/products/smartphones"],
      ["Besoin de conseils ?", "/contact"],
    ],
  },
  "/assistance-informatique": {
    h1: "Assistance informatique",
    texts: ["Support technique professionnel en magasin ou à distance"],
    headings: ["Sécurité garantie", "Service 24/7", "Besoin d'aide ?"],
    links: [["Nous contacter", "/contact"]],
  },
  "/solutions-pro": {
    h1: "Solutions professionnelles",
    headings: ["Prêt à optimiser votre entreprise ?"],
  },
  "/gaming-vr": {
    h1: "Gaming et Réalité Virtuelle",
    headings: ["Prêt à passer au niveau supérieur ?"],
  },
  "/products/pc": {
    h1: "PC neufs et reconditionnés",
    links: [["Besoin d'un nouveau PC ?", "/contact"]],
    texts: ["3 ans", "4h"],
  },
  "/products/smartphones": {
    h1: "Smartphones neufs et reconditionnés",
    links: [["Envie d'un nouveau smartphone ?", "/contact"]],
    texts: ["24 mois", "36 mois"],
  },
  "/vente-reparation": {
    h1: "Vente et réparation",
    links: [[/contact|Contact/, "/contact"]],
  },
};

async function check(page: Page, path: string, expected: Expectation) {
  await page.goto(path);
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 1 })).toHaveText(expected.h1);
  await expect(main.getByRole("heading", { level: 1 })).toHaveCount(1);
  for (const heading of expected.headings ?? []) {
    await expect(main.getByRole("heading", { name: heading, exact: true }).first()).toBeVisible();
  }
  for (const [name, href] of expected.links ?? []) {
    const link = main.getByRole("link", { name, exact: typeof name === "string" }).first();
    await expect(link, `${String(name)} on ${path}`).toBeVisible();
    await expect(link).toHaveAttribute("href", href);
  }
  for (const text of expected.texts ?? []) {
    await expect(main).toContainText(text);
  }
}

for (const [path, expected] of Object.entries(pages)) {
  test(`${path} shows its spec headings and links`, async ({ page }) => {
    await check(page, path, expected);
  });
}

test("a plan's Choisir link leads to the quote section", async ({ page }) => {
  await page.goto("/dev-web");
  await page.getByRole("link", { name: /^Choisir.*10 Go/ }).click();
  await expect(page).toHaveURL(/offre=mail-10#devis$/);
  await expect(page.getByRole("heading", { name: "Demander un devis", exact: true })).toBeInViewport();
});
