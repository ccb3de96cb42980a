/**
 * Issue 29 end to end: the manager (« gérant », made by `npm run user -- create --manager` before the
 * server starts) invites a technician from the « Équipe » view; issue 40: with no SMTP configured, the view
 * says plainly the invitation was not sent and gives its link, which « Copier le lien » puts on the clipboard
 * (the same link as the outbox's .eml file); that link lets them sign up; the new technician joins a customer's session by its code; the
 * manager disables them, and their open dashboard is taken back to the sign-in form. axe (WCAG 2.2 AA)
 * on the « Équipe » view, the invitation page and a refused set-up link.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import {
  join,
  newPage as pageIn,
  signIn,
  signUpCustomer,
  startSession,
  violations,
} from "#tests/support/soft-assist-pages.ts";
import { startServerProcess, type ServerProcess } from "#tests/support/server-process.ts";

const root = path.resolve(import.meta.dirname, "../..");
const suffix = Math.random().toString(36).slice(2, 8);
const MANAGER = { email: `gerant-${suffix}@exemple.fr`, name: "Sam Gérant", password: "motdepasse-gerant" };
const INVITED = { email: `invite-${suffix}@exemple.fr`, name: "Inès Invitée", password: "motdepasse-ines" };

let dataDir: string;
let server: ServerProcess;

/** The invitation link of the mail sent to `email`, from the .eml files (quoted-printable undone), or "". */
async function findInvitationLink(email: string): Promise<string> {
  const folder = path.join(dataDir, "outbox");
  const files = await readdir(folder).catch(() => [] as string[]);
  for (const file of files.filter((name) => name.endsWith(".eml"))) {
    const text = (await readFile(path.join(folder, file), "utf8")).replace(/=\r?\n/g, "").replace(/=3D/g, "=");
    if (!text.includes(email)) continue;
    const match = /https?:\/\/[^\s"<>]+\/soft-assist\/invitation\?jeton=[A-Za-z0-9_-]+/.exec(text);
    if (match) return match[0];
  }
  return "";
}

const newPage = (browser: Browser): Promise<Page> => pageIn(browser, server.url);

test.describe.configure({ mode: "default", timeout: 180_000 });
/** After a navigation: on 2 loaded cores the page's scripts took 13 s to arrive once (CI rehearsal beside). */
const LOADED = { timeout: 30_000 };

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = await mkdtemp(path.join(tmpdir(), "atelier-e2e-staff-"));
  // Before the server starts, as technicians are made in the other specs.
  execFileSync(
    process.execPath,
    [
      "scripts/user.ts",
      "create",
      "--email",
      MANAGER.email,
      "--name",
      MANAGER.name,
      "--password",
      MANAGER.password,
      "--manager",
    ],
    { cwd: root, env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: "silent" }, stdio: "pipe" },
  );
  server = await startServerProcess({ DATA_DIR: dataDir, AUTH_SIGN_IN_LIMIT: "1000", LOG_LEVEL: "warn" });
});

test.afterAll(async () => {
  if (process.env.SOFT_ASSIST_DEBUG) console.log(server?.output());
  await server?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true, maxRetries: 10 });
});

test.describe("staff accounts", { tag: "@desktop" }, () => {
  test("invite, sign up from the mail's link, join a session, then be disabled and signed out", async ({ browser }) => {
    const manager = await newPage(browser);
    await signIn(manager, MANAGER);
    await manager.getByRole("button", { name: "Équipe" }).click(LOADED);
    await expect(manager.getByRole("heading", { name: "Inviter un technicien" })).toBeVisible(LOADED);
    await expect(manager.getByText(MANAGER.email)).toBeVisible();
    await manager.getByLabel("Adresse e-mail du technicien").fill(INVITED.email);
    await manager.getByRole("button", { name: "Inviter un technicien" }).click();
    // Issue 40: no SMTP here, so nothing was sent, and the view says so instead of « Invitation envoyée ».
    await expect(
      manager
        .getByRole("alert")
        .filter({ hasText: "L'envoi d'e-mails n'est pas configuré : l'invitation n'a pas été envoyée." }),
    ).toBeVisible();
    await expect(manager.getByText("Invitation envoyée")).toHaveCount(0);
    await expect(manager.getByRole("button", { name: `Annuler l'invitation de ${INVITED.email}` })).toBeVisible();
    expect(await violations(manager)).toEqual([]);
    await manager.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    await manager.getByRole("button", { name: "Copier le lien" }).click();
    await expect(manager.getByRole("status").filter({ hasText: "Lien copié" })).toBeVisible();
    const copied = await manager.evaluate(() => navigator.clipboard.readText());
    await expect(manager.getByRole("textbox", { name: "Lien d'invitation à transmettre" })).toHaveValue(copied);
    // The link given is the one the outbox wrote (no second link made for the manager).
    await expect.poll(() => findInvitationLink(INVITED.email), { timeout: 15_000 }).toBe(copied);
    const link = new URL(copied);
    const technician = await newPage(browser);
    await technician.goto(`${link.pathname}${link.search}`);
    await expect(technician.getByRole("heading", { name: "Votre compte technicien" })).toBeVisible(LOADED);
    await expect(technician.getByText(INVITED.email)).toBeVisible();
    expect(await violations(technician)).toEqual([]);
    await technician.getByLabel("Nom").fill(INVITED.name);
    await technician.getByLabel("Mot de passe").fill(INVITED.password);
    await technician.getByRole("button", { name: "Créer mon compte" }).click();
    await expect(technician.getByLabel("Code de session")).toBeVisible(LOADED);

    // The link was for one account only.
    const reused = await newPage(browser);
    await reused.goto(`${link.pathname}${link.search}`);
    await expect(reused.getByRole("alert")).toHaveText(/déjà servi/, LOADED);
    await reused.context().close();

    const customer = await newPage(browser);
    await signUpCustomer(customer, "Léo Client");
    const code = await startSession(customer);
    await join(technician, code);
    await expect(technician.getByRole("dialog", { name: "Contrôle à distance" })).toBeVisible(LOADED);

    // The manager's list, read again, names the new technician; « Désactiver » signs them out at once.
    await manager.getByRole("button", { name: "Sessions" }).click();
    await manager.getByRole("button", { name: "Équipe" }).click();
    await manager.getByRole("button", { name: `Désactiver le compte de ${INVITED.name}` }).click(LOADED);
    await expect(manager.getByText("Compte désactivé : ses connexions sont terminées.")).toBeVisible();
    await expect(technician.getByRole("button", { name: "Se connecter", exact: true })).toBeVisible(LOADED);
    await expect(technician.getByLabel("Adresse e-mail")).toBeVisible();

    await signIn(technician, INVITED);
    await expect(technician.getByRole("alert").filter({ hasText: "Ce compte est désactivé." })).toBeVisible(LOADED);
    for (const page of [manager, technician, customer]) await page.context().close();
  });

  test("a set-up link once a manager exists is refused in French", async ({ browser }) => {
    const page = await newPage(browser);
    await page.goto(`/soft-assist/gerant?jeton=${"a".repeat(43)}`);
    await expect(page.getByRole("alert")).toHaveText(/Un compte gérant existe déjà/, LOADED);
    expect(await violations(page)).toEqual([]);
    await page.context().close();
  });
});
