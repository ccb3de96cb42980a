/**
 * A real X display for the desktop app's tests (issue 15): Debian's Xvfb on
 * a free display number, and on it a real X application that records what
 * reaches it — a headful Chromium window covering the whole screen, with one
 * text area, logging every pointer button (screen px) and its text.
 *
 * `startXvfb` throws when Xvfb is missing (`apt-get install xvfb`; `.ci/run`
 * installs it): a test that cannot reach an X server must fail, not pass.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "@playwright/test";

export type XDisplay = { display: string; width: number; height: number; stop(): Promise<void> };

const XVFB = "/usr/bin/Xvfb";

/** Starts Xvfb at `width` × `height` px (24-bit) on the first free display from :90. */
export async function startXvfb(width: number, height: number): Promise<XDisplay> {
  if (!existsSync(XVFB)) throw new Error(`${XVFB} introuvable : installez le paquet Debian xvfb.`);
  for (let number = 90 + Math.floor(Math.random() * 50); number < 400; number++) {
    if (existsSync(`/tmp/.X11-unix/X${number}`) || existsSync(`/tmp/.X${number}-lock`)) continue;
    const child = spawn(XVFB, [`:${number}`, "-screen", "0", `${width}x${height}x24`, "-nolisten", "tcp"], {
      stdio: "ignore",
    });
    const up = await waitFor(() => existsSync(`/tmp/.X11-unix/X${number}`), child, 10_000);
    if (!up) {
      child.kill("SIGKILL");
      continue;
    }
    return {
      display: `:${number}`,
      width,
      height,
      stop: () => stopChild(child),
    };
  }
  throw new Error("Aucun numéro d'affichage X libre.");
}

const XEPHYR = "/usr/bin/Xephyr";

/**
 * Issue 26: an X display with two monitors side by side, `screens` (px), as a Xinerama layout: Xephyr nested in
 * `host` (an Xvfb display at least as large). Xvfb alone cannot: its Xinerama puts every head at 0,0, and it ignores
 * `xrandr --setmonitor`. Throws when Xephyr is missing (`apt-get install xserver-xephyr`; `.ci/run` installs it).
 */
export async function startTwoMonitors(
  host: XDisplay,
  screens: readonly [{ width: number; height: number }, { width: number; height: number }],
): Promise<XDisplay> {
  if (!existsSync(XEPHYR)) throw new Error(`${XEPHYR} introuvable : installez le paquet Debian xserver-xephyr.`);
  const width = screens[0].width + screens[1].width;
  const height = Math.max(screens[0].height, screens[1].height);
  for (let number = 400 + Math.floor(Math.random() * 100); number < 700; number++) {
    if (existsSync(`/tmp/.X11-unix/X${number}`) || existsSync(`/tmp/.X${number}-lock`)) continue;
    const args = [`:${number}`, ...screens.flatMap((s) => ["-screen", `${s.width}x${s.height}`]), "+xinerama"];
    const child = spawn(XEPHYR, [...args, "-nolisten", "tcp", "-noreset"], {
      stdio: "ignore",
      env: { ...process.env, DISPLAY: host.display },
    });
    const up = await waitFor(() => existsSync(`/tmp/.X11-unix/X${number}`), child, 10_000);
    if (!up) {
      child.kill("SIGKILL");
      continue;
    }
    return { display: `:${number}`, width, height, stop: () => stopChild(child) };
  }
  throw new Error("Aucun numéro d'affichage X libre pour Xephyr.");
}

async function waitFor(check: () => boolean, child: ChildProcess, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return false;
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 3_000).unref();
  });
}

/** What the X application received. `buttons`: each press or release, at screen px. */
export type XAppLog = {
  text: string;
  buttons: { type: "down" | "up"; button: number; x: number; y: number }[];
};

export type XApp = { page: Page; log(): Promise<XAppLog>; clear(): Promise<void>; close(): Promise<void> };

const TARGET_PAGE = `<!doctype html><html lang="fr"><title>Cible</title>
<style>html,body{margin:0;height:100%;background:#fff}textarea{position:absolute;inset:0;width:100%;height:100%;border:0;font:20px monospace}</style>
<textarea aria-label="Zone de texte"></textarea>
<script>
  window.__log = { buttons: [] };
  const area = document.querySelector("textarea");
  for (const type of ["pointerdown", "pointerup"]) {
    area.addEventListener(type, (e) => window.__log.buttons.push({ type: type === "pointerdown" ? "down" : "up", button: e.button, x: e.screenX, y: e.screenY }));
  }
</script></html>`;

/**
 * Opens the recording X application on `display`: Chromium in kiosk mode
 * (no window manager on Xvfb: the window sits at 0,0 and fills the screen,
 * or fills `area`, e.g. one monitor of `startTwoMonitors`).
 */
export async function openXApp(
  display: XDisplay,
  area: { x: number; y: number; width: number; height: number } = {
    x: 0,
    y: 0,
    width: display.width,
    height: display.height,
  },
): Promise<XApp> {
  const browser: Browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: false,
    env: { ...process.env, DISPLAY: display.display, WAYLAND_DISPLAY: "", XDG_SESSION_TYPE: "x11" },
    args: [
      "--kiosk",
      `--window-position=${area.x},${area.y}`,
      `--window-size=${area.width},${area.height}`,
      "--force-device-scale-factor=1",
      "--no-first-run",
      "--disable-gpu",
    ],
  });
  // The real window, not an emulated viewport (the test project's device settings would apply otherwise).
  const context = await browser.newContext({
    viewport: null,
    deviceScaleFactor: undefined,
    isMobile: undefined,
    hasTouch: undefined,
  });
  const page = await context.newPage();
  await page.setContent(TARGET_PAGE);
  return {
    page,
    log: () =>
      page.evaluate(() => {
        const log = (window as unknown as { __log: { buttons: XAppLog["buttons"] } }).__log;
        return { text: document.querySelector("textarea")!.value, buttons: [...log.buttons] };
      }),
    clear: () =>
      page.evaluate(() => {
        (window as unknown as { __log: { buttons: unknown[] } }).__log.buttons = [];
        document.querySelector("textarea")!.value = "";
      }),
    close: () => browser.close(),
  };
}
