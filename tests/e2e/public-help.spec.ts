/**
 * Issue 40 (« Customers of remote help », first point), on the e2e server: signed out, /soft-assist opens
 * with « Obtenir de l'aide » — what remote help is, its three steps with the shop's phone (the footer's),
 * its price, and the desktop app for the visitor's system, guessed by the server from the User-Agent: a
 * Windows visitor gets the Windows build, whose link really downloads it; a Mac, the Apple Silicon build
 * (built by the global setup for this); a phone is told the app runs on a computer. The sign-in form is
 * below, reached from the intro's link. axe finds nothing, and the page needs no JavaScript.
 */
import { expect, test } from "@playwright/test";
import { violations } from "#tests/support/axe.ts";

const WINDOWS_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";
const MAC_UA =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Safari/605.1.15";

test.describe("a Windows visitor, without JavaScript", { tag: "@desktop" }, () => {
  // Without JavaScript: everything here is the server's HTML, the download a plain link.
  test.use({ userAgent: WINDOWS_UA, javaScriptEnabled: false });

  test("reads the three steps and the price, and downloads the Windows build", async ({ page }) => {
    await page.goto("/soft-assist");
    const help = page.getByRole("region", { name: "Obtenir de l'aide" });
    await expect(help.getByRole("heading", { level: 2, name: "Obtenir de l'aide" })).toBeVisible();
    await expect(help.getByText(/Vous n'avez pas besoin de compte\./u)).toBeVisible();

    const steps = help.getByRole("list").first().getByRole("listitem");
    await expect(steps).toHaveCount(3);
    await expect(steps.nth(0)).toContainText("Téléchargez et lancez le logiciel");
    await expect(steps.nth(0)).toContainText("Aucun compte à créer, rien à installer.");
    await expect(steps.nth(1)).toContainText("Donnez le code au technicien");
    await expect(steps.nth(2)).toContainText("Le technicien vous aide, avec votre accord");
    await expect(steps.nth(2)).toContainText("pouvez arrêter à tout moment");
    // The shop's phone, the same as the footer's.
    const footerPhone = (await page
      .getByRole("contentinfo")
      .getByRole("link", { name: /^Tél\. / })
      .textContent())!;
    const phone = footerPhone.replace(/^Tél\.\s*/u, "");
    await expect(steps.nth(1).getByRole("link", { name: phone })).toHaveAttribute("href", /^tel:\+33\d{9}$/u);
    await expect(help.getByRole("heading", { name: "Combien ça coûte ?" })).toBeVisible();
    await expect(help.getByText(/^Le logiciel est gratuit\./u)).toContainText(/tarif de 80\s€ de l'heure/u);

    const yours = help.getByRole("list", { name: "Pour votre système (Windows)" });
    const windows = yours.getByRole("link", { name: /^Télécharger pour Windows/u });
    await expect(windows).toBeVisible();
    const href = (await windows.getAttribute("href"))!;
    expect(href).toMatch(/^\/telechargements\/atelier-assistance-[\d.]+-windows-x64\.exe$/u);
    const head = await page.request.head(href);
    expect(head.status()).toBe(200);
    expect(head.headers()["content-disposition"]).toContain(".exe");
    // A click starts the download of that file (cancelled at once: 100 MB are not needed here).
    const started = page.waitForEvent("download");
    await windows.click();
    const download = await started;
    expect(download.suggestedFilename()).toBe(href.split("/").pop());
    await download.cancel();

    // The other systems, folded, are real links too.
    await help.getByText("Autres systèmes").click();
    await expect(help.getByRole("link", { name: /^Télécharger pour Linux/u })).toBeVisible();

    // The sign-in form is below, for customers with an account and technicians.
    await page.getByRole("link", { name: "Aller à la connexion" }).click();
    await expect(page).toHaveURL(/#connexion$/u);
    await expect(page.getByRole("heading", { level: 2, name: "Connexion" })).toBeInViewport();
    await expect(page.getByRole("button", { name: "Se connecter", exact: true })).toBeVisible();
  });
});

test.describe("a Windows visitor", { tag: "@desktop" }, () => {
  test.use({ userAgent: WINDOWS_UA });

  // axe runs in the page: JavaScript on (it changes nothing of this part of the page, an islands page).
  test("axe finds nothing, the other systems unfolded too", async ({ page }) => {
    await page.goto("/soft-assist");
    const help = page.getByRole("region", { name: "Obtenir de l'aide" });
    await expect(help.getByRole("list", { name: "Pour votre système (Windows)" })).toBeVisible();
    expect(await violations(page)).toEqual([]);
    await help.getByText("Autres systèmes").click();
    await expect(help.getByRole("link", { name: /^Télécharger pour Linux/u })).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });
});

test.describe("a Mac visitor", { tag: "@desktop" }, () => {
  test.use({ userAgent: MAC_UA });

  test("is offered the macOS build first", async ({ page }) => {
    await page.goto("/soft-assist");
    const yours = page.getByRole("list", { name: "Pour votre système (macOS)" });
    const mac = yours.getByRole("link", { name: "Télécharger pour macOS (Apple Silicon)" });
    await expect(mac).toBeVisible();
    expect(await mac.getAttribute("href")).toMatch(/^\/telechargements\/atelier-assistance-[\d.]+-macos-arm64$/u);
    expect((await page.request.head((await mac.getAttribute("href"))!)).status()).toBe(200);
    await expect(yours.getByRole("link", { name: /^Télécharger pour Windows/u })).toHaveCount(0);
    expect(await violations(page)).toEqual([]);
  });
});

test("on a phone, the app is said to run on a computer, and the page fits", { tag: "@mobile" }, async ({ page }) => {
  await page.goto("/soft-assist");
  const help = page.getByRole("region", { name: "Obtenir de l'aide" });
  await expect(help.getByText(/Le logiciel fonctionne sur ordinateur/u)).toBeVisible();
  await expect(help.getByRole("list", { name: "Choisissez votre système" }).getByRole("link")).not.toHaveCount(0);
  expect(await violations(page)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
    0,
  );
});
