/**
 * Issue 13 §4 end to end: a server restart in the middle of a remote-support
 * session, the customer (sharing the fake screen) and the technician
 * (viewing it) in two browser contexts of Debian's Chromium.
 *
 * - SIGTERM (a deploy), a new process on the same port and data folder: both
 *   pages say they lost the server, reconnect by themselves, and the session
 *   goes on (the picture plays, the chat is recorded again, a reloaded
 *   dashboard gets the screen back through the new server's signaling); the
 *   history has no false end.
 * - kill -9, same: the pages resume. Then, with the technician's page
 *   closed and the customer's offline, the new process ends the session
 *   after `SESSION_ABANDON_S`: the history shows its duration, the report
 *   "Session terminée par le serveur", and the customer, once back online,
 *   reads why.
 *
 * One server of its own, restarted in place; tests run in order at desktop width.
 */
import { expect, test, type Browser, type Locator, type Page } from "@playwright/test";
import { normalizeSessionCode } from "#app/remote-support/protocol.ts";
import { startServerProcess, type ServerProcess } from "#tests/support/server-process.ts";
import {
  join,
  newPage as pageIn,
  signIn,
  signUpCustomer,
  startAreaServer,
  startSession,
  violations,
  type AreaServer,
} from "#tests/support/soft-assist-pages.ts";

const suffix = Math.random().toString(36).slice(2, 8);
const TECH = {
  email: `tech-restart-${suffix}@exemple.fr`,
  name: "Camille Technicienne",
  password: "motdepasse-camille",
};
/** The grace of the processes started after a kill -9: longer than a page needs to reconnect (about 3 s at most). */
const ABANDON_S = 8;

let area: AreaServer;
/** The process now serving `area` (replaced by each restart). */
let current: ServerProcess;
const port = () => new URL(area.server.url).port;
const newPage = (browser: Browser): Promise<Page> => pageIn(browser, area.server.url);

/** A new server process on the same port and data folder, once the previous one is gone. */
async function restart(env: Record<string, string> = {}) {
  current = await startServerProcess({
    DATA_DIR: area.dataDir,
    AUTH_SIGN_IN_LIMIT: "1000",
    LOG_LEVEL: "warn",
    PORT: port(),
    ...env,
  });
}

test.describe.configure({ mode: "default", timeout: 240_000 });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  area = await startAreaServer("restart", [TECH]);
  current = area.server;
});

test.afterAll(async () => {
  if (current && current !== area?.server) await current.stop();
  await area?.stop();
});

/** Customer signed up, sharing; technician joined, the customer's screen playing in the remote view. */
async function sharedSession(browser: Browser, customerName: string) {
  const customer = await newPage(browser);
  await signUpCustomer(customer, customerName);
  const code = await startSession(customer);
  await customer.getByRole("button", { name: "Partager mon écran" }).click();
  await expect(customer.getByRole("heading", { name: "Partage d'écran" })).toBeVisible();
  const tech = await newPage(browser);
  await signIn(tech, TECH);
  await join(tech, code);
  const remote = tech.getByRole("dialog", { name: "Contrôle à distance" });
  await expect(remote).toBeVisible();
  await expect(customer.getByText("Le technicien voit votre écran")).toBeVisible({ timeout: 15_000 });
  await expectPicturePlaying(tech);
  return { customer, tech, code, remote };
}

/** The remote video decodes frames, and more of them over time. */
async function expectPicturePlaying(tech: Page) {
  const frames = () =>
    tech.getByTestId("remote-video").evaluate((element) => {
      const video = element as HTMLVideoElement;
      return video.videoWidth > 0 ? video.getVideoPlaybackQuality().totalVideoFrames : 0;
    });
  await expect.poll(frames, { timeout: 15_000 }).toBeGreaterThan(0);
  const first = await frames();
  await expect.poll(frames, { timeout: 10_000 }).toBeGreaterThan(first);
}

const reconnecting = (scope: Page | Locator) => scope.getByRole("status").filter({ hasText: /reconnexion…$/ });

/** A chat line from the technician, received by the customer. */
async function chat(remote: Locator, customer: Page, text: string) {
  await remote.getByLabel("Votre message").fill(text);
  await remote.getByLabel("Votre message").press("Enter");
  await expect(customer.getByRole("log", { name: "Messages de la session" }).getByText(text)).toBeVisible();
}

/** The report of session `code`, opened from the technician's history. */
async function openReport(tech: Page, code: string) {
  await tech
    .getByRole("row")
    .filter({ hasText: code })
    .getByRole("button", { name: /^Rapport/ })
    .click();
  const verify = tech.getByRole("dialog", { name: "Vérification" });
  await verify.getByLabel("Mot de passe").fill(TECH.password);
  await verify.getByRole("button", { name: "Valider" }).click();
  const report = tech.getByRole("dialog", { name: "Rapport de session" });
  return report.getByRole("list", { name: "Déroulement de la session" }).getByRole("listitem");
}

/** "Xm Ys" of a history row → seconds. */
function historySeconds(text: string): number {
  const match = /^(\d+)m (\d+)s$/.exec(text.trim());
  if (!match) throw new Error(`durée illisible : ${text}`);
  return Number(match[1]) * 60 + Number(match[2]);
}

test.describe("a server restart during a session", { tag: "@desktop" }, () => {
  test("SIGTERM and a new process: both pages reconnect by themselves and the session goes on", async ({ browser }) => {
    const { customer, tech, code, remote } = await sharedSession(browser, "Rémi Fontaine");
    await chat(remote, customer, "Avant le redémarrage.");
    // The line crossed the data channel; its copy for the report is a separate POST: stored before the stop.
    await expect
      .poll(() =>
        tech.evaluate(async (session) => {
          const answer = await fetch(`/api/sessions/${session}/events`);
          const { events } = (await answer.json()) as { events: { text: string | null }[] };
          return events.some((event) => event.text === "Avant le redémarrage.");
        }, code),
      )
      .toBe(true);

    expect(await current.stop()).toBe(0);
    // Both pages say it, politely; the customer's page stays usable meanwhile.
    await expect(reconnecting(customer)).toHaveText("Le serveur redémarre, reconnexion…");
    await expect(reconnecting(remote)).toHaveText("Le serveur redémarre, reconnexion…");
    expect(await violations(customer)).toEqual([]);

    await restart();
    await expect(reconnecting(customer)).toHaveCount(0, { timeout: 15_000 });
    await expect(reconnecting(remote)).toHaveCount(0, { timeout: 15_000 });
    // The session goes on: same code, the picture still plays, the chat is recorded by the new process.
    await expect(customer.getByRole("group", { name: /^Code de session/ })).toHaveText(code);
    await expect(customer.getByText("Le technicien voit votre écran")).toBeVisible();
    await expect(remote).toBeVisible();
    await expectPicturePlaying(tech);
    await chat(remote, customer, "Après le redémarrage.");

    // Signaling works through the new process: a reloaded dashboard resumes the session and gets the screen again.
    await tech.reload();
    const reopened = tech.getByRole("dialog", { name: "Contrôle à distance" });
    // A whole page load, the session fetched, then the remote view's own chunk: past 7 s on 2 busy cores.
    await expect(reopened).toBeVisible({ timeout: 20_000 });
    await expectPicturePlaying(tech);
    await expect(customer.getByText("Le technicien voit votre écran")).toBeVisible({ timeout: 15_000 });
    expect(await violations(tech)).toEqual([]);

    // No false end: the history says "En cours" until the technician ends it, and the report has one end, theirs.
    await reopened.getByRole("button", { name: "Réduire" }).click();
    await expect(tech.getByRole("row").filter({ hasText: code }).getByRole("cell").nth(3)).toHaveText("En cours");
    await tech.getByRole("button", { name: "Ouvrir le contrôle à distance" }).click();
    await tech
      .getByRole("dialog", { name: "Contrôle à distance" })
      .getByRole("button", { name: "Fermer et terminer la session" })
      .click();
    await tech
      .getByRole("dialog", { name: "Terminer la session ?" })
      .getByRole("button", { name: "Terminer la session", exact: true })
      .click();
    await expect(tech.getByText("Aucune session active.")).toBeVisible();
    await expect(customer.getByRole("button", { name: "Démarrer une session d'assistance" })).toBeVisible();
    const story = await openReport(tech, code);
    await expect(story).toContainText([
      "Le technicien a rejoint la session",
      "Technicien : « Avant le redémarrage. »",
      "Technicien : « Après le redémarrage. »",
      "Session terminée par le technicien",
    ]);
    await expect(story.filter({ hasText: "Session terminée par" })).toHaveCount(1);
    await expect(reconnecting(customer)).toHaveCount(0);
    for (const page of [customer, tech]) await page.context().close();
  });

  test("kill -9: the pages resume; with both sides away, the new process ends the session after the grace", async ({
    browser,
  }) => {
    // The server's start time lies between these two.
    const beforeJoin = Date.now();
    const { customer, tech, code, remote } = await sharedSession(browser, "Sarah Lambert");
    const joinedAt = Date.now();

    // A crash, then a new process (after the dead one's folder lock turns stale): the pages come back by themselves.
    await current.kill();
    await expect(reconnecting(customer)).toHaveText("Connexion au serveur perdue, reconnexion…");
    await expect(reconnecting(remote)).toHaveText("Connexion au serveur perdue, reconnexion…");
    await restart({ SESSION_ABANDON_S: String(ABANDON_S) });
    await expect(reconnecting(customer)).toHaveCount(0, { timeout: 15_000 });
    await expect(reconnecting(remote)).toHaveCount(0, { timeout: 15_000 });
    await expectPicturePlaying(tech);
    await chat(remote, customer, "Toujours là.");
    // Well past the grace with both pages back: the session is still running.
    await customer.waitForTimeout((ABANDON_S + 3) * 1_000);
    await expect(customer.getByText("Le technicien voit votre écran")).toBeVisible();
    await expect(remote).toBeVisible();

    // Another crash; this time the technician has closed the page and the customer's browser is offline.
    await current.kill();
    await tech.context().close();
    await customer.context().setOffline(true);
    const awaySince = Date.now();
    await restart({ SESSION_ABANDON_S: String(ABANDON_S) });

    // Neither side has a connection (the API answers the customer's own requests, which are not presence): the
    // session ends after the grace.
    const ended = async () => {
      const response = await customer.context().request.get("/api/sessions/mine");
      const { sessions } = (await response.json()) as { sessions: { code: string; endTime: string | null }[] };
      // The page writes the code « K7W 9GA » (issue 40), the API answers it canonical.
      return sessions.find((session) => session.code === normalizeSessionCode(code))?.endTime ?? null;
    };
    await expect.poll(ended, { timeout: 30_000 }).not.toBeNull();

    // The technician signs in again: the history shows the session's duration, the report the server as its ender.
    const later = await newPage(browser);
    await signIn(later, TECH);
    await expect(later.getByRole("heading", { name: "Historique des sessions" })).toBeVisible({ timeout: 15_000 });
    const row = later.getByRole("row").filter({ hasText: code });
    await expect(row.getByRole("cell").nth(3)).toHaveText(/^\d+m \d+s$/, { timeout: 15_000 });
    await expect(later.getByText("Aucune session active.")).toBeVisible();
    const seconds = historySeconds((await row.getByRole("cell").nth(3).textContent()) ?? "");
    // From the join to the server's end: at least the time it was live and then the whole grace, at most until now.
    expect(seconds).toBeGreaterThanOrEqual(Math.floor((awaySince - joinedAt) / 1000) + ABANDON_S);
    expect(seconds).toBeLessThanOrEqual(Math.ceil((Date.now() - beforeJoin) / 1000));
    const story = await openReport(later, code);
    await expect(story.last()).toContainText("Session terminée par le serveur");
    expect(await violations(later)).toEqual([]);

    // The customer comes back online: the page reconnects, the session is gone and the page says why.
    await customer.context().setOffline(false);
    await expect(customer.getByText("La session a été terminée par le serveur", { exact: false })).toBeVisible({
      timeout: 15_000,
    });
    await expect(customer.getByRole("button", { name: "Démarrer une session d'assistance" })).toBeVisible();
    await expect(customer.getByRole("heading", { name: "Partage d'écran" })).toHaveCount(0);
    expect(await violations(customer)).toEqual([]);
    for (const page of [customer, later]) await page.context().close();
  });
});
