/**
 * End-to-end tests in Debian's Chromium (/usr/bin/chromium; Playwright cannot
 * download browsers here). The built site is served by `server/index.ts` (bundled: `build/atelier-server.mjs`) on
 * 127.0.0.1 and a free port chosen once here; workers inherit it through the
 * environment. Playwright stops the server at the end (SIGTERM), and the run's
 * data folder goes with the runner.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

if (!process.env.E2E_PORT) {
  process.env.E2E_PORT = execFileSync(process.execPath, [
    "-e",
    "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
  ]).toString();
}
const port = Number(process.env.E2E_PORT);
// The e2e server's own data (its embedded PostgreSQL), fresh for each run; workers inherit the path like the
// port. The process that made it (the runner, never a worker) removes it on exit, after Playwright has
// stopped the server: 41 MB a run were left in /tmp.
if (!process.env.E2E_DATA_DIR) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "atelier-e2e-data-"));
  process.env.E2E_DATA_DIR = dataDir;
  process.on("exit", () => rmSync(dataDir, { recursive: true, force: true }));
}
export const baseURL = `http://127.0.0.1:${port}`;
/** The specs of the desktop app on X displays (issues 15, 26). */
const DESKTOP_APP_SPECS = /desktop-app.*\.spec\.ts$/;

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    // WebRTC (issue 6): the screen picker and camera answered by fake devices (a 1280×720 test pattern),
    // and peer connections allowed on loopback.
    "--use-fake-ui-for-media-stream",
    // 5 frames a second instead of 20: the fake screen is a test pattern, and encoding it at 20 fps in VP8 kept a
    // core busy for as long as a session lasted (issue 30 §3).
    "--use-fake-device-for-media-stream=fps=5",
    "--allow-loopback-in-peer-connection",
  ],
};

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  forbidOnly: true,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL,
    locale: "fr-FR",
    timezoneId: "Europe/Paris",
    // CI keeps only its printed log, so a trace there is recorded for nobody: ~20 % of the suite's CPU (issue 30 §3).
    trace: process.env.CI ? "off" : "retain-on-failure",
    // The particle background redraws a full-screen canvas every frame: a whole core per open page in headless
    // Chromium without a GPU, which starved every other test on 2 cores (issue 30 §3). Pages are tested still, as
    // visitors who ask for reduced motion see them; decor.spec.ts tests the animation itself.
    reducedMotion: "reduce",
    launchOptions: chromium,
  },
  projects: [
    // Tests tagged @mobile / @desktop only make sense at one width.
    {
      name: "desktop",
      grepInvert: /@mobile/,
      testIgnore: DESKTOP_APP_SPECS,
      use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 }, launchOptions: chromium },
    },
    {
      name: "mobile",
      grepInvert: /@desktop/,
      testIgnore: DESKTOP_APP_SPECS,
      use: { ...devices["Pixel 7"], launchOptions: chromium },
    },
    // The desktop app on X displays runs headful Chromium windows (the X applications), Xephyr and the app's
    // capture: on 2 cores, beside the other specs, it slowed them past their timeouts. It runs once they are done.
    {
      name: "desktop-app",
      testMatch: DESKTOP_APP_SPECS,
      dependencies: ["desktop", "mobile"],
      use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 }, launchOptions: chromium },
    },
  ],
  globalSetup: "./tests/support/playwright-global-setup.ts",
  webServer: {
    // The server as `npm start` runs it: bundled (docs/decisions/027), made by `npm run test:e2e` first.
    command: "node build/atelier-server.mjs",
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    // SIGTERM, not the default SIGKILL: the server then stops its embedded PostgreSQL, which a SIGKILL
    // left running (its own process group) after every run.
    gracefulShutdown: { signal: "SIGTERM", timeout: 20_000 },
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      NODE_ENV: "production",
      DATA_DIR: process.env.E2E_DATA_DIR,
      // The origin the browser reaches, the only one the server trusts (issue 13 §9), and the one of the
      // pages' canonical URLs (filled in at run time since issue 29).
      PUBLIC_URL: baseURL,
      // Every form test comes from 127.0.0.1: the per-IP limit is tested in Vitest instead.
      FORM_RATE_LIMIT: "100000",
      ICE_STUN_URLS: "none",
    },
  },
});
