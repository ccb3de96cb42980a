/**
 * Issue 26 end to end: the desktop app, built for Linux as a customer
 * downloads it, is the one thing the customer runs. On an X display with two
 * monitors (Xephyr, Xinerama, nested in Xvfb) it starts a session without an
 * account, prints its code; the technician joins with the usual form and
 * sees the app's own picture of the screen (no browser share, no fake
 * capture): a blue xterm with a line of text on the first monitor at a known
 * place, then the second monitor, where a recording X application gets the
 * technician's click at the right pixel and his typing, which then shows in
 * the picture. With "voir l'écran" withdrawn in the app, no frame reaches the
 * technician. Stopping the app ends its session.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { expect, test, type Page } from "@playwright/test";
import {
  join,
  newPage,
  signIn,
  startAreaServer,
  violations,
  type AreaServer,
} from "#tests/support/soft-assist-pages.ts";
import { openXApp, startTwoMonitors, startXvfb, type XApp, type XDisplay } from "#tests/support/xvfb.ts";
import { buildLinuxApp, startTerminalApp, typeOnFrenchKeyboard } from "#tests/support/desktop-app.ts";
import { canvasPixel } from "#tests/support/app-picture-probes.ts";

const suffix = Math.random().toString(36).slice(2, 8);
const TECH = { email: `tech-image-${suffix}@exemple.fr`, name: "Jean Technicien", password: "motdepasse-jean-tech" };
const FIRST = { width: 1280, height: 720 };
const SECOND = { width: 1024, height: 768 };
/** The xterm on the first monitor: its top-left corner, px, and its background. */
const XTERM = { x: 100, y: 100, background: [0x1e, 0x50, 0xc8] as const };

let area: AreaServer;
let host: XDisplay;
let display: XDisplay;
let xApp: XApp;
let xterm: ChildProcess;
let appBinary: string;
const children: ChildProcess[] = [];

test.describe.configure({ mode: "serial", timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  appBinary = buildLinuxApp();
  area = await startAreaServer("desktop-picture", [TECH]);
  host = await startXvfb(FIRST.width + SECOND.width, Math.max(FIRST.height, SECOND.height));
  display = await startTwoMonitors(host, [FIRST, SECOND]);
  const env = { ...process.env, DISPLAY: display.display };
  xterm = spawn(
    "/usr/bin/xterm",
    [
      "-geometry",
      `40x6+${XTERM.x}+${XTERM.y}`,
      "-bg",
      "#1e50c8",
      "-fg",
      "white",
      "-e",
      "sh",
      "-c",
      "echo Atelier; sleep 600",
    ],
    { env, stdio: "ignore" },
  );
  children.push(xterm);
  xApp = await openXApp(display, { x: FIRST.width, y: 0, ...SECOND });
});

test.afterAll(async () => {
  for (const child of children) child.kill("SIGTERM");
  await xApp?.close();
  await display?.stop();
  await host?.stop();
  await area?.stop();
});

/** Starts the built app with no argument (a pipe for stdin: keys are read a line at a time). */
function runApp() {
  const app = startTerminalApp(appBinary, ["--server", area.server.url], display.display);
  children.push(app.child);
  return app;
}

/** The darkest and lightest luminance in a rectangle of the canvas. */
function canvasRange(page: Page, x: number, y: number, w: number, h: number): Promise<{ min: number; max: number }> {
  return page.getByTestId("app-screen").evaluate(
    (canvas, [rx, ry, rw, rh]) => {
      const data = (canvas as HTMLCanvasElement).getContext("2d")!.getImageData(rx!, ry!, rw!, rh!).data;
      let min = 255;
      let max = 0;
      for (let i = 0; i < data.length; i += 4) {
        const luminance = 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
        min = Math.min(min, luminance);
        max = Math.max(max, luminance);
      }
      return { min, max };
    },
    [x, y, w, h],
  );
}

const near = (actual: number[], expected: readonly number[], tolerance = 40) =>
  actual.every((value, index) => Math.abs(value - expected[index]!) <= tolerance);

test.describe("the app's own picture", { tag: "@desktop" }, () => {
  test("a session started from the app: the technician sees both monitors and uses the second", async ({ browser }) => {
    const app = runApp();
    await expect.poll(app.output, { timeout: 20_000 }).toContain("Votre prénom :");
    app.child.stdin.write("Marie\n");
    await expect.poll(app.output, { timeout: 20_000 }).toMatch(/Code de session : [A-Z0-9]{3} [A-Z0-9]{3}/u);
    const code = /Code de session : ([A-Z0-9]{3}) ([A-Z0-9]{3})/u.exec(app.output())!.slice(1).join("");
    expect(app.output()).toContain("Donnez ce code au technicien");

    const tech = await newPage(browser, area.server.url);
    let framesSeen = 0;
    tech.on("websocket", (socket) =>
      socket.on("framereceived", ({ payload }) => {
        if (typeof payload === "string" && payload.includes('"screen:frame"')) framesSeen += 1;
      }),
    );
    await signIn(tech, TECH);
    await join(tech, code);
    const remote = tech.getByRole("dialog", { name: "Contrôle à distance" });
    await expect(remote.getByText(/Marie/u).first()).toBeVisible({ timeout: 15_000 });
    await expect(remote.getByText(/^Logiciel connecté — /u)).toBeVisible({ timeout: 15_000 });
    await expect(
      remote.getByText("Le client n'a pas encore autorisé l'affichage de son écran dans le logiciel."),
    ).toBeVisible();
    expect(framesSeen).toBe(0);

    // The customer allows the technician to see the screen, in the app.
    await expect.poll(app.output).toContain("V : autoriser le technicien à voir l'écran.");
    app.press("v");
    await expect(tech.getByTestId("app-screen")).toHaveJSProperty("width", FIRST.width, { timeout: 15_000 });
    await expect.poll(app.output).toContain("Jean, technicien, voit votre écran.");
    // The xterm's background where nothing is written, and its line of white text.
    await expect
      .poll(async () => near(await canvasPixel(tech, XTERM.x + 200, XTERM.y + 60), XTERM.background))
      .toBe(true);
    expect((await canvasRange(tech, XTERM.x, XTERM.y, 80, 20)).max).toBeGreaterThan(200);
    expect(await violations(tech)).toEqual([]);

    // The second monitor, then control allowed in the app.
    await remote.getByLabel("Écran affiché").selectOption({ label: `Écran 2 — ${SECOND.width} × ${SECOND.height}` });
    await expect(tech.getByTestId("app-screen")).toHaveJSProperty("width", SECOND.width, { timeout: 15_000 });
    // As a customer would: C once the app says the technician asks for control.
    const toggle = remote.getByRole("button", { name: "Envoyer souris et clavier" });
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-pressed", "true");
    await expect.poll(app.output, { timeout: 15_000 }).toContain("Le technicien demande la main");
    app.press("c");
    await expect(remote.getByText(/^Contrôle actif/u)).toBeVisible({ timeout: 15_000 });
    await xApp.clear();

    // A click at 40 % × 60 % of the second monitor's picture.
    const canvas = (await tech.getByTestId("app-screen").boundingBox())!;
    const scale = Math.min(canvas.width / SECOND.width, canvas.height / SECOND.height);
    const left = canvas.x + (canvas.width - SECOND.width * scale) / 2;
    const top = canvas.y + (canvas.height - SECOND.height * scale) / 2;
    await tech.mouse.click(left + 0.4 * SECOND.width * scale, top + 0.6 * SECOND.height * scale);
    await expect.poll(async () => (await xApp.log()).buttons.length).toBe(2);
    const [down] = (await xApp.log()).buttons;
    expect(Math.abs(down!.x - (FIRST.width + 0.4 * SECOND.width))).toBeLessThanOrEqual(3);
    expect(Math.abs(down!.y - 0.6 * SECOND.height)).toBeLessThanOrEqual(3);

    // Typing reaches the X application, and the text shows in the picture.
    const textTop = await xApp.page.evaluate(
      () => window.screenY + window.outerHeight - window.innerHeight + document.querySelector("textarea")!.offsetTop,
    );
    const before = await canvasRange(tech, 4, textTop + 2, 140, 20);
    await typeOnFrenchKeyboard(tech, "Bonjour 123 éàç");
    await expect.poll(async () => (await xApp.log()).text).toBe("Bonjour 123 éàç");
    expect(before.min).toBeGreaterThan(200);
    await expect.poll(async () => (await canvasRange(tech, 4, textTop + 2, 140, 20)).min).toBeLessThan(120);

    // Seeing withdrawn in the app: the picture stops; a change on the screen sends nothing.
    app.press("v");
    await expect(
      remote.getByText("Le client n'a pas encore autorisé l'affichage de son écran dans le logiciel."),
    ).toBeVisible({ timeout: 15_000 });
    const framesBefore = framesSeen;
    await xApp.page.keyboard.type(" encore");
    await tech.waitForTimeout(1_500);
    expect(framesSeen).toBe(framesBefore);

    // Stopping the app ends the session it started.
    app.child.kill("SIGTERM");
    await expect.poll(() => app.child.exitCode, { timeout: 15_000 }).toBe(0);
    await expect(remote).toBeHidden({ timeout: 15_000 });
  });
});
