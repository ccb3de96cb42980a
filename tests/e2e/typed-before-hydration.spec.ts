/**
 * Issue 27, "the technician's code field": what a person types into the signed-in area's server-rendered
 * fields before React has taken the page over survives hydration. The page's JavaScript is held back
 * (a slow phone or a busy laptop), the field is typed into at a person's pace, then the scripts arrive.
 */
import { expect, test, type Page } from "@playwright/test";
import { newPage, signIn, signUpCustomer, startAreaServer, type AreaServer } from "#tests/support/soft-assist-pages.ts";

const suffix = Math.random().toString(36).slice(2, 8);
const TECH = { email: `tech-${suffix}@exemple.fr`, name: "Camille Technicienne", password: "motdepasse-camille" };

let area: AreaServer;

test.describe.configure({ mode: "default", timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  area = await startAreaServer("typed", [TECH]);
});

test.afterAll(async () => {
  await area?.stop();
});

/**
 * Holds every script of the page until `release()`; the document itself loads. A script whose address
 * matches `late` arrives `lateMs` ms after the others: a lazy screen's chunk still on its way while
 * the router settles (a re-render then would replace the server's field by a new, empty one).
 */
async function holdScripts(page: Page, late?: { url: RegExp; lateMs: number }): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/assets/*.js", async (route) => {
    await held;
    if (late?.url.test(route.request().url())) await new Promise((resolve) => setTimeout(resolve, late.lateMs));
    await route.continue();
  });
  return release;
}

/** Resolves once React owns `selector`'s element (its props are attached), the sign of hydration. */
async function hydrated(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((css) => {
    const element = document.querySelector(css);
    return element !== null && Object.keys(element).some((key) => key.startsWith("__reactProps"));
  }, selector);
}

test.describe("typed before hydration", { tag: "@desktop" }, () => {
  test("the technician's session code typed before the scripts arrive stays, and « Se connecter » joins with it", async ({
    browser,
  }) => {
    const technician = await newPage(browser, area.server.url);
    await signIn(technician, TECH);
    await expect(technician.getByLabel("Code de session")).toBeVisible({ timeout: 20_000 });

    const release = await holdScripts(technician, { url: /technician-dashboard-[^/]*\.js$/, lateMs: 1500 });
    // "commit": DOMContentLoaded waits for the page's deferred module script, which is held.
    await technician.reload({ waitUntil: "commit" });
    const field = technician.getByLabel("Code de session");
    const serverId = await field.getAttribute("id");
    await field.pressSequentially("zzzzzz", { delay: 60 });
    release();
    await hydrated(technician, '[data-keep-typed="session-code"]');
    await expect(field).toHaveValue("ZZZZZZ");
    // Hydrated, not replaced: the field is still the one the server sent.
    expect(await field.getAttribute("id")).toBe(serverId);
    const join = technician.getByRole("button", { name: "Se connecter", exact: true });
    await expect(join).toBeEnabled();
    await join.click();
    await expect(technician.getByRole("alert").filter({ hasText: "Session non trouvée" })).toBeVisible();
    await technician.context().close();
  });

  test("the customer's question to the assistant typed before the scripts arrive stays", async ({ browser }) => {
    const customer = await newPage(browser, area.server.url);
    await signUpCustomer(customer, "Bruno Petit");
    const question = customer.getByLabel("Votre message à l'assistant");
    await expect(question).toBeVisible();

    const release = await holdScripts(customer);
    await customer.reload({ waitUntil: "commit" });
    await question.pressSequentially("Mon écran reste noir", { delay: 40 });
    release();
    await hydrated(customer, '[data-keep-typed="assistant-message"]');
    await expect(customer.getByRole("button", { name: "Envoyer" })).toBeEnabled();
    await expect(question).toHaveValue("Mon écran reste noir");
    await customer.context().close();
  });

  test("a question sent with Entrée before the scripts arrive says « envoi… », then is sent exactly once (issue 39 §2)", async ({
    browser,
  }) => {
    const customer = await newPage(browser, area.server.url);
    await signUpCustomer(customer, "Chloé Rapide");
    const question = customer.getByLabel("Votre message à l'assistant");
    await expect(question).toBeVisible();

    const release = await holdScripts(customer);
    await customer.reload({ waitUntil: "commit" });
    await question.pressSequentially("Mon imprimante ne répond plus", { delay: 40 });
    await question.press("Enter");
    // Nothing lost, nothing reloaded: the page says the question waits.
    await expect(customer.getByText("envoi…", { exact: true })).toBeVisible();
    await expect(question).toHaveValue("Mon imprimante ne répond plus");
    release();
    await hydrated(customer, '[data-keep-typed="assistant-message"]');
    const log = customer.getByRole("log");
    await expect(log.getByText("Mon imprimante ne répond plus")).toHaveCount(1);
    await expect(question).toHaveValue("");
    await expect(customer.getByText("envoi…", { exact: true })).toBeHidden();
    // The server holds it once too: the conversation read again shows a single copy.
    await expect(customer.getByText("L'assistant écrit…")).toHaveCount(0, { timeout: 30_000 });
    await customer.reload();
    await expect(log.getByText("Mon imprimante ne répond plus")).toHaveCount(1);
    await customer.context().close();
  });

  test("the technician's code and Entrée before the scripts arrive join once React is ready (issue 39 §2)", async ({
    browser,
  }) => {
    const technician = await newPage(browser, area.server.url);
    await signIn(technician, TECH);
    const field = technician.getByLabel("Code de session");
    await expect(field).toBeVisible({ timeout: 20_000 });

    const release = await holdScripts(technician);
    await technician.reload({ waitUntil: "commit" });
    await field.pressSequentially("zzzzzz", { delay: 60 });
    await field.press("Enter");
    await expect(technician.getByText("envoi…", { exact: true })).toBeVisible();
    release();
    await hydrated(technician, '[data-keep-typed="session-code"]');
    await expect(technician.getByRole("alert").filter({ hasText: "Session non trouvée" })).toBeVisible();
    await expect(technician.getByText("envoi…", { exact: true })).toBeHidden();
    await technician.context().close();
  });
});
