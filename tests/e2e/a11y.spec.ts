/** WCAG 2.2 AA (axe-core) on every public route, at desktop and mobile widths (issue 2). */
import { expect, test } from "@playwright/test";
import { PRERENDERED_PATHS } from "#app/config/public-routes.ts";
import { violations } from "../support/axe.ts";

// axe over a brand page's hundreds of price lines took 15–32 s on 2 loaded cores (a rehearsal of issue 26): past
// the default 30 s while nothing was wrong with the page.
test.describe.configure({ timeout: 60_000 });

for (const path of PRERENDERED_PATHS) {
  test(`axe finds no violation on ${path}`, async ({ page }) => {
    await page.goto(path);
    await expect(page.locator("h1")).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });
}

// Issue 18: the booking page (a free diagnosis, and from a price) and the tracking form, rendered per request.
for (const path of ["/rendez-vous", "/rendez-vous?modele=ps5&reparation=port-hdmi", "/suivi"]) {
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

test("axe finds no violation on the /soft-assist sign-in and sign-up forms", async ({ page }) => {
  await page.goto("/soft-assist");
  // The area renders in the browser after its chunks and GET /api/me: slower than a pre-rendered page on a busy machine.
  await expect(page.getByRole("button", { name: "Se connecter", exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole("heading", { level: 1, name: "Assistance à distance" })).toBeVisible();
  expect(await violations(page)).toEqual([]);
  await page.getByRole("button", { name: "Pas encore de compte ? Créer un compte" }).click();
  await expect(page.getByRole("button", { name: "Créer mon compte" })).toBeVisible();
  expect(await violations(page)).toEqual([]);
});

test("axe finds no violation on the customer screen with a session", async ({ page }) => {
  // Customers sign up from the browser, so this runs on the shared e2e server (technicians: soft-assist.spec.ts).
  await page.goto("/soft-assist");
  await page.getByRole("button", { name: "Pas encore de compte ? Créer un compte" }).click({ timeout: 20_000 });
  await page.getByLabel("Nom").fill("Client Axe");
  await page.getByLabel("Adresse e-mail").fill(`axe-${Math.random().toString(36).slice(2, 10)}@exemple.fr`);
  await page.getByLabel("Mot de passe").fill("motdepasse-axe");
  await page.getByRole("button", { name: "Créer mon compte" }).click();
  await page.getByRole("button", { name: "Démarrer une session d'assistance" }).click({ timeout: 20_000 });
  await expect(page.getByText("En attente d'un technicien…")).toBeVisible({ timeout: 15_000 });
  expect(await violations(page)).toEqual([]);
});
