/** Shared layout (spec §2): navigation, mobile menu, footer, scroll reset, unknown paths. */
import { expect, test } from "@playwright/test";
import { focusEscapes } from "../support/focus.ts";
import { violations } from "../support/axe.ts";

test.describe("top navigation", () => {
  test("lists the five spec links on desktop", { tag: "@desktop" }, async ({ page }) => {
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Navigation principale" });
    for (const [name, href] of [
      ["Accueil", "/"],
      ["Contact", "/contact"],
      ["Développement web", "/dev-web"],
      ["Vente neuf et reconditionné", "/sales"],
      ["Mentions légales", "/mentions-legales"],
    ]) {
      await expect(nav.getByRole("link", { name, exact: true })).toHaveAttribute("href", href!);
    }
  });
});

test.describe("ways in to what the shop offers (issue 40)", () => {
  const WAYS_IN = [
    ["Réparations et tarifs", "/repair"],
    ["Prendre rendez-vous", "/rendez-vous"],
    ["Suivre ma réparation", "/suivi"],
    ["Assistance à distance", "/soft-assist"],
  ] as const;

  test(
    "the top bar's « Réparations et aide » opens them, and the footer lists them",
    { tag: "@desktop" },
    async ({ page }) => {
      await page.setViewportSize({ width: 1024, height: 768 });
      await page.goto("/mentions-legales");
      const nav = page.getByRole("navigation", { name: "Navigation principale" });
      await nav.getByText("Réparations et aide").click();
      for (const [name, href] of WAYS_IN)
        await expect(nav.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
      // The bar still holds on one line at 1024 px: the spec's five links and the disclosure.
      const bar = await page.locator("header > div").boundingBox();
      expect(bar!.height).toBeLessThanOrEqual(64);
      expect(await violations(page)).toEqual([]);
      await nav.getByRole("link", { name: "Suivre ma réparation" }).click();
      await expect(page).toHaveURL(/\/suivi$/);
      const footer = page.getByRole("contentinfo").getByRole("navigation", { name: "Réparations et aide" });
      for (const [name, href] of WAYS_IN)
        await expect(footer.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
    },
  );

  test("the phone menu has them as a group, and the home page offers booking", { tag: "@mobile" }, async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("main").getByRole("link", { name: "Prendre rendez-vous" }).first()).toHaveAttribute(
      "href",
      "/rendez-vous",
    );
    await page.getByRole("button", { name: "Ouvrir le menu" }).click();
    const group = page
      .getByRole("dialog", { name: "Menu principal" })
      .getByRole("navigation", { name: "Réparations et aide" });
    for (const [name, href] of WAYS_IN)
      await expect(group.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
  });
});

// The menu button only shows on small screens.
test.describe("mobile menu", { tag: "@mobile" }, () => {
  test("opens full screen with its four groups and locks page scrolling", async ({ page }) => {
    await page.goto("/mentions-legales");
    const toggle = page.getByRole("button", { name: "Ouvrir le menu" });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await toggle.click();
    const menu = page.getByRole("dialog", { name: "Menu principal" });
    await expect(menu).toBeVisible();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    for (const group of ["Navigation", "Réparations et aide", "Nos services", "Informations"]) {
      await expect(menu.getByRole("navigation", { name: group })).toBeVisible();
    }
    const box = await menu.boundingBox();
    const viewport = page.viewportSize()!;
    expect(box?.width).toBe(viewport.width);
    expect(box?.height).toBe(viewport.height);

    await page.mouse.wheel(0, 2000);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe("hidden");
  });

  test("closes on navigation and unlocks scrolling", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("button", { name: "Ouvrir le menu" }).click();
    const menu = page.getByRole("dialog", { name: "Menu principal" });
    await menu.getByRole("link", { name: "Mentions légales" }).click();
    await expect(page).toHaveURL(/\/mentions-legales$/);
    await expect(menu).toBeHidden();
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe("hidden");
  });

  test("closes on Escape and gives focus back to its button", async ({ page }) => {
    await page.goto("/");
    const toggle = page.getByRole("button", { name: "Ouvrir le menu" });
    await toggle.click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toBeHidden();
    await expect(toggle).toBeFocused();
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe("hidden");
  });

  test("works before JavaScript runs: opens, locks scrolling, closes on Escape", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ ...test.info().project.use, javaScriptEnabled: false, baseURL });
    const page = await context.newPage();
    await page.goto("/mentions-legales");
    await page.getByRole("button", { name: "Ouvrir le menu" }).click();
    const menu = page.getByRole("dialog", { name: "Menu principal" });
    await expect(menu.getByRole("link", { name: "Accueil" })).toBeVisible();
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe("hidden");
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await context.close();
  });

  test("stays open when the page hydrates after the visitor opened it", async ({ page }) => {
    // Hold back the page's JavaScript until the menu is open, as on a slow phone connection.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/assets/*.js", async (route) => {
      await held;
      await route.continue();
    });
    // "commit": DOMContentLoaded waits for the page's deferred module script, which is held.
    await page.goto("/", { waitUntil: "commit" });
    await page.getByRole("button", { name: "Ouvrir le menu" }).click();
    const menu = page.getByRole("dialog", { name: "Menu principal" });
    await expect(menu).toBeVisible();
    release();
    await expect(page.getByRole("button", { name: "Ouvrir le menu" })).toHaveAttribute("aria-expanded", "true");
    await expect(menu).toBeVisible();
    await menu.getByRole("link", { name: "Gaming et réalité virtuelle" }).click();
    await expect(page).toHaveURL(/\/gaming-vr$/);
    await expect(menu).toBeHidden();
  });

  test("keeps keyboard focus inside while open", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("button", { name: "Ouvrir le menu" }).click();
    const menu = page.getByRole("dialog", { name: "Menu principal" });
    await expect(menu).toBeVisible();
    const count = await menu.locator("a[href], button").count();
    expect(await focusEscapes(page, menu, "Tab", count + 3)).toEqual([]);
    expect(await focusEscapes(page, menu, "Shift+Tab", 3)).toEqual([]);
  });
});

test.describe("footer", () => {
  test("shows the shop's contact details, hours and the current year", async ({ page }) => {
    await page.goto("/");
    const footer = page.getByRole("contentinfo");
    await expect(footer.getByRole("link", { name: /Tél\./ })).toHaveAttribute("href", /^tel:\+33/);
    await expect(footer.getByRole("link", { name: /@/ })).toHaveAttribute("href", /^mailto:/);
    await expect(footer.getByRole("link", { name: /rue/ })).toHaveAttribute("href", /maps/);
    await expect(footer).toContainText("Du lundi au vendredi : 9h – 14h");
    await expect(footer).toContainText("14h – 19h sur rendez-vous");
    await expect(footer).toContainText(`© ${new Date().getFullYear()}`);
  });
});

test.describe("navigation behaviour", () => {
  test("a new page starts at the top", async ({ page }) => {
    await page.goto("/mentions-legales");
    await page.evaluate(() => window.scrollTo({ top: document.body.scrollHeight, behavior: "instant" }));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
    await page.getByRole("contentinfo").getByRole("link", { name: "Assistance informatique" }).click();
    await expect(page).toHaveURL(/\/assistance-informatique$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test("an unknown path lands on / and Back does not return to it", async ({ page }) => {
    await page.goto("/contact");
    const response = await page.goto("/cette-page-n-existe-pas");
    expect(response?.url()).toMatch(/\/$/);
    await expect(page).toHaveURL(/\/$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/contact$/);
  });

  test("the server answers an unknown path with a 302 to /", async ({ request }) => {
    const response = await request.get("/nulle-part", { maxRedirects: 0 });
    expect(response.status()).toBe(302);
    expect(response.headers().location).toBe("/");
  });
});
