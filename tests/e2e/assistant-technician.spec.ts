/**
 * Issue 18 §4 end to end, on a server of this file with the offline
 * assistant: a customer asks a repair price and gets, beside the price page,
 * the « Prendre rendez-vous » link pre-filled for the model and repair; then
 * « Parler à un technicien » starts a session whose code shows as usual. A
 * technician joins with that code and reads « Conversation avec
 * l'assistant » in the active session panel. axe finds nothing on either
 * screen, at desktop and mobile widths.
 */
import { expect, test } from "@playwright/test";
import {
  join,
  newPage,
  signIn,
  signUpCustomer,
  startAreaServer,
  violations,
  type AreaServer,
  type TechnicianAccount,
} from "#tests/support/soft-assist-pages.ts";

const TECHNICIAN: TechnicianAccount = {
  name: "Sacha Relais",
  email: "sacha.relais@atelier.exemple",
  password: "mot-de-passe-technicien",
};
const BOOKING = "/rendez-vous?modele=ps5&reparation=port-hdmi";

let area: AreaServer;

test.describe.configure({ mode: "default", timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  area = await startAreaServer("technicien", [TECHNICIAN]);
});

test.afterAll(async () => {
  await area?.stop();
});

test("the answer links to the booking form, and « Parler à un technicien » hands the conversation over", async ({
  browser,
}) => {
  const question = "Combien coûte le port HDMI d'une PS5 ?";

  const customer = await newPage(browser, area.server.url);
  await signUpCustomer(customer, "Inès Moreau");
  const panel = customer.locator("[data-slot=assistant-virtuel]");
  const log = panel.getByRole("log");
  await panel.getByPlaceholder("Tapez votre message...").fill(question);
  await panel.getByPlaceholder("Tapez votre message...").press("Enter");
  await expect(log).toContainText(question);
  // Issue 40: named links, not raw paths.
  const booking = log.getByRole("link", { name: "Prendre rendez-vous : Port HDMI, PS5" });
  await expect(booking).toHaveAttribute("href", BOOKING);
  await expect(log.getByRole("link", { name: "Réparation PlayStation : PS5" })).toBeVisible();
  await expect(log).not.toContainText(BOOKING);
  // Stored: the rating buttons show once the answer is saved, so the handover holds it.
  await expect(log.getByRole("group", { name: "Votre avis sur cette réponse" })).toHaveCount(1);
  expect(await violations(customer)).toEqual([]);

  await panel.getByRole("button", { name: "Parler à un technicien" }).click();
  const sessionCode = customer.getByRole("group", { name: /^Code de session/ });
  await expect(sessionCode).toBeVisible();
  const code = (await sessionCode.textContent())!.trim();
  expect(code).toMatch(/^[A-Z0-9]{3} [A-Z0-9]{3}$/); // Issue 40: « K7W 9GA », as everywhere.
  await expect(panel.getByRole("status").filter({ hasText: `communiquez le code ${code}` })).toBeVisible();
  await expect(customer.getByText("En attente d'un technicien…")).toBeVisible();
  expect(await violations(customer)).toEqual([]);

  const technician = await newPage(browser, area.server.url);
  await signIn(technician, TECHNICIAN);
  await expect(technician.getByRole("heading", { level: 1, name: "Tableau de bord technicien" })).toBeVisible();
  await join(technician, code);
  // The full-screen remote view opens by itself (issue 6); "Réduire" goes back to the dashboard.
  const remote = technician.getByRole("dialog", { name: "Contrôle à distance" });
  await expect(remote).toBeVisible();
  // Why the customer called, beside the chat of the view the technician works in.
  const inRemote = remote.getByRole("list", { name: "Conversation avec l'assistant" });
  await expect(inRemote.getByRole("listitem")).toHaveCount(2);
  await expect(inRemote.getByRole("listitem").first()).toContainText(question);
  expect(await violations(technician)).toEqual([]);
  await remote.getByRole("button", { name: "Réduire" }).click();
  await expect(remote).toBeHidden();
  await expect(technician.getByText(`Connecté à la session ${code}`)).toBeVisible();

  const conversation = technician.getByRole("list", { name: "Conversation avec l'assistant" });
  await expect(conversation).toBeVisible();
  await expect(technician.getByRole("heading", { level: 3, name: "Conversation avec l'assistant" })).toBeVisible();
  const messages = conversation.getByRole("listitem");
  await expect(messages).toHaveCount(2);
  await expect(messages.first()).toContainText(/^Client · \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
  await expect(messages.first()).toContainText(question);
  await expect(messages.last()).toContainText(/^Assistant · \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
  // The technician reads where the link led, without a link that would leave the session.
  await expect(messages.last()).toContainText(`Prendre rendez-vous : Port HDMI, PS5 (${BOOKING})`);
  await expect(messages.last().getByRole("link")).toHaveCount(0);
  await expect(customer.getByText("Sacha, technicien de l'atelier, est connecté")).toBeVisible();
  expect(await violations(technician)).toEqual([]);

  await technician.context().close();
  await customer.context().close();
});
