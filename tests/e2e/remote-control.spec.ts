/**
 * Issue 6 end to end: screen sharing and remote control over WebRTC, the
 * customer and the technician in two browser contexts of Debian's Chromium
 * (fake screen picker and devices, loopback peer connections; no STUN
 * server). This file runs its own server on a fresh DATA_DIR, technicians
 * created by the command first; its tests run in order at desktop width.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
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
const TECH = { email: `tech-rc-${suffix}@exemple.fr`, name: "Camille Technicienne", password: "motdepasse-camille" };
const TECH2 = {
  email: `tech2-rc-${suffix}@exemple.fr`,
  name: "Dominique Technicien",
  password: "motdepasse-dominique",
};
const TURN_SECRET = `secret-turn-qui-ne-doit-jamais-sortir-${suffix}`;

let area: AreaServer;
const newPage = (browser: Browser): Promise<Page> => pageIn(browser, area.server.url);

test.describe.configure({ mode: "default", timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  area = await startAreaServer("remote-control", [TECH, TECH2]);
});

test.afterAll(async () => {
  await area?.stop();
});

/** Customer signed up with a session whose screen is shared; technician joined with the remote view open. */
async function sharedSession(browser: Browser, customerName: string, technician = TECH) {
  const customer = await newPage(browser);
  await signUpCustomer(customer, customerName);
  const code = await startSession(customer);
  await expect(customer.getByRole("heading", { name: "Partager votre écran" })).toBeVisible();
  await customer.getByRole("button", { name: "Partager mon écran" }).click();
  await expect(customer.getByRole("heading", { name: "Partage d'écran" })).toBeVisible();

  const tech = await newPage(browser);
  await signIn(tech, technician);
  await join(tech, code);
  const remote = tech.getByRole("dialog", { name: "Contrôle à distance" });
  await expect(remote).toBeVisible();
  await expect(customer.getByText("Le technicien voit votre écran")).toBeVisible({ timeout: 15_000 });
  return { customer, tech, code, remote };
}

/** The remote video's decoded frame count and size. */
function videoFrames(page: Page) {
  return page.getByTestId("remote-video").evaluate((element) => {
    const video = element as HTMLVideoElement;
    return {
      width: video.videoWidth,
      height: video.videoHeight,
      frames: video.getVideoPlaybackQuality().totalVideoFrames,
    };
  });
}

/** Page coordinates of the point at fractions (fx, fy) of the picture inside the remote video (object-fit: contain). */
async function pointOnPicture(page: Page, fx: number, fy: number) {
  const video = page.getByTestId("remote-video");
  const box = (await video.boundingBox())!;
  const { width, height } = await videoFrames(page);
  const scale = Math.min(box.width / width, box.height / height);
  const left = box.x + (box.width - width * scale) / 2;
  const top = box.y + (box.height - height * scale) / 2;
  return { x: left + fx * width * scale, y: top + fy * height * scale };
}

const actionsOf = (page: Page) => page.getByRole("list", { name: "Dernières actions du technicien" });

test.describe("screen sharing and remote control", { tag: "@desktop" }, () => {
  test("the technician sees the shared screen, guides with mouse and keyboard, chats, and closes", async ({
    browser,
  }) => {
    const { customer, tech, code, remote } = await sharedSession(browser, "Gilles Martin");

    // Decoded frames, and more of them over time.
    await expect.poll(async () => (await videoFrames(tech)).width, { timeout: 15_000 }).toBeGreaterThan(0);
    const first = (await videoFrames(tech)).frames;
    await expect.poll(async () => (await videoFrames(tech)).frames, { timeout: 10_000 }).toBeGreaterThan(first);
    // Pings are answered: the round trip is shown.
    await expect(remote.getByRole("status").filter({ hasText: /Latence : \d+ ms/ })).toBeVisible();
    expect(await violations(tech)).toEqual([]);
    expect(await violations(customer)).toEqual([]);

    // Input off: moving and clicking sends nothing.
    const toggle = remote.getByRole("button", { name: "Envoyer souris et clavier" });
    await expect(toggle).toHaveAttribute("aria-pressed", "false");
    const center = await pointOnPicture(tech, 0.5, 0.5);
    await tech.mouse.move(center.x, center.y);
    await tech.mouse.click(center.x, center.y);
    await tech.keyboard.press("x");
    await tech.waitForTimeout(1_000);
    await expect(actionsOf(customer).getByRole("listitem")).toHaveText(["Aucune action."]);
    await expect(customer.getByTestId("remote-pointer")).toHaveCount(0);
    await expect(customer.getByText("Souris et clavier du technicien : désactivés.")).toBeVisible();

    // Input on: the pointer lands where it was on the picture; buttons and keys arrive.
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-pressed", "true");
    await expect(customer.getByText("Le technicien pilote votre écran : souris et clavier activés.")).toBeVisible();
    const target = await pointOnPicture(tech, 0.25, 0.75);
    await tech.mouse.move(target.x, target.y, { steps: 5 });
    const pointer = customer.getByTestId("remote-pointer");
    await expect(pointer).toHaveAttribute("data-x", /^0\.2[4-6]\d$/);
    await expect(pointer).toHaveAttribute("data-y", /^0\.7[4-6]\d$/);
    await tech.mouse.down();
    await tech.mouse.up();
    await tech.keyboard.press("a");
    await expect(actionsOf(customer).getByRole("listitem")).toHaveText([
      "Touche « a » relâchée",
      "Touche « a » enfoncée",
      "Bouton gauche relâché",
      "Bouton gauche enfoncé",
    ]);

    // A key held while input is turned off is released.
    await tech.keyboard.down("b");
    await expect(actionsOf(customer).getByRole("listitem").first()).toHaveText("Touche « b » enfoncée");
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-pressed", "false");
    await expect(actionsOf(customer).getByRole("listitem").first()).toHaveText("Touche « b » relâchée");
    await tech.keyboard.up("b");
    await expect(customer.getByText("Souris et clavier du technicien : désactivés.")).toBeVisible();

    // So is a key held when the technician's window loses focus.
    await toggle.click();
    await expect(customer.getByText("Le technicien pilote votre écran : souris et clavier activés.")).toBeVisible();
    await tech.keyboard.down("c");
    await expect(actionsOf(customer).getByRole("listitem").first()).toHaveText("Touche « c » enfoncée");
    await tech.evaluate(() => window.dispatchEvent(new Event("blur")));
    await expect(actionsOf(customer).getByRole("listitem").first()).toHaveText("Touche « c » relâchée");
    await tech.keyboard.up("c");
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-pressed", "false");

    // Chat both ways over the data channel.
    await remote.getByLabel("Votre message").fill("Bonjour, je vois votre écran.");
    await remote.getByLabel("Votre message").press("Enter");
    const customerLog = customer.getByRole("log", { name: "Messages de la session" });
    await expect(customerLog.getByText("Bonjour, je vois votre écran.")).toBeVisible();
    await customer.getByLabel("Votre message", { exact: true }).fill("Merci, allez-y.");
    await customer.getByRole("button", { name: "Envoyer le message" }).click();
    await expect(remote.getByRole("log").getByText("Merci, allez-y.")).toBeVisible();

    // The technician closes: the session ends with a duration, the customer's sharing stops.
    await tech.waitForTimeout(1_100);
    await remote.getByRole("button", { name: "Fermer et terminer la session" }).click();
    // Issue 40: asked first; « Annuler » keeps the session, the confirmation ends it.
    const confirm = tech.getByRole("dialog", { name: "Terminer la session ?" });
    await confirm.getByRole("button", { name: "Annuler" }).click();
    await expect(confirm).toBeHidden();
    await expect(remote).toBeVisible();
    await remote.getByRole("button", { name: "Fermer et terminer la session" }).click();
    await confirm.getByRole("button", { name: "Terminer la session", exact: true }).click();
    await expect(tech.getByText("Aucune session active.")).toBeVisible();
    await expect(customer.getByRole("button", { name: "Démarrer une session d'assistance" })).toBeVisible();
    await expect(customer.getByRole("heading", { name: "Partage d'écran" })).toHaveCount(0);
    const row = tech.getByRole("row").filter({ hasText: code });
    // A positive "Xm Ys": on a loaded 2-core CI machine this scenario can pass a minute.
    await expect(row.getByRole("cell").nth(3)).toHaveText(/^(0m [1-9]\d*s|[1-9]\d*m \d{1,2}s)$/);

    // The report tells what happened, chat included.
    await row.getByRole("button", { name: /^Rapport/ }).click();
    const verify = tech.getByRole("dialog", { name: "Vérification" });
    await verify.getByLabel("Mot de passe").fill(TECH.password);
    await verify.getByRole("button", { name: "Valider" }).click();
    const report = tech.getByRole("dialog", { name: "Rapport de session" });
    const story = report.getByRole("list", { name: "Déroulement de la session" }).getByRole("listitem");
    await expect(story).toContainText([
      "Le technicien a rejoint la session",
      "Souris et clavier du technicien activés",
      "Souris et clavier du technicien désactivés",
      "Technicien : « Bonjour, je vois votre écran. »",
      "Client : « Merci, allez-y. »",
      "Session terminée par le technicien",
    ]);
    await expect(story.filter({ hasText: "Le client a commencé le partage d'écran" })).toHaveCount(1);
    expect(await violations(tech)).toEqual([]);
    for (const page of [customer, tech]) await page.context().close();
  });

  test("the customer closes the tab: the dashboard ends the session by itself", async ({ browser }) => {
    const { customer, tech, code, remote } = await sharedSession(browser, "Hélène Roux");
    await expect.poll(async () => (await videoFrames(tech)).width, { timeout: 15_000 }).toBeGreaterThan(0);
    await customer.context().close();
    await expect(remote).toBeHidden({ timeout: 30_000 });
    await expect(tech.getByText("Aucune session active.")).toBeVisible();
    const row = tech.getByRole("row").filter({ hasText: code });
    await expect(row.getByRole("cell").nth(3)).toHaveText(/^\d+m \d+s$/);
    await tech.context().close();
  });

  test("the customer's stop button ends sharing and the session", async ({ browser }) => {
    const { customer, tech, remote } = await sharedSession(browser, "Inès Garnier", TECH2);
    await customer.getByRole("button", { name: "Arrêter le partage" }).click();
    await expect(customer.getByRole("button", { name: "Démarrer une session d'assistance" })).toBeVisible();
    await expect(remote).toBeHidden();
    await expect(tech.getByText("Aucune session active.")).toBeVisible();
    for (const page of [customer, tech]) await page.context().close();
  });

  test("the browser's own stop-sharing control does the same", async ({ browser }) => {
    const { customer, tech, remote } = await sharedSession(browser, "Joël Perrin");
    // What the browser does when its "stop sharing" bar is used: the captured track ends.
    await customer.getByLabel("Aperçu de votre écran partagé").evaluate((video) => {
      const stream = (video as HTMLVideoElement).srcObject as MediaStream;
      stream.getVideoTracks()[0]!.dispatchEvent(new Event("ended"));
    });
    await expect(customer.getByRole("button", { name: "Démarrer une session d'assistance" })).toBeVisible();
    await expect(remote).toBeHidden();
    await expect(tech.getByText("Aucune session active.")).toBeVisible();
    for (const page of [customer, tech]) await page.context().close();
  });

  test("a refused or unsupported screen picker gets a French message", async ({ browser }) => {
    const customer = await newPage(browser);
    await customer.addInitScript(() => {
      navigator.mediaDevices.getDisplayMedia = () => Promise.reject(new DOMException("refus", "NotAllowedError"));
    });
    await signUpCustomer(customer, "Jules Fabre");
    await startSession(customer);
    await customer.getByRole("button", { name: "Partager mon écran" }).click();
    await expect(customer.getByText("Partage d'écran refusé.", { exact: false })).toBeVisible();
    expect(await violations(customer)).toEqual([]);

    const other = await customer.context().newPage();
    await other.addInitScript(() => {
      Object.defineProperty(MediaDevices.prototype, "getDisplayMedia", { value: undefined });
      Object.defineProperty(navigator.mediaDevices, "getDisplayMedia", { value: undefined });
    });
    await other.goto("/soft-assist");
    await other.getByRole("button", { name: "Partager mon écran" }).click();
    await expect(other.getByText("Votre navigateur ne permet pas le partage d'écran.", { exact: false })).toBeVisible();
    await customer.context().close();
  });
});

test(
  "TURN credentials are issued, the TURN secret never leaves the server",
  { tag: "@desktop" },
  async ({ browser }) => {
    const turn = await startAreaServer("turn", [], {
      TURN_URLS: "turn:turn.exemple.fr:3478",
      TURN_SECRET,
      TURN_TTL_S: "3600",
    });
    try {
      const customer = await pageIn(browser, turn.server.url);
      const seen: string[] = [];
      customer.on("response", async (response) => {
        if (response.request().resourceType() === "fetch" || response.url().endsWith(".js"))
          seen.push(await response.text().catch(() => ""));
      });
      await signUpCustomer(customer, "Karim Blanc");
      const code = await startSession(customer);
      const ice = await customer.request.get(`/api/sessions/${code}/ice-servers`);
      const body = await ice.json();
      expect(body.iceServers).toEqual([
        {
          urls: ["turn:turn.exemple.fr:3478"],
          username: expect.stringMatching(/^\d{10}:/),
          credential: expect.stringMatching(/^[A-Za-z0-9+/]{27}=$/),
        },
      ]);
      const expiry = Number(body.iceServers[0].username.split(":")[0]);
      expect(Math.abs(expiry - (Date.now() / 1000 + 3600))).toBeLessThan(120);
      await customer.goto("/");
      await customer.goto("/soft-assist");
      await expect(customer.getByRole("group", { name: /^Code de session/ })).toBeVisible();
      expect(seen.length).toBeGreaterThan(3);
      expect(seen.filter((text) => text.includes(TURN_SECRET))).toEqual([]);
      expect(JSON.stringify(body)).not.toContain(TURN_SECRET);
      // No browser code even knows the variable: the build's scripts never mention it.
      const assets = path.resolve(import.meta.dirname, "../../build/client/assets");
      const scripts = (await readdir(assets)).filter((file) => file.endsWith(".js"));
      expect(scripts.length).toBeGreaterThan(3);
      for (const file of scripts)
        expect(await readFile(path.join(assets, file), "utf8"), file).not.toMatch(/TURN_SECRET|TURN_TTL_S/);
      await customer.context().close();
    } finally {
      await turn.stop();
    }
  },
);
