/**
 * Content pages without React Router's runtime (issue 16, docs/decisions/013): they load the islands
 * script only, their model finder and mobile menu work, following a link loads the next
 * pre-rendered page with focus and scroll at its start (Back restores the position), no console
 * error (a hydration mismatch would log one). Issue 30: the public forms' pages too (decision 029); the
 * signed-in area and the pages reached client-side from it keep React Router.
 */
import { expect, test, type Page } from "@playwright/test";
import { baseURL } from "../../playwright.config.ts";
import { focusEscapes } from "../support/focus.ts";

const CONTENT_PAGES = ["/", "/services/iphone-repair", "/services/smartphone-repair", "/sales", "/mentions-legales"];
/** Issue 30 (decision 029): the public forms' pages are islands pages too; signed-in /soft-assist is not. */
const FORM_PAGES = ["/contact", "/dev-web", "/rendez-vous", "/suivi", "/soft-assist"];

/** Console errors and uncaught exceptions of the page, from now on. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

/** The page's scripts: the `src` of each external one, and whether an inline one starts React Router. */
async function scriptsOf(page: Page) {
  return page.evaluate(() => ({
    external: [...document.querySelectorAll<HTMLScriptElement>("script[src]")].map((s) => new URL(s.src).pathname),
    routerContext: "__reactRouterContext" in window,
  }));
}

for (const path of [...CONTENT_PAGES, ...FORM_PAGES]) {
  test(`${path} loads the islands script and no React Router runtime, with no console error`, async ({ page }) => {
    const errors = collectErrors(page);
    const scripts: string[] = [];
    page.on("response", (response) => {
      if (response.request().resourceType() === "script") scripts.push(new URL(response.url()).pathname);
    });
    await page.goto(path, { waitUntil: "networkidle" });
    const { external, routerContext } = await scriptsOf(page);
    expect(external).toEqual([expect.stringMatching(/^\/assets\/islands-[\w-]+\.js$/)]);
    expect(routerContext).toBe(false);
    // React Router's client chunks (its runtime, the route modules, the manifest) are never fetched.
    expect(scripts.filter((s) => /\/(entry\.client|manifest|root|components)-/.test(s))).toEqual([]);
    expect(errors).toEqual([]);
  });
}

test("a brand page's finder works as an island", async ({ page }) => {
  const errors = collectErrors(page);
  await page.goto("/services/playstation-repair");
  const input = page.getByRole("combobox", { name: "Trouver mon modèle PlayStation" });
  await input.fill("ps5 hdmi");
  const first = page.getByRole("option").first();
  await expect(first).toContainText(/à partir de 89\s€/);
  const target = (await first.getAttribute("href"))!;
  await input.press("ArrowDown");
  await expect(input).toHaveAttribute("aria-activedescendant", (await first.getAttribute("id"))!);
  await input.press("Enter");
  await expect(page).toHaveURL(`${baseURL}${target}`);
  await expect(page.locator(new URL(target, baseURL).hash)).toBeInViewport();
  expect(errors).toEqual([]);
});

test("/sales plays its hero video with a pause button", { tag: "@desktop" }, async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "no-preference" });
  await page.goto("/sales");
  const pause = page.getByRole("button", { name: "Mettre l'animation en pause" });
  await expect(pause).toBeVisible();
  await pause.click();
  await expect(page.getByRole("button", { name: "Relancer l'animation" })).toBeVisible();
});

test.describe("following a link between content pages", () => {
  test("loads the next page at its top, the skip link first, and Back restores the position", async ({ page }) => {
    const documents: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "document") documents.push(new URL(request.url()).pathname);
    });
    await page.goto("/services/smartphone-repair");
    await page.evaluate(() => window.scrollTo({ top: 600, behavior: "instant" }));
    const link = page.locator('main a[href="/services/iphone-repair"]').first();
    await link.scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(0);
    await link.click();
    await expect(page).toHaveURL(`${baseURL}/services/iphone-repair`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Réparation iPhone");
    expect(documents).toEqual(["/services/smartphone-repair", "/services/iphone-repair"]);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    await page.goBack();
    await expect(page).toHaveURL(`${baseURL}/services/smartphone-repair`);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(scrolled);
    await page.goForward();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Réparation iPhone");

    // Focus starts at the document's start: the first Tab reaches the skip link, which moves focus to <main>.
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Aller au contenu" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.locator("main#contenu")).toBeFocused();
  });

  test("from a hydrated page to /repair, client-side, the finder still works", async ({ page }) => {
    const errors = collectErrors(page);
    // The password-reset page (reached from a mail) is one of the pages React Router still hydrates.
    await page.goto("/soft-assist/nouveau-mot-de-passe", { waitUntil: "networkidle" });
    expect((await scriptsOf(page)).routerContext).toBe(true);
    const documents: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "document") documents.push(request.url());
    });
    const link = page.getByRole("contentinfo").getByRole("link", { name: "Réparation", exact: true });
    // "networkidle" is not hydration: clicked before React attaches its handlers, the link loads a document (CI).
    await expect
      .poll(() => link.evaluate((element) => Object.keys(element).some((key) => key.startsWith("__reactProps"))))
      .toBe(true);
    await link.click();
    await expect(page).toHaveURL(`${baseURL}/repair`);
    await page.getByRole("combobox", { name: "Trouver mon modèle" }).fill("ps5 hdmi");
    await expect(page.getByRole("option").first()).toContainText(/à partir de 89\s€/);
    expect(documents).toEqual([]); // rendered by React Router in the browser
    expect(errors).toEqual([]);
  });
});

test.describe("mobile menu on a content page", { tag: "@mobile" }, () => {
  test("opens, says it is expanded, keeps Tab inside, closes on Escape", async ({ page }) => {
    // The longest page of the site: each key press took about 1 s on 2 busy cores, 30 Tabs in all.
    test.slow();
    await page.goto("/services/iphone-repair", { waitUntil: "networkidle" });
    const toggle = page.getByRole("button", { name: "Ouvrir le menu" });
    await toggle.click();
    const menu = page.getByRole("dialog", { name: "Menu principal" });
    await expect(menu).toBeVisible();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    const count = await menu.locator("a[href], button").count();
    expect(await focusEscapes(page, menu, "Tab", count + 2)).toEqual([]);
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(toggle).toBeFocused();
  });
});
