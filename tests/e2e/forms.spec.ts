/**
 * The contact form on /contact and the quote form on /dev-web (issue 4; spec
 * §4 states, §5 validation, §8 messages), against the real server and
 * database, at desktop and mobile widths: success, sending state,
 * server-side validation, plan preselection, both forms without JavaScript, and axe (WCAG 2.2 AA)
 * with field errors and with the success message shown. Issue 30 (decision 029): both pages are
 * islands pages, whose forms post natively with or without JavaScript; JavaScript adds the sending
 * state, the focus on the answer and the plan choice.
 */
import { expect, test, type Page, type Request } from "@playwright/test";
import { REQUEST_MESSAGES } from "#app/requests/schemas.ts";
import { violations } from "../support/axe.ts";
import { enhanced, recordSendingStates, sendingStates } from "../support/enhanced.ts";

/**
 * Opens `path` and waits for its form's enhancer (issue 30: the page is an islands page, its form posts
 * natively; the enhancer adds the sending state, the one-time key and the focus after an answer).
 */
async function openEnhanced(page: Page, path: string) {
  await page.goto(path);
  await enhanced(page, "main form[data-enhance]");
}

/** A unique marker, so rows written by parallel tests can be told apart in the database. */
const marker = () => `e2e ${test.info().project.name} ${test.info().testId} ${Date.now()}`;

/** The form's native POST to its route action (`/contact`, `/dev-web`). */
const isActionPost = (path: string) => (request: Request) =>
  request.method() === "POST" && new URL(request.url()).pathname === path;

// ---------------------------------------------------------------- contact

const contact = (page: Page) => {
  const section = page.locator("#message");
  return {
    section,
    name: section.getByRole("textbox", { name: "Nom", exact: true }),
    email: section.getByRole("textbox", { name: "Adresse e-mail" }),
    message: section.getByRole("textbox", { name: "Message" }),
    send: section.getByRole("button", { name: "Envoyer le message" }),
    sending: section.getByRole("button", { name: "Envoi en cours..." }),
    status: section.getByRole("status"),
    alert: section.getByRole("alert"),
  };
};

async function fillContact(page: Page, values: { name?: string; email?: string; message?: string } = {}) {
  const form = contact(page);
  await form.name.fill(values.name ?? "Marie Curie");
  await form.email.fill(values.email ?? "marie.curie@example.fr");
  await form.message.fill(values.message ?? `Mon PC portable ne démarre plus. (${marker()})`);
  return form;
}

test.describe("contact form", () => {
  test("sends the message, says so and empties the fields", async ({ page }) => {
    await openEnhanced(page, "/contact");
    const form = await fillContact(page);
    const answer = page.waitForResponse((response) => isActionPost("/contact")(response.request()));
    await form.send.click();
    expect((await answer).status()).toBe(201);
    await expect(page).toHaveURL(/\/contact#message$/);
    await expect(form.status).toContainText(REQUEST_MESSAGES.contactSuccess);
    // Issue 40: and when the shop answers.
    await expect(form.status).toContainText(REQUEST_MESSAGES.contactAnswerDelay);
    // Read out: the page loaded by the post puts focus on its answer.
    await expect(form.status).toBeFocused();
    await expect(form.name).toHaveValue("");
    await expect(form.email).toHaveValue("");
    await expect(form.message).toHaveValue("");
    await expect(form.alert).toBeEmpty();
  });

  test("disables the button and reads « Envoi en cours... » while sending", async ({ page }) => {
    await recordSendingStates(page);
    await openEnhanced(page, "/contact");
    const form = await fillContact(page);
    await form.send.click();
    await expect(form.status).toContainText(REQUEST_MESSAGES.contactSuccess);
    // What the page showed while the message was on its way: the sending label, then the button disabled.
    expect(await sendingStates(page)).toContainEqual({ text: "Envoi en cours...", disabled: true });
    await expect(form.send).toBeEnabled();
  });

  test("a refused message keeps the values, and its message goes away on typing", async ({ page }) => {
    await openEnhanced(page, "/contact");
    const form = await fillContact(page, { name: "Marie Refus", email: "marie@localhost" });
    await form.send.click();
    await expect(form.alert).toHaveText(REQUEST_MESSAGES.invalid);
    await expect(form.name).toHaveValue("Marie Refus");
    await expect(page.getByRole("heading", { level: 1, name: "Contactez-nous" })).toBeVisible();

    await form.message.press("End");
    await form.message.pressSequentially(" Merci.");
    await expect(form.alert).toBeEmpty();
    await expect(page.getByText(REQUEST_MESSAGES.invalid)).toHaveCount(0);
  });

  test("puts the server's French error under the e-mail field; nothing is stored; axe finds nothing", async ({
    page,
  }) => {
    await openEnhanced(page, "/contact");
    // Skip the browser's own check, as an old browser or a robot would.
    await page.locator("#message form").evaluate((element) => ((element as HTMLFormElement).noValidate = true));
    const form = await fillContact(page, { email: "pas-une-adresse" });
    const answer = page.waitForResponse((response) => isActionPost("/contact")(response.request()));
    await form.send.click();
    expect((await answer).status()).toBe(400);

    await expect(form.alert).toHaveText(REQUEST_MESSAGES.invalid);
    const error = "Veuillez indiquer une adresse e-mail valide, par exemple nom@exemple.fr.";
    await expect(form.email).toHaveAttribute("aria-invalid", "true");
    await expect(form.email).toHaveAccessibleDescription(error);
    await expect(form.section.getByText(error)).toBeVisible();
    await expect(form.email).toBeFocused();
    await expect(form.name).not.toHaveAttribute("aria-invalid");
    await expect(form.status).toBeEmpty();
    expect(await violations(page)).toEqual([]);
  });

  test("refuses an address the browser accepts but the server does not", async ({ page }) => {
    await page.goto("/contact");
    const form = await fillContact(page, { email: "marie@localhost" });
    await form.send.click();
    await expect(form.email).toHaveAccessibleDescription(/adresse e-mail valide/);
    await expect(form.email).toHaveValue("marie@localhost");
  });

  test("axe finds nothing with the success message shown", async ({ page }) => {
    await page.goto("/contact");
    const form = await fillContact(page);
    await form.send.click();
    await expect(form.status).toContainText(REQUEST_MESSAGES.contactSuccess);
    expect(await violations(page)).toEqual([]);
  });
});

// ---------------------------------------------------------------- quote

const quote = (page: Page) => {
  const section = page.locator("#devis");
  return {
    section,
    companyName: section.getByRole("textbox", { name: "Nom de l'entreprise" }),
    contactName: section.getByRole("textbox", { name: "Nom du contact" }),
    email: section.getByRole("textbox", { name: "Adresse e-mail" }),
    phone: section.getByRole("textbox", { name: "Téléphone" }),
    description: section.getByRole("textbox", { name: "Description du projet" }),
    domain: section.getByRole("textbox", { name: "Nom de domaine souhaité" }),
    plan: section.getByRole("combobox", { name: "Offre de boîte mail" }),
    budget: section.getByRole("textbox", { name: "Budget envisagé" }),
    send: section.getByRole("button", { name: "Envoyer la demande de devis" }),
    sending: section.getByRole("button", { name: "Envoi en cours..." }),
    status: section.getByRole("status"),
    alert: section.getByRole("alert"),
  };
};

async function fillQuote(page: Page, values: { phone?: string; plan?: string } = {}) {
  const form = quote(page);
  await form.companyName.fill("Boulangerie Martin");
  await form.contactName.fill("Paul Martin");
  await form.email.fill("paul.martin@example.fr");
  await form.phone.fill(values.phone ?? "01 23 45 67 89");
  await form.description.fill(`Un site vitrine avec nos horaires et nos produits. (${marker()})`);
  await form.domain.fill("boulangerie-martin");
  await form.plan.selectOption(values.plan ?? "mail-10");
  await form.budget.fill("1 500 €");
  return form;
}

test.describe("quote form", () => {
  test("a plan card's Choisir link preselects its plan, also from the page itself", async ({ page }) => {
    await page.goto("/dev-web");
    await enhanced(page, "#devis select", "quote-plan");
    const form = quote(page);
    await expect(form.plan).toHaveValue("");
    await page.getByRole("link", { name: /^Choisir.*10 Go/ }).click();
    await expect(page).toHaveURL(/\?offre=mail-10#devis$/);
    await expect(form.plan).toHaveValue("mail-10");
    await expect(form.plan.locator("option:checked")).toHaveText("Boîte mail 10 Go – 4,99 € par mois");
    // Keyboard users continue from the plan they chose, in the form.
    await expect(form.plan).toBeFocused();
    await expect(page.getByRole("heading", { name: "Demander un devis", exact: true })).toBeInViewport();
    await page.getByRole("link", { name: /^Choisir.*50 Go/ }).click();
    await expect(form.plan).toHaveValue("mail-50");
  });

  test("opening a Choisir link's address selects the plan", async ({ page }) => {
    await page.goto("/dev-web?offre=mail-5#devis");
    await enhanced(page, "#devis select", "quote-plan");
    await expect(quote(page).plan).toHaveValue("mail-5");
    await expect(quote(page).plan).not.toBeFocused();
    await expect(page.getByRole("heading", { name: "Demander un devis", exact: true })).toBeInViewport();
  });

  test("the domain field shows .com after it and in its description", async ({ page }) => {
    await openEnhanced(page, "/dev-web");
    const form = quote(page);
    await expect(form.domain).toHaveAccessibleDescription(/Extension ajoutée : \.com/);
    const suffix = form.section.locator("#devis-domaine-extension");
    await expect(suffix).toBeVisible();
    await expect(suffix).toContainText(".com");
    // Beside the field, on its right.
    const [field, box] = [await form.domain.boundingBox(), await suffix.boundingBox()];
    expect(box!.x).toBeGreaterThanOrEqual(field!.x + field!.width - 1);
    expect(Math.abs(box!.y - field!.y)).toBeLessThan(2);
  });

  test("sends the request: the thank-you message replaces the form and takes focus", async ({ page }) => {
    await recordSendingStates(page);
    await openEnhanced(page, "/dev-web");
    const form = await fillQuote(page);
    await form.send.click();

    await expect(form.status).toContainText(REQUEST_MESSAGES.quoteSuccess);
    await expect(form.status).toContainText(REQUEST_MESSAGES.quoteSuccessDetail);
    await expect(form.status).toBeFocused();
    expect(await sendingStates(page)).toContainEqual({ text: "Envoi en cours...", disabled: true });
    await expect(form.companyName).toHaveCount(0);
    await expect(form.section.locator("form")).toHaveCount(0);
    expect(await violations(page)).toEqual([]);
  });

  test("a refusal keeps the form and its values; the message goes away on the next submit", async ({ page }) => {
    await openEnhanced(page, "/dev-web");
    await page.locator("#devis form").evaluate((element) => ((element as HTMLFormElement).noValidate = true));
    const form = await fillQuote(page, { plan: "mail-50", phone: "pas de téléphone" });
    await form.send.click();
    await expect(form.alert).toHaveText(REQUEST_MESSAGES.invalid);
    await expect(form.companyName).toHaveValue("Boulangerie Martin");
    await expect(form.domain).toHaveValue("boulangerie-martin");
    await expect(form.plan).toHaveValue("mail-50");

    await form.phone.fill("01 23 45 67 89");
    await form.send.click();
    await expect(form.status).toContainText(REQUEST_MESSAGES.quoteSuccess);
    await expect(page.getByText(REQUEST_MESSAGES.invalid)).toHaveCount(0);
  });

  test("puts the server's French errors under their fields; axe finds nothing", async ({ page }) => {
    await openEnhanced(page, "/dev-web");
    await page.locator("#devis form").evaluate((element) => ((element as HTMLFormElement).noValidate = true));
    const form = await fillQuote(page, { phone: "pas de téléphone" });
    await form.email.fill("paul@");
    const answer = page.waitForResponse((response) => isActionPost("/dev-web")(response.request()));
    await form.send.click();
    expect((await answer).status()).toBe(400);

    await expect(form.alert).toHaveText(REQUEST_MESSAGES.invalid);
    await expect(form.email).toHaveAccessibleDescription(
      "Veuillez indiquer une adresse e-mail valide, par exemple nom@exemple.fr.",
    );
    await expect(form.phone).toHaveAccessibleDescription(
      "Veuillez indiquer un numéro de téléphone valide, par exemple 01 23 45 67 89.",
    );
    await expect(form.email).toBeFocused();
    await expect(form.companyName).not.toHaveAttribute("aria-invalid");
    await expect(form.phone).toHaveValue("pas de téléphone");
    expect(await violations(page)).toEqual([]);
  });
});

// ---------------------------------------------------------------- without JavaScript

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the contact form is sent by the browser and the server renders the success", async ({ page }) => {
    await page.goto("/contact");
    const form = await fillContact(page);
    await form.send.click();
    await expect(page).toHaveURL(/\/contact#message$/);
    await expect(form.status).toContainText(REQUEST_MESSAGES.contactSuccess);
    await expect(form.name).toHaveValue("");
    await expect(form.message).toHaveValue("");
  });

  test("a contact form the server refuses comes back with the values and the errors", async ({ page }) => {
    await page.goto("/contact");
    const form = await fillContact(page, { name: "   ", email: "marie@localhost", message: "Bonjour" });
    await form.send.click();
    await expect(page).toHaveURL(/\/contact#message$/);
    await expect(form.alert).toHaveText(REQUEST_MESSAGES.invalid);
    await expect(form.name).toHaveAccessibleDescription("Veuillez indiquer votre nom.");
    await expect(form.email).toHaveAccessibleDescription(/adresse e-mail valide/);
    await expect(form.email).toHaveValue("marie@localhost");
    await expect(form.message).toHaveValue("Bonjour");
  });

  test("the quote form is sent by the browser and the server renders the thank-you message", async ({ page }) => {
    await page.goto("/dev-web");
    const form = await fillQuote(page);
    await form.send.click();
    await expect(page).toHaveURL(/\/dev-web#devis$/);
    await expect(form.status).toContainText(REQUEST_MESSAGES.quoteSuccess);
    await expect(form.status).toContainText(REQUEST_MESSAGES.quoteSuccessDetail);
    await expect(form.companyName).toHaveCount(0);
  });

  test("a quote the server refuses comes back with every value, the plan included", async ({ page }) => {
    await page.goto("/dev-web");
    const form = await fillQuote(page, { phone: "pas de téléphone", plan: "mail-5" });
    await form.send.click();
    await expect(form.alert).toHaveText(REQUEST_MESSAGES.invalid);
    await expect(form.phone).toHaveAccessibleDescription(/numéro de téléphone valide/);
    await expect(form.phone).toHaveValue("pas de téléphone");
    await expect(form.companyName).toHaveValue("Boulangerie Martin");
    await expect(form.domain).toHaveValue("boulangerie-martin");
    await expect(form.plan).toHaveValue("mail-5");
    await expect(form.budget).toHaveValue("1 500 €");
  });
});
