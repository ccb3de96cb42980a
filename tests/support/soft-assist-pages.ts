/**
 * Browser steps shared by the /soft-assist end-to-end specs (issues 5 and
 * 6): technicians made by the command before the server starts (the
 * embedded database has one process at a time), pages in their own browser
 * context at the project's device, sign-up, sign-in, start and join.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
export { violations } from "./axe.ts";
import { startServerProcess, type ServerProcess } from "./server-process.ts";

const root = path.resolve(import.meta.dirname, "../..");

export type Credentials = { email: string; password: string };
export type TechnicianAccount = Credentials & { name: string };

/** `npm run user -- create --technician` on `dataDir` (the server must not be running on it yet). */
export function createTechnician(dataDir: string, account: TechnicianAccount): void {
  execFileSync(
    process.execPath,
    [
      // As `npm run user` runs it (package.json): drizzle-orm resolved in 0.1 s instead of 1.2 s.
      "--import",
      "./server/module-resolve.ts",
      "scripts/user.ts",
      "create",
      "--email",
      account.email,
      "--name",
      account.name,
      "--password",
      account.password,
      "--technician",
    ],
    { cwd: root, env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: "silent" }, stdio: "pipe" },
  );
}

export type AreaServer = { server: ServerProcess; dataDir: string; stop(): Promise<void> };

/**
 * A server of its own on a fresh DATA_DIR named `atelier-e2e-<name>-…` (a copy of the run's migrated template), with
 * `technicians` created by the command first (the embedded database has one
 * process at a time). `stop()` stops it and removes the folder;
 * SOFT_ASSIST_DEBUG=1 prints its log first.
 */
export async function startAreaServer(
  name: string,
  technicians: readonly TechnicianAccount[],
  env: Record<string, string> = {},
): Promise<AreaServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `atelier-e2e-${name}-`));
  // The run's created and migrated database (playwright-global-setup.ts), copied with its owner (postgres as root).
  const template = process.env.E2E_DATA_TEMPLATE;
  if (template) execFileSync("cp", ["-a", `${template}/.`, dataDir]);
  for (const technician of technicians) createTechnician(dataDir, technician);
  const server = await startServerProcess({ DATA_DIR: dataDir, AUTH_SIGN_IN_LIMIT: "1000", LOG_LEVEL: "warn", ...env });
  return {
    server,
    dataDir,
    async stop() {
      if (process.env.SOFT_ASSIST_DEBUG) console.log(server.output());
      await server.stop();
      // Retried: a postgres stopping as the server exits may still write its last WAL file (ENOTEMPTY in CI).
      await rm(dataDir, { recursive: true, force: true, maxRetries: 10 });
    },
  };
}

/** A page in a new browser context at the current project's device, on `baseURL`. */
export async function newPage(browser: Browser, baseURL: string): Promise<Page> {
  const { viewport, userAgent, deviceScaleFactor, isMobile, hasTouch, reducedMotion } = test.info().project.use;
  const context = await browser.newContext({
    baseURL,
    reducedMotion,
    locale: "fr-FR",
    timezoneId: "Europe/Paris",
    viewport,
    userAgent,
    deviceScaleFactor,
    isMobile,
    hasTouch,
  });
  return context.newPage();
}

/** Creates a customer account through the form; resolves once the customer screen shows. */
export async function signUpCustomer(page: Page, name: string): Promise<Credentials> {
  const email = `client-${Math.random().toString(36).slice(2, 8)}@exemple.fr`;
  const password = "motdepasse-client";
  await page.goto("/soft-assist");
  await page.getByRole("button", { name: "Pas encore de compte ? Créer un compte" }).click();
  await expect(page.getByRole("heading", { name: "Créer un compte" })).toBeFocused();
  await page.getByLabel("Nom").fill(name);
  await page.getByLabel("Adresse e-mail").fill(email);
  await page.getByLabel("Mot de passe").fill(password);
  await page.getByRole("button", { name: "Créer mon compte" }).click();
  // Hashing the password (scrypt) and opening the session took over 7 s on 2 cores busy with two browsers.
  // Enabled, not only shown: the signed-in page is a new document (issue 30: the sign-up form posts natively),
  // and its buttons that only JavaScript carries out wait for hydration.
  await expect(page.getByRole("button", { name: "Démarrer une session d'assistance" })).toBeEnabled({
    timeout: 20_000,
  });
  return { email, password };
}

/**
 * Starts a session on the customer screen; resolves with its code as the page writes it (« K7W 9GA », issue 40),
 * which the dashboard's field and the API take as it is (`normalizeSessionCode` for the canonical form).
 */
export async function startSession(page: Page): Promise<string> {
  await page.getByRole("button", { name: "Démarrer une session d'assistance" }).click();
  const code = page.getByRole("group", { name: /^Code de session/ });
  await expect(code).toBeVisible();
  await expect(page.getByText("En attente d'un technicien…")).toBeVisible();
  return (await code.textContent())!.trim();
}

/** Signs in through the form; resolves once the signed-in page is hydrated, or the refusal is shown. */
export async function signIn(page: Page, account: Credentials): Promise<void> {
  await page.goto("/soft-assist");
  await page.getByLabel("Adresse e-mail").fill(account.email);
  await page.getByLabel("Mot de passe").fill(account.password);
  await page.getByRole("button", { name: "Se connecter", exact: true }).click();
  // Signed in: the new page is usable once hydrated (« Se déconnecter » is disabled until then, issue 30);
  // refused: the sign-in form says why.
  await expect(
    page
      .getByRole("button", { name: "Se déconnecter" })
      .or(page.getByRole("alert").filter({ hasText: /\S/ }))
      .first(),
  ).toBeEnabled({ timeout: 20_000 });
}

/** Types `code` key by key into the dashboard's join form and clicks "Se connecter". */
export async function join(page: Page, code: string): Promise<void> {
  await page.getByLabel("Code de session").fill("");
  await page.getByLabel("Code de session").pressSequentially(code);
  await page.getByRole("button", { name: "Se connecter", exact: true }).click();
}
