/**
 * Issue 27 end to end: copy–paste between the technician's browser and the customer's computer, through the
 * server and the desktop app built for Linux as a customer downloads it, on an Xvfb display whose X application
 * (a Chromium window with a text area, `tests/support/xvfb.ts`) is the customer's program. The app's X11
 * clipboard talks to that real X program: it pastes what the app put on the clipboard and copies what the app
 * then reads. Before control is allowed neither way works (no « Coller chez le client », key P refused), and
 * after the customer takes control back neither works again.
 */
import type { ChildProcess } from "node:child_process";
import { expect, test } from "@playwright/test";
import {
  join,
  newPage,
  signIn,
  startAreaServer,
  violations,
  type AreaServer,
} from "#tests/support/soft-assist-pages.ts";
import { openXApp, startXvfb, type XApp, type XDisplay } from "#tests/support/xvfb.ts";
import { buildLinuxApp, startTerminalApp } from "#tests/support/desktop-app.ts";

const suffix = Math.random().toString(36).slice(2, 8);
const TECH = { email: `tech-clip-${suffix}@exemple.fr`, name: "Jean Technicien", password: "motdepasse-jean-clip" };
const SCREEN = { width: 1280, height: 720 };
const TEXT = "Œuvre « test » — 123 €";
const NOT_ALLOWED = "Le presse-papiers ne peut être échangé que pendant le contrôle autorisé par le client.";

let area: AreaServer;
let display: XDisplay;
let xApp: XApp;
let appBinary: string;
const children: ChildProcess[] = [];

test.describe.configure({ mode: "serial", timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  appBinary = buildLinuxApp();
  area = await startAreaServer("desktop-clipboard", [TECH]);
  display = await startXvfb(SCREEN.width, SCREEN.height);
  xApp = await openXApp(display);
});

test.afterAll(async () => {
  for (const child of children) child.kill("SIGTERM");
  await xApp?.close();
  await display?.stop();
  await area?.stop();
});

/** Starts the built app in its terminal interface (stdin a pipe: a key is a letter and Entrée). */
function runApp() {
  const app = startTerminalApp(appBinary, ["--server", area.server.url], display.display);
  children.push(app.child);
  return {
    ...app,
    /** Everything printed, lines joined (the terminal wraps long notices). */
    output: () => app.output().replace(/\s+/g, " "),
    /** The last screen the app drew (it redraws the whole view on every change). */
    screen: () => {
      const all = app.output().replace(/\s+/g, " ");
      return all.slice(all.lastIndexOf("Assistance à distance de l'Atelier"));
    },
  };
}

test.describe("copy–paste with the desktop app", { tag: "@desktop" }, () => {
  test("a round trip of the clipboard, only while control is allowed", async ({ browser }) => {
    const app = runApp();
    await expect.poll(app.output, { timeout: 20_000 }).toContain("Votre prénom :");
    app.child.stdin.write("Marie\n");
    await expect.poll(app.output, { timeout: 20_000 }).toMatch(/Code de session : [A-Z0-9]{3} [A-Z0-9]{3}/u);
    const code = /Code de session : ([A-Z0-9]{3}) ([A-Z0-9]{3})/u.exec(app.output())!.slice(1).join("");

    const tech = await newPage(browser, area.server.url);
    await tech.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: area.server.url });
    await signIn(tech, TECH);
    await join(tech, code);
    const remote = tech.getByRole("dialog", { name: "Contrôle à distance" });
    await expect(remote.getByText(/^Logiciel connecté — /u)).toBeVisible({ timeout: 15_000 });
    app.press("v");
    await expect(tech.getByTestId("app-screen")).toHaveJSProperty("width", SCREEN.width, { timeout: 15_000 });

    // Before control is allowed: no paste action for the technician, and the app refuses P.
    const pasteButton = remote.getByRole("button", { name: "Coller chez le client" });
    await expect(pasteButton).toHaveCount(0);
    app.press("p");
    await expect.poll(app.output).toContain(NOT_ALLOWED);
    const toggle = remote.getByRole("button", { name: "Envoyer souris et clavier" });
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-pressed", "true");
    await expect(pasteButton).toHaveCount(0);

    await expect.poll(app.output, { timeout: 15_000 }).toContain("Le technicien demande la main");
    app.press("c");
    await expect(remote.getByText(/^Contrôle actif/u)).toBeVisible({ timeout: 15_000 });
    await expect.poll(app.output).toContain("P : envoyer au technicien le texte copié (presse-papiers).");
    // A click in the customer's text area puts the cursor there.
    const canvas = (await tech.getByTestId("app-screen").boundingBox())!;
    await xApp.clear();
    await tech.mouse.click(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2);
    await expect.poll(async () => (await xApp.log()).buttons.length).toBe(2);

    // Technician → customer: copied in the technician's browser, pasted into the customer's program.
    await tech.evaluate((text) => navigator.clipboard.writeText(text), TEXT);
    await pasteButton.click();
    await expect(
      remote.getByRole("status").filter({ hasText: "Texte collé chez le client (22 caractères)." }),
    ).toBeVisible();
    await expect.poll(async () => (await xApp.log()).text).toBe(TEXT);
    await expect.poll(app.output).toContain("Le technicien a collé un texte de son presse-papiers (22 caractères).");
    expect(await violations(tech)).toEqual([]);

    // Customer → technician: copied in the customer's program, sent with P, copied by the technician.
    await tech.evaluate(() => navigator.clipboard.writeText("autre chose"));
    await xApp.page.locator("textarea").fill(`${TEXT} !`);
    await xApp.page.locator("textarea").selectText();
    await xApp.page.keyboard.press("Control+C");
    app.press("p");
    await expect.poll(app.output).toContain("Presse-papiers envoyé au technicien (24 caractères).");
    const received = remote.getByRole("textbox", { name: /^Reçu du client \(Marie\)/u });
    await expect(received).toHaveValue(`${TEXT} !`);
    await remote.getByRole("button", { name: "Copier" }).click();
    await expect(remote.getByText("Texte copié dans votre presse-papiers.")).toBeVisible();
    expect(await tech.evaluate(() => navigator.clipboard.readText())).toBe(`${TEXT} !`);
    expect(await violations(tech)).toEqual([]);

    // The customer takes control back: the action is gone and P is refused again.
    app.press("r");
    await expect(remote.getByText(/^Contrôle actif/u)).toHaveCount(0, { timeout: 15_000 });
    await expect(pasteButton).toHaveCount(0);
    app.press("p");
    // The newest notice (below the previous ones) is the refusal.
    await expect
      .poll(() => app.screen().lastIndexOf(NOT_ALLOWED) > app.screen().indexOf("Presse-papiers envoyé au technicien"))
      .toBe(true);
    await expect.poll(app.screen).not.toContain("P : envoyer au technicien");

    app.child.kill("SIGTERM");
    await expect.poll(() => app.child.exitCode, { timeout: 15_000 }).toBe(0);
  });
});
