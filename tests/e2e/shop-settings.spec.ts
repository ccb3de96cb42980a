/**
 * Issue 29, « Owner role and settings » (the settings half), end to end on the real server (production
 * build, PGlite): the manager (made by `npm run user -- create --manager` before the server starts) changes
 * the shop's phone number in the dashboard's « Boutique » view; without a restart or a rebuild, the home
 * page, /contact and the catalogue page's JSON-LD (`telephone`, E.164) show it within a few seconds, and a
 * booking made afterwards gets a mail (outbox `.eml` file) with it. A wrong postal code is answered next
 * to its field in French. Measured: change saved → visible on / (goal ≤ 5 s), printed as « figure: … ».
 * axe (WCAG 2.2 AA) on the « Boutique » view.
 *
 * Issue 40, « The manager »: the dashboard's own footer shows the new number at once, « Boutique » still
 * open; with no SMTP configured, « Envoyer un e-mail de test » says so plainly; « Mise en ligne » lists
 * what is left and opens its settings; « Sauvegardes » (its own tab) shows the backup made by `npm run
 * backup` before the start (fr-FR date, size) and downloads it after the password, and the checklist then
 * counts the copy. axe on both views.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { newPage, signIn, violations } from "#tests/support/soft-assist-pages.ts";
import { startServerProcess, type ServerProcess } from "#tests/support/server-process.ts";

const root = path.resolve(import.meta.dirname, "../..");
const suffix = Math.random().toString(36).slice(2, 8);
const MANAGER = { email: `gerant-boutique-${suffix}@exemple.fr`, password: "motdepasse-gerant" };
const NEW_PHONE = { typed: "0472112233", display: "04 72 11 22 33", e164: "+33472112233" };
const LOADED = { timeout: 30_000 };

let dataDir: string;
let server: ServerProcess;

test.describe.configure({ mode: "default", timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = await mkdtemp(path.join(tmpdir(), "atelier-e2e-boutique-"));
  execFileSync(
    process.execPath,
    [
      "scripts/user.ts",
      "create",
      "--email",
      MANAGER.email,
      "--name",
      "Sam Gérant",
      "--password",
      MANAGER.password,
      "--manager",
    ],
    { cwd: root, env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: "silent" }, stdio: "pipe" },
  );
  // Issue 40: one backup before the start, for « Sauvegardes » to show and download.
  execFileSync(process.execPath, ["scripts/backup.ts"], {
    cwd: root,
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: "silent" },
    stdio: "pipe",
  });
  server = await startServerProcess({
    DATA_DIR: dataDir,
    AUTH_SIGN_IN_LIMIT: "1000",
    LOG_LEVEL: "warn",
    OUTBOX_POLL_MS: "200",
  });
});

test.afterAll(async () => {
  await server?.stop();
  // Retried: a postgres stopping as the server exits may still write its last WAL file (ENOTEMPTY in CI).
  if (dataDir) await rm(dataDir, { recursive: true, force: true, maxRetries: 10 });
});

const html = async (pagePath: string) => (await fetch(`${server.url}${pagePath}`)).text();

/** The `telephone` of the page's JSON-LD store (`ElectronicsStore` in its `@graph`). */
async function jsonLdTelephone(pagePath: string): Promise<string | undefined> {
  const script = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(await html(pagePath))?.[1];
  const graph = (JSON.parse(script ?? "{}") as { "@graph"?: { "@type": string; telephone?: string }[] })["@graph"];
  return graph?.find((node) => node["@type"] === "ElectronicsStore")?.telephone;
}

/** The text of the outbox's `.eml` files to `email` (quoted-printable soft breaks undone). */
async function mailsTo(email: string): Promise<string[]> {
  const folder = path.join(dataDir, "outbox");
  const files = (await readdir(folder).catch(() => [] as string[])).filter((name) => name.endsWith(".eml"));
  const texts = await Promise.all(files.map((file) => readFile(path.join(folder, file), "utf8").catch(() => "")));
  return texts.map((text) => text.replace(/=\r?\n/g, "")).filter((text) => text.includes(email));
}

test.describe("the shop's identity in the dashboard", { tag: "@desktop" }, () => {
  test("a phone number changed in « Boutique » reaches the pages, the JSON-LD and a new booking's mail", async ({
    browser,
  }) => {
    // The pages are in memory before the change: what follows is their re-render, not a first render.
    expect(await html("/")).toContain("01 99 00 12 34");
    expect(await html("/contact")).toContain("01 99 00 12 34");
    expect(await jsonLdTelephone("/services/smartphone-repair")).toBe("+33199001234");

    const manager = await newPage(browser, server.url);
    await signIn(manager, MANAGER);
    await manager.getByRole("button", { name: "Boutique", exact: true }).click(LOADED);
    const phone = manager.getByRole("textbox", { name: "Téléphone", exact: true });
    await expect(phone).toHaveValue("01 99 00 12 34", LOADED);
    expect(await violations(manager)).toEqual([]);

    // A wrong value: its French message next to its field, nothing stored.
    const postalCode = manager.getByRole("textbox", { name: "Code postal", exact: true });
    await postalCode.fill("7500");
    await manager.getByRole("button", { name: "Enregistrer", exact: true }).click();
    await expect(postalCode).toHaveAttribute("aria-invalid", "true");
    await expect(postalCode).toHaveAccessibleDescription("Code postal à 5 chiffres attendu, par exemple 75011.");
    expect(await violations(manager)).toEqual([]);
    await postalCode.fill("75000");

    await phone.fill(NEW_PHONE.typed);
    await manager.getByRole("button", { name: "Enregistrer", exact: true }).click();
    await expect(manager.getByText("Les informations de la boutique sont enregistrées.")).toBeVisible();
    const savedAt = performance.now();
    await expect(phone).toHaveValue(NEW_PHONE.display);
    // Issue 40: this page's own footer follows at once, without a reload, « Boutique » still open.
    await expect(manager.getByRole("contentinfo").getByText(`Tél. ${NEW_PHONE.display}`)).toBeVisible();
    await expect(manager.getByRole("button", { name: "Boutique", exact: true })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await expect(phone).toHaveValue(NEW_PHONE.display);

    let visibleAfter = 0;
    await expect
      .poll(
        async () => {
          const home = await html("/");
          visibleAfter = performance.now() - savedAt;
          return home.includes(NEW_PHONE.display);
        },
        { timeout: 10_000, intervals: [50] },
      )
      .toBe(true);
    console.log(`figure: settings change → visible on / in ${Math.round(visibleAfter)} ms (goal ≤ 5000 ms)`);
    expect(visibleAfter).toBeLessThan(5000);

    await expect.poll(() => html("/contact"), LOADED).toContain(`href="tel:${NEW_PHONE.e164}"`);
    expect(await html("/contact")).toContain(NEW_PHONE.display);
    await expect.poll(() => jsonLdTelephone("/services/smartphone-repair"), LOADED).toBe(NEW_PHONE.e164);

    // A booking made now: its confirmation mail gives the new number.
    const email = `client-boutique-${suffix}@exemple.fr`;
    const visitor = await newPage(browser, server.url);
    await visitor.goto("/rendez-vous");
    await expect(visitor.getByRole("contentinfo").getByText(`Tél. ${NEW_PHONE.display}`)).toBeVisible();
    await visitor
      .getByRole("radio", { name: / à \d\d:\d\d$/ })
      .first()
      .check();
    await visitor.getByLabel("Nom").fill("Inès Morel");
    await visitor.getByLabel("Adresse e-mail").fill(email);
    await visitor.getByLabel("Téléphone").fill("06 12 34 56 78");
    await visitor.getByRole("button", { name: "Confirmer le rendez-vous" }).click();
    await expect(visitor.getByRole("status")).toContainText("Votre rendez-vous est enregistré.", { timeout: 20_000 });
    // Issue 40: the appointment's page gives the number as the manager set it.
    await expect(visitor.getByRole("main").getByRole("link", { name: NEW_PHONE.display })).toHaveAttribute(
      "href",
      `tel:${NEW_PHONE.e164}`,
    );
    await expect
      .poll(async () => (await mailsTo(email)).some((text) => text.includes(NEW_PHONE.display)), { timeout: 20_000 })
      .toBe(true);
    expect((await mailsTo(email)).some((text) => text.includes("01 99 00 12 34"))).toBe(false);
  });

  test("issue 40: the test mail, « Mise en ligne » and « Sauvegardes » for the manager", async ({ browser }) => {
    const manager = await newPage(browser, server.url);
    await signIn(manager, MANAGER);
    await manager.getByRole("button", { name: "Boutique", exact: true }).click(LOADED);
    const mail = manager.getByRole("region", { name: "Envoi des e-mails" });
    await expect(mail).toContainText("L'envoi d'e-mails n'est pas configuré", LOADED);
    await mail.getByRole("button", { name: "Envoyer un e-mail de test" }).click();
    await expect(mail.getByRole("alert")).toContainText(
      "L'envoi d'e-mails n'est pas configuré : aucun e-mail de test n'a été envoyé.",
    );

    await manager.getByRole("button", { name: "Mise en ligne", exact: true }).click();
    const checklist = manager.getByRole("list", { name: "Points à vérifier avant l'ouverture" });
    const point = (title: string) =>
      checklist.getByRole("listitem").filter({ has: manager.getByRole("heading", { name: title }) });
    await expect(point("Mentions légales")).toContainText("À faire", LOADED);
    await expect(point("Mentions légales")).toContainText("« Raison sociale »");
    await expect(point("Envoi des e-mails")).toContainText("À faire");
    await expect(point("Sauvegardes hors de cette machine")).toContainText("À faire");
    await expect(point("Assistant virtuel (IA)")).toContainText("OPENAI_API_KEY");
    expect(await violations(manager)).toEqual([]);

    // Its button opens « Sauvegardes », its own tab (no longer inside « Équipe »).
    await point("Sauvegardes hors de cette machine")
      .getByRole("button", { name: /^Ouvrir « Sauvegardes »/ })
      .click();
    await expect(manager.getByRole("button", { name: "Sauvegardes", exact: true })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await expect(
      manager.getByText(/^Dernière sauvegarde réussie : \d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d \(\d+(,\d)? (Ko|Mo)\)\.$/),
    ).toBeVisible(LOADED);
    await expect(manager.getByText(/^Aucune copie hors de ce serveur n'est connue/)).toBeVisible();
    await expect(manager.getByText(path.join(dataDir, "backups"), { exact: true })).toBeVisible();
    expect(await violations(manager)).toEqual([]);

    await manager.getByLabel(/^Votre mot de passe/).fill(MANAGER.password);
    const [download] = await Promise.all([
      manager.waitForEvent("download"),
      manager.getByRole("button", { name: "Télécharger la dernière sauvegarde" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^sauvegarde-\d{4}-\d\d-\d\d-\d{6}\.gz$/);
    const saved = await readFile((await download.path())!);
    expect(saved.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    await expect(manager.getByText(/^Dernière copie hors du serveur : .* \(téléchargée ici\)\.$/)).toBeVisible();

    await manager.getByRole("button", { name: "Mise en ligne", exact: true }).click();
    await expect(point("Sauvegardes hors de cette machine")).toContainText("Fait", LOADED);
    await manager.context().close();
  });
});
