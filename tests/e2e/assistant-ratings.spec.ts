/**
 * Issue 17 §4 end to end, on a server of this file with the offline
 * assistant: a customer rates an answer "Pas utile" with a comment, finds
 * the rating again after a reload, and starts a new conversation; a
 * technician then reads that exchange and comment in the dashboard's
 * "Assistant" view. axe finds nothing on either screen, at desktop and
 * mobile widths. The offline assistant's wording is being rewritten: only
 * the question and this feature's own texts are asserted.
 */
import { expect, test } from "@playwright/test";
import {
  newPage,
  signIn,
  signUpCustomer,
  startAreaServer,
  violations,
  type AreaServer,
  type TechnicianAccount,
} from "#tests/support/soft-assist-pages.ts";

const TECHNICIAN: TechnicianAccount = {
  name: "Camille Avis",
  email: "camille.avis@atelier.exemple",
  password: "mot-de-passe-technicien",
};

let area: AreaServer;

test.describe.configure({ mode: "default", timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  area = await startAreaServer("avis", [TECHNICIAN]);
});

test.afterAll(async () => {
  await area?.stop();
});

test("a « Pas utile » rating with its comment is kept, and technicians read it in « Assistant »", async ({
  browser,
}) => {
  const tag = Math.random().toString(36).slice(2, 8);
  const question = `Combien coûte le remplacement de l'écran d'un iPhone 12 ? (${tag})`;
  const comment = `Je voulais le prix de la batterie, pas de l'écran (${tag}).`;

  const customer = await newPage(browser, area.server.url);
  await signUpCustomer(customer, "Chloé Bernard");
  const panel = customer.locator("[data-slot=assistant-virtuel]");
  const log = panel.getByRole("log");
  await panel.getByPlaceholder("Tapez votre message...").fill(question);
  await panel.getByPlaceholder("Tapez votre message...").press("Enter");
  await expect(log).toContainText(question);

  // Shown once the answer is stored, never on the greeting.
  const rating = log.getByRole("group", { name: "Votre avis sur cette réponse" });
  await expect(rating).toHaveCount(1);
  await expect(panel).toContainText("Votre avis et cet échange sont transmis à l'atelier pour améliorer l'assistant.");
  const notUseful = rating.getByRole("button", { name: "Pas utile" });
  await expect(notUseful).toHaveAttribute("aria-pressed", "false");
  await notUseful.click();
  await expect(notUseful).toHaveAttribute("aria-pressed", "true");
  await expect(rating.getByRole("button", { name: "Utile", exact: true })).toHaveAttribute("aria-pressed", "false");
  await log.getByLabel("Un commentaire ? (facultatif)").fill(comment);
  expect(await violations(customer)).toEqual([]);
  await log.getByRole("button", { name: "Envoyer le commentaire" }).click();
  await expect(log.getByText("Merci pour votre avis.")).toBeVisible();
  await expect(log).toContainText(comment);
  expect(await violations(customer)).toEqual([]);

  await customer.reload();
  const reloaded = customer.locator("[data-slot=assistant-virtuel]").getByRole("log");
  await expect(reloaded).toContainText(question);
  await expect(
    reloaded.getByRole("group", { name: "Votre avis sur cette réponse" }).getByRole("button", { name: "Pas utile" }),
  ).toHaveAttribute("aria-pressed", "true");
  await expect(reloaded).toContainText(comment);

  // The shop keeps what was rated even once the customer's conversation is gone.
  await customer.getByRole("button", { name: "Nouvelle conversation" }).click();
  await expect(reloaded).not.toContainText(question);
  await customer.context().close();

  const technician = await newPage(browser, area.server.url);
  await signIn(technician, TECHNICIAN);
  await technician
    .getByRole("navigation", { name: "Vues du tableau de bord" })
    .getByRole("button", { name: "Assistant" })
    .click();
  const view = technician.getByRole("region", { name: "Avis sur l'assistant" });
  await expect(view.getByRole("heading", { level: 2, name: "Avis sur l'assistant" })).toBeVisible();
  await expect(view.getByRole("button", { name: "Seulement « Pas utile »" })).toHaveAttribute("aria-pressed", "true");
  const card = view.getByRole("listitem").filter({ hasText: comment });
  await expect(card).toBeVisible();
  await expect(card).toContainText(`Commentaire : « ${comment} »`);
  const excerpt = card.getByRole("list", { name: "Extrait de la conversation" });
  await expect(excerpt.getByRole("listitem").first()).toContainText(`Client${question}`);
  await expect(excerpt.getByRole("listitem").last()).toContainText("Assistant · réponse notée");
  await expect(view).toContainText(/Sur les 30 derniers jours : \d+ « Pas utile » et \d+ « Utile »\./);
  expect(await violations(technician)).toEqual([]);

  await view.getByRole("button", { name: "Tout afficher" }).click();
  await expect(view.getByRole("button", { name: "Tout afficher" })).toHaveAttribute("aria-pressed", "true");
  await expect(view.getByRole("listitem").filter({ hasText: comment })).toBeVisible();
  await technician.context().close();
});
