/**
 * Issue 27, "The window", on a real X display (Xvfb, no window manager): the
 * app runs in this process against the fake server with its real window —
 * the window process (`--fenetre`, Bun from node_modules, WebKitGTK 6) — and
 * is driven the way a customer would, through XTest (xdotool): the first
 * name typed into the form, « Autoriser le contrôle » clicked, the window
 * closed with its ×; issue 40: « Arrêter l'assistance » inside the window's 460 × 600 at every step, and the
 * pairing code typed after « J'ai un code d'appairage ». Screenshots of each step go to
 * `test-results/desktop-window/` and are attached to the test. When the
 * webview library is missing, zenity's dialogs take over (then the terminal).
 * Fails, never skips, when Xvfb, xdotool, zenity or WebKitGTK is missing.
 */
import { EventEmitter } from "node:events";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, type TestContext } from "vitest";
import { DeviceSessionBody } from "#app/remote-support/device-protocol.ts";
import { recordingInjector } from "../../test/fakes.ts";
import { type FakeServer, STATE, startFakeServer } from "../../test/fake-server.ts";
import { screenshot } from "../../test/screenshot.ts";
import { clickAt, closeWindow, findWindow, typeInto, windowOrigin } from "../../test/x-windows.ts";
import { startXvfb, type Xvfb } from "../../test/xvfb.ts";
import { type AppDeps, runApp } from "../app.ts";
import type { PictureSource } from "../connection.ts";
import { windowCommand } from "../launcher.ts";
import { makeImage } from "../capture/test-images.ts";
import { type ChooseContext, openView } from "./choose.ts";
import { APP_NAME } from "../version.ts";
import type { AppView } from "./view.ts";
import { WindowAppView } from "./window.ts";
import { WEBVIEW_LIBRARY_ENV, WINDOW_FLAG, type WindowEvent } from "./window-state.ts";
import { ZENITY_TITLES } from "./zenity.ts";

const ARTIFACTS = path.resolve(import.meta.dirname, "../../../test-results/desktop-window");
const MAIN = path.resolve(import.meta.dirname, "../main.ts");
const SCREEN = { width: 800, height: 700 };
/** The window's size (`window-child.ts`), CSS pixels. */
const WINDOW = { width: 460, height: 600 };

/** Issue 40: the button of `action` lies whole inside the window (not below its fold). */
function expectInWindow(event: Extract<WindowEvent, { type: "drawn" }>, action: string): void {
  const button = event.buttons.find((candidate) => candidate.action === action);
  expect(button, `bouton ${action}`).toBeDefined();
  expect(button!.y).toBeGreaterThanOrEqual(0);
  expect(button!.y + button!.height).toBeLessThanOrEqual(WINDOW.height);
  expect(button!.x + button!.width).toBeLessThanOrEqual(WINDOW.width);
}

let display: Xvfb;
let server: FakeServer;
/** Apps still running when a test ends (it failed): stopped so that no window outlives its test. */
const running: { exit: Promise<number>; signals: EventEmitter }[] = [];
beforeAll(async () => {
  display = await startXvfb(SCREEN.width, SCREEN.height);
});
afterAll(async () => {
  await display?.stop();
});
beforeEach(async () => {
  server = await startFakeServer();
});
afterEach(async () => {
  for (const app of running.splice(0)) {
    app.signals.emit("SIGTERM");
    await Promise.race([app.exit, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  }
  await server.close();
});

function fakePicture(): PictureSource {
  const image = makeImage(640, 480, [90, 90, 90]);
  return {
    capturer: { status: () => ({ ok: true }), grab: () => image, close: () => {} },
    encoder: { status: () => ({ ok: true }), encode: () => new Uint8Array(100).fill(7), close: () => {} },
  };
}

/** Runs the app with `args` on the Xvfb display; `env` adds to the environment the interface is chosen in. */
function start(args: string[], env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const views: AppView[] = [];
  const events: WindowEvent[] = [];
  const environment = { ...process.env, DISPLAY: display.display, WAYLAND_DISPLAY: "", ...env };
  const stdin = Object.assign(new PassThrough(), { isTTY: false });
  const stdout = { write: (text: string) => out.push(text) };
  const choose: ChooseContext = {
    platform: "linux",
    env: environment,
    windowCommand: windowCommand(
      { execPath: process.execPath, argv: ["node", MAIN], env: environment },
      MAIN,
      WINDOW_FLAG,
    ),
    stdin,
    stdout,
    stderr: stdout,
  };
  const fake = recordingInjector();
  const signals = new EventEmitter();
  const deps: AppDeps = {
    args,
    defaultServer: server.url,
    stdin,
    stdout,
    stderr: stdout,
    createInjector: async () => fake.injector,
    createPicture: async () => fakePicture(),
    signals: signals as unknown as AppDeps["signals"],
    platform: "linux",
    openView: async (forced, hooks) => {
      const view = await openView(forced, choose, hooks);
      if (view instanceof WindowAppView) view.onEvent((event) => events.push(event));
      views.push(view);
      return view;
    },
  };
  const exit = runApp(deps);
  running.push({ exit, signals });
  /** The newest `drawn` event that satisfies `test`, waiting for it. */
  const drawn = (test: (event: Extract<WindowEvent, { type: "drawn" }>) => boolean, timeoutMs = 30_000) =>
    server.waitFor(
      () =>
        events.findLast((event) => event.type === "drawn" && test(event)) as Extract<WindowEvent, { type: "drawn" }>,
      timeoutMs,
    );
  return { exit, out, views, events, drawn, signals, text: () => out.join("") };
}

async function shoot(context: TestContext, name: string): Promise<void> {
  const file = await screenshot(display.display, SCREEN.width, SCREEN.height, path.join(ARTIFACTS, `${name}.png`));
  await context.annotate(`capture d'écran : ${name}`, { path: file, contentType: "image/png" });
}

describe("the window (webview)", () => {
  it(
    "asks the name, shows the code, takes « Autoriser le contrôle » by a click, and stops when closed",
    { timeout: 120_000 },
    async (context) => {
      const app = start(["--interface", "fenetre"]);
      const asking = await app.drawn((event) => event.asking);
      expect(app.views[0]?.kind).toBe("fenetre");
      const window = await findWindow(display.display, APP_NAME);
      await shoot(context, "1-question");

      await typeInto(display.display, window, "Marie", "Return");
      await server.waitFor(() => server.statuses.length === 1, 15_000);
      expect(DeviceSessionBody.parse(server.sessionBodies[0]).customerName).toBe("Marie");
      // Issue 40: « Démarrer », and the link to the pairing code's field.
      expect(asking.buttons.map((button) => button.action)).toEqual(["start", "field"]);

      server.socket()!.emit("device:state", { ...STATE, technicianName: null, consent: false, controlActive: false });
      const withCode = await app.drawn((event) => event.code !== null);
      expect(withCode.code).toBe("ACD EFG");
      // Issue 40: before a technician, « Arrêter l'assistance » alone, no « Autoriser… » to press.
      expect(withCode.buttons.map((candidate) => candidate.action)).toEqual(["stop"]);
      expectInWindow(withCode, "stop");
      await shoot(context, "2-code");

      // The technician joined and asks for control: the page offers « Autoriser le contrôle »; a real click allows it.
      server.socket()!.emit("device:state", { ...STATE, consent: false, controlActive: false, controlRequested: true });
      const offer = await app.drawn(
        (event) => event.code === null && event.buttons.some((button) => button.action === "control"),
      );
      expectInWindow(offer, "stop");
      const button = offer.buttons.find((candidate) => candidate.action === "control")!;
      const origin = await windowOrigin(display.display, window);
      await clickAt(display.display, origin.x + button.x + button.width / 2, origin.y + button.y + button.height / 2);
      await server.waitFor(() => server.consents.some((consent) => consent.allowed === true), 15_000);

      // Control active: the sign says so and « Reprendre la main » replaces the offer.
      server.socket()!.emit("device:state", { ...STATE, consent: true, controlActive: true });
      const controlled = await app.drawn((event) => event.sign !== null);
      expect(controlled.sign).toBe("Julien, technicien, contrôle votre souris et votre clavier.");
      expect(controlled.buttons.map((candidate) => candidate.action)).toEqual([
        "view",
        "withdraw",
        "clipboard",
        "stop",
      ]);
      // Issue 40: the sign, the messages and the four buttons fit: the stop button is still in view.
      expectInWindow(controlled, "stop");
      await shoot(context, "3-controle");

      // The × of the window: the app leaves the session at once (unpaired, control gone) and exits.
      await closeWindow(display.display, window);
      expect(await app.exit).toBe(0);
      expect(server.leaves).toBe(1);
    },
  );

  it(
    "pairs with the code typed after « J'ai un code d'appairage » (issue 40)",
    { timeout: 120_000 },
    async (context) => {
      const app = start(["--interface", "fenetre"]);
      const asking = await app.drawn((event) => event.asking);
      const window = await findWindow(display.display, APP_NAME);
      const link = asking.buttons.find((candidate) => candidate.action === "field")!;
      const origin = await windowOrigin(display.display, window);
      await clickAt(display.display, origin.x + link.x + link.width / 2, origin.y + link.y + link.height / 2);
      // The code's field took the focus: typed as read on the page, in lower case.
      await typeInto(display.display, window, "acde-3479", "Return");
      await server.waitFor(() => server.statuses.length === 1, 15_000);
      expect(server.pairBodies).toEqual([expect.objectContaining({ pairingCode: "ACDE3479" })]);
      expect(server.sessionBodies).toEqual([]);
      await shoot(context, "6-code-appairage");
      await closeWindow(display.display, window);
      expect(await app.exit).toBe(0);
    },
  );
});

describe("without the webview library", () => {
  it(
    "falls back to zenity's dialogs: the first question, then the consent to show the screen",
    { timeout: 120_000 },
    async (context) => {
      const app = start([], { [WEBVIEW_LIBRARY_ENV]: "/nulle-part/libwebview.so" });
      const question = await findWindow(display.display, ZENITY_TITLES.start);
      expect(app.views[0]?.kind).toBe("zenity");
      expect(app.text()).toMatch(
        /Fenêtre indisponible : La bibliothèque de fenêtre \(webview\) n'a pas pu être chargée/,
      );
      await shoot(context, "4-zenity-question");
      await typeInto(display.display, question, "Marie", "Return");
      // Issue 38 §4: « Envoyer les informations de l'ordinateur au technicien ? », « Envoyer » by default.
      await typeInto(display.display, await findWindow(display.display, ZENITY_TITLES.facts), "", "Return");
      await server.waitFor(() => server.statuses.length === 1, 15_000);
      expect(DeviceSessionBody.parse(server.sessionBodies[0]).customerName).toBe("Marie");

      server
        .socket()!
        .emit("device:state", { ...STATE, consent: false, controlActive: false, controlRequested: false });
      const consent = await findWindow(display.display, ZENITY_TITLES.view);
      await shoot(context, "5-zenity-ecran");
      // Entrée presses the default button, « Autoriser à voir l'écran ».
      await typeInto(display.display, consent, "", "Return");
      await server.waitFor(() => server.consents.some((body) => body.view === true), 15_000);

      const status = await findWindow(display.display, `^${ZENITY_TITLES.status}$`);
      await closeWindow(display.display, status);
      expect(await app.exit).toBe(0);
      expect(server.leaves).toBe(1);
    },
  );

  it("falls back to the terminal when zenity is missing too", { timeout: 60_000 }, async () => {
    const app = start(["--code", "ACDE-3479"], {
      [WEBVIEW_LIBRARY_ENV]: "/nulle-part/libwebview.so",
      PATH: "/nulle-part",
    });
    await server.waitFor(() => server.statuses.length === 1, 15_000);
    expect(app.views[0]?.kind).toBe("terminal");
    await server.waitFor(() => app.text().includes("Pour arrêter : Ctrl+C"));
    app.signals.emit("SIGTERM");
    expect(await app.exit).toBe(0);
    expect(server.leaves).toBe(1);
  });
});
