/**
 * Issue 15 end to end: the desktop support app, built from this repository
 * for Linux, controls a real X display. Xvfb runs a screen of the fake
 * capture's size (1920 × 1080) with a real X application on it (a Chromium
 * window with a text area, `tests/support/xvfb.ts`); the customer shares the
 * (fake) screen, pairs the app with the code their page shows and allows
 * control; the technician, in another browser, clicks on the video and
 * types. The X application must get the click at the right pixel and the
 * exact text, and nothing once the toggle is off or consent withdrawn; a
 * technician's browser closed mid-drag leaves no button down.
 *
 * Issue 29: the build carries no address; the app downloaded from the test server over HTTP (brotli, as a
 * browser asks) and started with no argument connects to that server, whose address the download carries
 * (two servers, two addresses, one build: server/downloads.test.ts).
 */
import type { ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
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
import { openXApp, startXvfb, type XApp, type XDisplay } from "#tests/support/xvfb.ts";
import { buildLinuxApp, startTerminalApp, typeOnFrenchKeyboard } from "#tests/support/desktop-app.ts";

const suffix = Math.random().toString(36).slice(2, 8);
const TECH = { email: `tech-app-${suffix}@exemple.fr`, name: "Camille Technicienne", password: "motdepasse-camille" };
/** The fake screen capture's picture (playwright.config.ts): the X screen has the same size, so fractions map 1:1. */
const SCREEN = { width: 1920, height: 1080 };

let area: AreaServer;
let display: XDisplay;
let xApp: XApp;
let appBinary: string;
/** Where the downloaded app is saved (issue 29). */
let downloads: string;
const apps: ChildProcess[] = [];
const newPage = (browser: Browser): Promise<Page> => pageIn(browser, area.server.url);

test.describe.configure({ mode: "serial", timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  appBinary = buildLinuxApp();
  downloads = mkdtempSync(path.join(tmpdir(), "desktop-download-"));
  area = await startAreaServer("desktop-app", [TECH]);
  display = await startXvfb(SCREEN.width, SCREEN.height);
  xApp = await openXApp(display);
});

test.afterAll(async () => {
  for (const app of apps) app.kill("SIGTERM");
  if (downloads) rmSync(downloads, { recursive: true, force: true });
  await xApp?.close();
  await display?.stop();
  await area?.stop();
});

/** Runs the built app against the test server on the Xvfb display, with the pairing code given as an argument. */
function runApp(pairingCode: string) {
  const app = startTerminalApp(appBinary, ["--server", area.server.url, "--code", pairingCode], display.display);
  apps.push(app.child);
  return app;
}

/** Page coordinates of the point at fractions (fx, fy) of the picture inside the remote video (object-fit: contain). */
async function pointOnPicture(page: Page, fx: number, fy: number) {
  const video = page.getByTestId("remote-video");
  const box = (await video.boundingBox())!;
  const size = await video.evaluate((element) => {
    const v = element as HTMLVideoElement;
    return { width: v.videoWidth, height: v.videoHeight };
  });
  const scale = Math.min(box.width / size.width, box.height / size.height);
  return {
    x: box.x + (box.width - size.width * scale) / 2 + fx * size.width * scale,
    y: box.y + (box.height - size.height * scale) / 2 + fy * size.height * scale,
  };
}

test.describe("the desktop support app", { tag: "@desktop" }, () => {
  test("a desktop app downloaded from the server connects to the server it came from", async () => {
    const list = (await (await fetch(`${area.server.url}/api/downloads`)).json()) as {
      downloads: { platform: string; url: string; fileName: string; bytes: number; sha256: string }[];
    };
    const linux = list.downloads.find((download) => download.platform === "linux");
    expect(linux).toBeDefined();
    // As a browser asks for it: brotli, decoded before saving; the listed size and SHA-256 are the saved file's.
    const response = await fetch(`${area.server.url}${linux!.url}`, { headers: { "Accept-Encoding": "br" } });
    expect(response.headers.get("content-encoding")).toBe("br");
    const saved = Buffer.from(await response.arrayBuffer());
    expect(saved.length).toBe(linux!.bytes);
    expect(createHash("sha256").update(saved).digest("hex")).toBe(linux!.sha256);
    const file = path.join(downloads, linux!.fileName);
    writeFileSync(file, saved);
    chmodSync(file, 0o755); // What the panel tells Linux customers to do.

    // No --server: the address is the one this server wrote into the download.
    const app = startTerminalApp(file, [], display.display);
    apps.push(app.child);
    await expect.poll(app.output, { timeout: 20_000 }).toMatch(/Votre prénom :/u);
    app.press("Lucie"); // A first name: a new session on the server, whose code the app shows.
    await expect.poll(app.output, { timeout: 20_000 }).toMatch(/Donnez ce code au technicien/u);
    expect(app.output()).toContain(`Serveur : ${area.server.url}`);
    app.child.kill("SIGINT");
    await expect.poll(() => app.child.exitCode, { timeout: 15_000 }).toBe(0);
  });

  test("pairs with the customer's session, and the technician clicks and types into an X application", async ({
    browser,
  }) => {
    const customer = await newPage(browser);
    await signUpCustomer(customer, "Bernadette Lemoine");
    // The download panel offers the build, served by our server, with its size and SHA-256.
    const download = customer.getByRole("link", { name: /^Télécharger pour Linux/u });
    await expect(download).toBeVisible();
    await expect(customer.getByText(/SHA-256 : [0-9a-f]{64}/u).first()).toBeVisible();
    const code = await startSession(customer);
    await customer.getByRole("button", { name: "Partager mon écran" }).click();
    await expect(customer.getByRole("heading", { name: "Partage d'écran" })).toBeVisible();
    await customer.getByRole("button", { name: "Afficher un code d'appairage" }).click();
    const pairingCode = (await customer.getByTestId("pairing-code").textContent())!.trim();
    expect(pairingCode).toMatch(/^[ACDEFGHJKMNPQRTUVWXY34679]{4}-[ACDEFGHJKMNPQRTUVWXY34679]{4}$/u);

    const app = runApp(pairingCode);
    await expect(customer.getByText(/^Logiciel connecté — /u)).toBeVisible({ timeout: 20_000 });

    const tech = await newPage(browser);
    await signIn(tech, TECH);
    await join(tech, code);
    const remote = tech.getByRole("dialog", { name: "Contrôle à distance" });
    await expect(remote.getByText(/^Logiciel connecté — /u)).toBeVisible({ timeout: 15_000 });
    await expect(tech.getByTestId("remote-video")).toHaveJSProperty("videoWidth", SCREEN.width, { timeout: 15_000 });

    await remote.getByRole("button", { name: "Envoyer souris et clavier" }).click();
    await expect(customer.getByText("Le technicien demande à prendre le contrôle de votre ordinateur.")).toBeVisible();
    await customer.getByRole("button", { name: "Autoriser le contrôle" }).click();
    await expect(remote.getByText(/^Contrôle actif/u)).toBeVisible();
    await expect(customer.getByText("Le technicien contrôle votre ordinateur (souris et clavier).")).toBeVisible();
    expect(await violations(customer)).toEqual([]);
    expect(await violations(tech)).toEqual([]);
    await xApp.clear();

    // A click at 40 % × 60 % of the picture is a click at (768, 648) on the X screen.
    const target = await pointOnPicture(tech, 0.4, 0.6);
    await tech.mouse.click(target.x, target.y);
    await expect.poll(async () => (await xApp.log()).buttons.length).toBe(2);
    const [down, up] = (await xApp.log()).buttons;
    expect(down).toMatchObject({ type: "down", button: 0 });
    expect(up).toMatchObject({ type: "up", button: 0 });
    expect(Math.abs(down!.x - 0.4 * SCREEN.width)).toBeLessThanOrEqual(2);
    expect(Math.abs(down!.y - 0.6 * SCREEN.height)).toBeLessThanOrEqual(2);

    // Typed as a technician types, one key at a time; é, à and ç from a French keyboard's digit row.
    await typeOnFrenchKeyboard(tech, "Bonjour 123 éàç");
    await expect.poll(async () => (await xApp.log()).text).toBe("Bonjour 123 éàç");

    // Toggle off: nothing reaches the X application.
    await remote.getByRole("button", { name: "Envoyer souris et clavier" }).click();
    await expect(remote.getByText(/^Contrôle actif/u)).toHaveCount(0);
    await tech.getByRole("application", { name: "Écran du client" }).focus();
    await tech.keyboard.press("x");
    await tech.mouse.click(target.x, target.y);

    // Back on, but the customer takes control back: nothing either.
    await remote.getByRole("button", { name: "Envoyer souris et clavier" }).click();
    await expect(remote.getByText(/^Contrôle actif/u)).toBeVisible();
    await customer.getByRole("button", { name: "Reprendre la main" }).click();
    await expect(remote.getByText(/^Contrôle actif/u)).toHaveCount(0);
    await tech.getByRole("application", { name: "Écran du client" }).focus();
    await tech.keyboard.press("y");
    // Give a stray event time to arrive before saying none did.
    await tech.waitForTimeout(1_000);
    expect(await xApp.log()).toMatchObject({ text: "Bonjour 123 éàç" });
    expect((await xApp.log()).buttons).toHaveLength(2);

    // Allowed again, a drag starts, and the technician's browser closes mid-drag: the button is released.
    await customer.getByRole("button", { name: "Autoriser le contrôle" }).click();
    await expect(remote.getByText(/^Contrôle actif/u)).toBeVisible();
    await tech.mouse.move(target.x, target.y);
    await tech.mouse.down();
    await expect.poll(async () => (await xApp.log()).buttons.length).toBe(3);
    await tech.context().close();
    await expect.poll(async () => (await xApp.log()).buttons.map((b) => b.type)).toEqual(["down", "up", "down", "up"]);

    // Issue 26: Ctrl+C in the app returns the page to "no app" at once, with a new pairing code on offer.
    app.child.kill("SIGINT");
    await expect.poll(() => app.child.exitCode, { timeout: 15_000 }).toBe(0);
    await expect(customer.getByText("Logiciel de contrôle : non connecté.")).toBeVisible({ timeout: 5_000 });
    await customer.getByRole("button", { name: "Afficher un code d'appairage" }).click();
    const again = runApp((await customer.getByTestId("pairing-code").textContent())!.trim());
    await expect(customer.getByText(/^Logiciel connecté — /u)).toBeVisible({ timeout: 20_000 });

    // The session ends: the app says so and exits by itself.
    await customer.getByRole("button", { name: "Terminer la session" }).click();
    await expect.poll(() => again.child.exitCode, { timeout: 15_000 }).toBe(0);
    expect(again.output()).toMatch(/session est terminée/u);
  });
});
