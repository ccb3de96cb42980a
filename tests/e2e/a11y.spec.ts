/** WCAG 2.2 AA (axe-core) on every public route, at desktop and mobile widths (issue 2). */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { PRERENDERED_PATHS } from "../../app/config/public-routes.ts";

const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

async function violations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.map((n) => n.target.join(" ")).slice(0, 5),
  }));
}

for (const path of PRERENDERED_PATHS) {
  test(`axe finds no violation on ${path}`, async ({ page }) => {
    await page.goto(path);
    await expect(page.locator("h1")).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });
}

test("axe finds no violation with the mobile menu open", { tag: "@mobile" }, async ({ page }) => {
  await page.goto("/");
  await page.getByRole("button", { name: "Ouvrir le menu" }).click();
  await expect(page.getByRole("dialog", { name: "Menu principal" })).toBeVisible();
  expect(await violations(page)).toEqual([]);
});

test("axe finds no violation on /soft-assist", async ({ page }) => {
  await page.goto("/soft-assist");
  await expect(page.getByRole("heading", { level: 1, name: "Assistance à distance" })).toBeVisible();
  await expect(page.getByRole("link", { name: /Appeler le/ })).toHaveAttribute("href", /^tel:/);
  expect(await violations(page)).toEqual([]);
});
