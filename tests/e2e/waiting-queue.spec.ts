/**
 * Issue 27, « La file d'attente », end to end on two server processes
 * sharing one PostgreSQL (its Socket.IO adapter between them): technician
 * Camille and customers Léa and Zoé on server A, technician Hugo and
 * customer Paul on server B, each in a browser context of their own.
 *
 * - Each customer who starts a session appears at once on both dashboards,
 *   oldest first, with « depuis le site », the system and the waiting time;
 *   Zoé, who came from the assistant, with her conversation. Each customer
 *   reads their place.
 * - Both technicians click « Prendre en charge » on Léa at the same moment:
 *   one gets her (the remote view opens, Léa reads that a technician is
 *   there), the other reads that she is taken, and she leaves both lists;
 *   the others move up.
 * - The code still works over the phone: the other technician types Paul's
 *   code, as fast as a person, and Paul leaves the queue.
 * - axe finds nothing on the dashboard with the queue, nor on a waiting
 *   customer's screen.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { systemOfBrowser } from "#app/remote-support/customer-system.ts";
import { QUEUE_MESSAGES } from "#app/remote-support/queue.ts";
import { createScratchDatabase } from "#tests/support/postgres.ts";
import { startServerProcess, type ServerProcess } from "#tests/support/server-process.ts";
import {
  newPage,
  signIn,
  signUpCustomer,
  startSession,
  violations,
  type TechnicianAccount,
} from "#tests/support/soft-assist-pages.ts";

const root = path.resolve(import.meta.dirname, "../..");
const suffix = Math.random().toString(36).slice(2, 8);
const CAMILLE: TechnicianAccount = {
  name: "Camille",
  email: `camille-${suffix}@atelier.exemple`,
  password: "mdp-camille-1",
};
const HUGO: TechnicianAccount = { name: "Hugo", email: `hugo-${suffix}@atelier.exemple`, password: "mdp-hugo-12" };

let serverA: ServerProcess;
let serverB: ServerProcess;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
const dataDirs: string[] = [];

// Five pages on two server processes: 1.4 min alone, past 4 min beside the rest of the suite on 2 cores.
test.describe.configure({ mode: "default", timeout: 360_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const postgres = process.env.E2E_POSTGRES_URL;
  if (!postgres)
    throw new Error("PostgreSQL est requis (deux processus serveur partagent une base) : installez postgresql.");
  scratch = await createScratchDatabase(postgres);
  // Both processes sign the same cookies: a technician could be sent to either.
  const env = {
    DATABASE_URL: scratch.url,
    BETTER_AUTH_SECRET: `secret-e2e-file-d-attente-${suffix}-assez-long`,
    AUTH_SIGN_IN_LIMIT: "1000",
    LOG_LEVEL: "warn",
  };
  for (let i = 0; i < 2; i++) dataDirs.push(await mkdtemp(path.join(tmpdir(), "atelier-e2e-queue-")));
  serverA = await startServerProcess({ ...env, DATA_DIR: dataDirs[0]! });
  // Accounts are made by the command, as the shop does; the database exists (migrated) once A is up.
  for (const account of [CAMILLE, HUGO]) {
    const args = ["--email", account.email, "--name", account.name, "--password", account.password, "--technician"];
    execFileSync(process.execPath, ["scripts/user.ts", "create", ...args], {
      cwd: root,
      env: { PATH: process.env.PATH, DATABASE_URL: scratch.url, DATA_DIR: dataDirs[0]!, LOG_LEVEL: "silent" },
      stdio: "pipe",
    });
  }
  serverB = await startServerProcess({ ...env, DATA_DIR: dataDirs[1]! });
});

test.afterAll(async () => {
  if (process.env.SOFT_ASSIST_DEBUG) console.log(serverA?.output(), serverB?.output());
  await serverA?.stop();
  await serverB?.stop();
  await scratch?.drop();
  for (const dir of dataDirs) await rm(dir, { recursive: true, force: true, maxRetries: 10 });
});

/** A technician's dashboard, signed in on `url`, its queue showing. */
async function dashboard(browser: Browser, url: string, account: TechnicianAccount): Promise<Page> {
  const page = await newPage(browser, url);
  await signIn(page, account);
  await expect(page.getByRole("heading", { level: 1, name: "Tableau de bord technicien" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "File d'attente" })).toBeVisible();
  return page;
}

const queueOf = (page: Page) => page.getByRole("list", { name: "File d'attente" });
const entries = (page: Page) =>
  queueOf(page)
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading") });
/** The waiting customers' names as a dashboard lists them, in order. */
const namesOn = (page: Page) => entries(page).getByRole("heading", { level: 3 });

test("customers waiting appear live on both processes' dashboards; « Prendre en charge » raced; the code still works @desktop", async ({
  browser,
}) => {
  const camille = await dashboard(browser, serverA.url, CAMILLE);
  const hugo = await dashboard(browser, serverB.url, HUGO);
  for (const tech of [camille, hugo])
    await expect(tech.getByRole("status").filter({ hasText: "Aucun client en attente." })).toBeVisible();

  // The system the dashboards name: the one the project's browser says it runs (Playwright's device).
  const system = systemOfBrowser({ userAgent: test.info().project.use.userAgent });
  // Léa, on A.
  const lea = await newPage(browser, serverA.url);
  await signUpCustomer(lea, "Léa Martin");
  await startSession(lea);
  await expect(lea.getByText("Vous êtes en tête de la file d'attente.")).toBeVisible();
  await expect(lea.getByText(/^(Attente estimée : environ \d+ min\.|Horaires : .+)$/)).toBeVisible();
  for (const tech of [camille, hugo]) {
    await expect(namesOn(tech)).toHaveText(["1. Léa Martin"]);
    const entry = entries(tech).first();
    await expect(entry).toContainText(`depuis le site · ${system}`);
    await expect(entry).toContainText(/En attente depuis (moins d'une minute|\d+ minutes?) \(arrivée à \d{2}:\d{2}\)/);
  }

  // Paul, on B.
  const paul = await newPage(browser, serverB.url);
  await signUpCustomer(paul, "Paul Durand");
  const paulCode = await startSession(paul);
  await expect(paul.getByText("Votre place dans la file d'attente : 2 (1 personne avant vous).")).toBeVisible();
  for (const tech of [camille, hugo]) await expect(namesOn(tech)).toHaveText(["1. Léa Martin", "2. Paul Durand"]);

  // Zoé, on A, asks the assistant first, typing as a person does, then asks for a technician.
  const zoe = await newPage(browser, serverA.url);
  await signUpCustomer(zoe, "Zoé Bernard");
  const assistant = zoe.locator("[data-slot=assistant-virtuel]");
  const question = "Combien coûte le port HDMI d'une PS5 ?";
  await assistant.getByPlaceholder("Tapez votre message...").pressSequentially(question, { delay: 30 });
  await assistant.getByPlaceholder("Tapez votre message...").press("Enter");
  await expect(assistant.getByRole("group", { name: "Votre avis sur cette réponse" })).toHaveCount(1);
  await assistant.getByRole("button", { name: "Parler à un technicien" }).click();
  await expect(zoe.getByText("Votre place dans la file d'attente : 3 (2 personnes avant vous).")).toBeVisible();
  for (const tech of [camille, hugo])
    await expect(namesOn(tech)).toHaveText(["1. Léa Martin", "2. Paul Durand", "3. Zoé Bernard"]);
  const zoeEntry = entries(hugo).filter({ hasText: "Zoé Bernard" });
  await zoeEntry.getByText("Conversation avec l'assistant (2 messages)").click();
  await expect(zoeEntry.getByRole("list", { name: "Conversation avec l'assistant" })).toContainText(question);
  expect(await violations(hugo)).toEqual([]);
  expect(await violations(zoe)).toEqual([]);

  // Both technicians take Léa at the same moment, each through their own server process.
  // Both buttons on screen first; then the two clicks leave together (a pointer click scrolls and waits for the
  // page to settle, and the first answer's push would remove the second button before it is pressed).
  const take = [camille, hugo].map((tech) => tech.getByRole("button", { name: "Prendre en charge Léa Martin" }));
  for (const button of take) await button.scrollIntoViewIfNeeded();
  await Promise.all(take.map((button) => button.dispatchEvent("click")));
  // Issue 40: named by the first name of whichever technician won.
  await expect(lea.getByText(/^(Camille|Hugo), technicien de l'atelier, est connecté$/u)).toBeVisible();
  const remoteOn = async (tech: Page) => tech.getByRole("dialog", { name: "Contrôle à distance" }).isVisible();
  await expect.poll(async () => (await remoteOn(camille)) || (await remoteOn(hugo))).toBe(true);
  const [winner, loser] = (await remoteOn(camille)) ? [camille, hugo] : [hugo, camille];
  await expect(winner.getByRole("dialog", { name: "Contrôle à distance" })).toBeVisible();
  await expect(loser.getByRole("alert").filter({ hasText: QUEUE_MESSAGES.taken })).toBeVisible();
  await expect(loser.getByRole("dialog", { name: "Contrôle à distance" })).toBeHidden();
  for (const tech of [winner, loser]) await expect(namesOn(tech)).toHaveText(["1. Paul Durand", "2. Zoé Bernard"]);
  await expect(paul.getByText("Vous êtes en tête de la file d'attente.")).toBeVisible();
  await expect(zoe.getByText("Votre place dans la file d'attente : 2 (1 personne avant vous).")).toBeVisible();

  // Paul, on the phone, reads his code to the other technician, who types it.
  await loser.getByLabel("Code de session").pressSequentially(paulCode.toLowerCase(), { delay: 40 });
  await loser.getByRole("button", { name: "Se connecter", exact: true }).click();
  await expect(loser.getByRole("dialog", { name: "Contrôle à distance" })).toBeVisible();
  await expect(paul.getByText(/^(Camille|Hugo), technicien de l'atelier, est connecté$/u)).toBeVisible();
  await expect(zoe.getByText("Vous êtes en tête de la file d'attente.")).toBeVisible();
  await winner.getByRole("button", { name: "Réduire" }).click();
  await expect(namesOn(winner)).toHaveText(["1. Zoé Bernard"]);
  expect(await violations(winner)).toEqual([]);

  for (const page of [camille, hugo, lea, paul, zoe]) await page.context().close();
});
