/**
 * Model finder on / (issue 3): the queries show the expected model
 * first with its price; keyboard-only use; no network request while typing;
 * axe (WCAG 2.2 AA) with the list open; the pre-rendered field before
 * JavaScript. Desktop and mobile widths.
 */
import { expect, test, type Page } from "@playwright/test";
import { baseURL } from "../../playwright.config.ts";
import { violations } from "../support/axe.ts";

/**
 * Opens / and waits until the finder's engine chunk is loaded: it loads once the field is used
 * (issue 16), so this focuses the field (before or after the island hydrates) and leaves it.
 */
async function openHome(page: Page) {
  await page.goto("/");
  const input = page.getByRole("combobox", { name: "Trouver mon modèle" });
  await input.focus();
  await page.waitForFunction(() => performance.getEntriesByName("finder:index-load").length > 0);
  await input.blur();
  return input;
}

const QUERIES = [
  { query: "ps5 hdmi", model: "PS5", price: /^PS5\b.*Port HDMI — à partir de 89\s€/ },
  { query: "iphone 13 ecran", model: "iPhone 13", price: /^iPhone 13,.*Écran — à partir de \d+\s€/ },
  { query: "redmi pad se", model: "Redmi Pad SE", price: /^Redmi Pad SE\b.*Écran — à partir de 189\s€/ },
  { query: "iphnoe 13", model: "iPhone 13", price: /^iPhone 13,.*à partir de \d+\s€/ },
  { query: "nintedo switch", model: "Switch", price: /^Switch,.*à partir de \d+\s€/ },
];

for (const { query, model, price } of QUERIES) {
  test(`« ${query} » lists ${model} first with a price`, async ({ page }) => {
    const input = await openHome(page);
    await input.fill(query);
    const first = page.getByRole("option").first();
    await expect(first).toHaveText(price);
    await expect(input).toHaveAttribute("aria-expanded", "true");
    await expect(page.getByRole("status").filter({ hasText: /modèles? trouvés?/ })).toBeVisible();
  });
}

test("works with the keyboard only: Tab to the field, type, arrows, Enter", async ({ page }) => {
  await page.goto("/");
  const input = page.getByRole("combobox", { name: "Trouver mon modèle" });
  const documents: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "document") documents.push(request.url());
  });
  for (let i = 0; i < 60 && !(await input.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press("Tab");
  }
  await expect(input).toBeFocused();
  await page.keyboard.type("iphone 13 ecran");
  const options = page.getByRole("option");
  // Four models, each followed by its « Prendre rendez-vous » (issue 18).
  await expect(options).toHaveCount(8);
  await expect(options.nth(1)).toHaveText("Prendre rendez-vous : Écran, iPhone 13");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await expect(input).toHaveAttribute("aria-activedescendant", (await options.nth(2).getAttribute("id"))!);
  await expect(options.nth(2)).toHaveAttribute("aria-selected", "true");
  await expect(options.nth(2)).toContainText("iPhone 13 mini");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(`${baseURL}/services/iphone-repair#iphone-13-mini`);
  // A document load of the pre-rendered page (issue 16: no client-side navigation on content pages).
  expect(documents).toEqual([`${baseURL}/services/iphone-repair`]);
  await expect(page.getByRole("heading", { level: 3, name: /^iPhone 13 mini/ })).toBeInViewport();
});

test("Escape closes the list, then clears the field", async ({ page }) => {
  const input = await openHome(page);
  await input.fill("switch");
  await expect(page.getByRole("option").first()).toBeVisible();
  await input.press("Escape");
  await expect(input).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("option")).toHaveCount(0);
  await expect(input).toHaveValue("switch");
  await input.press("Escape");
  await expect(input).toHaveValue("");
});

test("an option is a link: a click or a tap opens the model's card", async ({ page, isMobile }) => {
  const input = await openHome(page);
  await input.fill("redmi pad se");
  const first = page.getByRole("option").first();
  await expect(first).toContainText("Redmi Pad SE");
  if (isMobile) await first.tap();
  else await first.click();
  await expect(page).toHaveURL(/\/services\/xiaomi-tablet-repair#xiaomi-redmi-pad-se$/);
});

test("says when nothing is found, with a link to /contact", async ({ page }) => {
  const input = await openHome(page);
  await input.fill("zzzzqx");
  const status = page.getByRole("status").filter({ hasText: "Aucun modèle trouvé" });
  await expect(status).toBeVisible();
  await expect(status.getByRole("link", { name: "Contactez-nous" })).toHaveAttribute("href", "/contact");
});

test("makes no network request while typing", async ({ page }) => {
  const input = await openHome(page);
  await page.waitForLoadState("networkidle");
  const requests: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  for (const { query } of QUERIES) {
    await input.fill("");
    await input.pressSequentially(query);
    await expect(page.getByRole("option").first()).toBeVisible();
  }
  expect(requests).toEqual([]);
});

test("axe finds no violation with the list open", async ({ page }) => {
  const input = await openHome(page);
  await input.fill("iphone 13 ecran");
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("option").first()).toHaveAttribute("aria-selected", "true");
  expect(await violations(page)).toEqual([]);
});

test("axe finds no violation when nothing is found", async ({ page }) => {
  const input = await openHome(page);
  await input.fill("zzzzqx");
  await expect(page.getByRole("status").filter({ hasText: "Aucun modèle trouvé" })).toBeVisible();
  expect(await violations(page)).toEqual([]);
});

test("the pre-rendered page shows the labelled field before JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ ...test.info().project.use, javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  for (const path of ["/", "/repair"]) {
    await page.goto(path);
    const input = page.getByRole("combobox", { name: "Trouver mon modèle" });
    await expect(input).toBeVisible();
    await expect(input).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByRole("heading", { name: "Quel est le prix de ma réparation ?" })).toBeVisible();
  }
  await context.close();
});

test("/repair has the finder too", async ({ page }) => {
  await page.goto("/repair");
  await page.getByRole("combobox", { name: "Trouver mon modèle" }).fill("ps5 hdmi");
  await expect(page.getByRole("option").first()).toHaveText(QUERIES[0]!.price);
});

test.describe("finder on the catalogue pages", () => {
  test("a brand page searches that brand only", async ({ page }) => {
    await page.goto("/services/xiaomi-tablet-repair");
    const input = page.getByRole("combobox", { name: "Trouver mon modèle Xiaomi" });
    await input.fill("redmi pad se");
    await expect(page.getByRole("option").first()).toContainText("Redmi Pad SE");
    await input.fill("iphone 13");
    await expect(page.getByRole("status").filter({ hasText: "Aucun modèle trouvé" })).toBeVisible();
  });

  test("the console hub searches consoles, and a result opens its price card", async ({ page }) => {
    await page.goto("/services/console-repair");
    const input = page.getByRole("combobox", { name: "Trouver mon modèle" });
    await input.fill("ps5 hdmi");
    const first = page.getByRole("option").first();
    await expect(first).toContainText("PS5");
    await expect(first).toContainText(/à partir de 89\s€/);
    await input.press("Enter");
    await expect(page).toHaveURL(/\/services\/playstation-repair#/);
    await expect(page.getByRole("heading", { level: 3, name: /^PS5/ }).first()).toBeInViewport();
  });
});
