/**
 * Issue 26 "Figures": the desktop app's own picture, end to end on loopback,
 * 1920 × 1080. A production server (fresh data folder), the Linux build run
 * with no argument on an Xvfb display, the technician in Debian's Chromium.
 * An X application (a Chromium window, full screen on the display) provides
 * the changes: a colour toggled on demand, then a terminal-like scroll.
 *
 * Printed:
 * 1. join → first full picture drawn on the technician's canvas, ms (goal ≤ 500), `runs` joins;
 * 2. X screen change → canvas updated, p50 / p95, ms (goal p95 ≤ 100), `changes` samples;
 * 3. bytes a second on a still screen (goal ≤ 5 KB/s), 5 s;
 * 4. while the X application scrolls text (one line every 16 ms), 5 s: frames a second received by the
 *    technician (goal ≥ 15), bytes a second, the app's CPU (% of one core; goal ≤ 15 % at 10 frames a
 *    second) and RSS (goal ≤ 120 MB), the server's CPU for this one streamed session.
 *
 *   node bench/app-picture.ts [runs=5] [changes=30]
 * Needs Xvfb (package xvfb). Download sizes per target: `node bench/desktop-size.ts`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { signIn } from "#tests/support/remote-support.ts";
import { buildLinuxApp } from "#tests/support/desktop-app.ts";
import { openXApp, startXvfb } from "#tests/support/xvfb.ts";
import { CHROMIUM_ARGS, PASSWORD, SECRET, percentile, seedAccounts, signedInPage } from "./soft-assist-lib.ts";
import { ensureBuild, freePort, startServer, stop } from "./lib.ts";

const runs = Number(process.argv[2] ?? 5);
const changes = Number(process.argv[3] ?? 30);
const SCREEN = { width: 1920, height: 1080 };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ms = (values: number[]) =>
  `p50 ${percentile(values, 50).toFixed(0)} ms, p95 ${percentile(values, 95).toFixed(0)} ms (n=${values.length})`;

/** CPU time (user + system) of process `pid`, s. */
async function cpuSeconds(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
async function residentMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024;
}

/** Counts the technician's received frames and their bytes (the Socket.IO frames on the page's websocket). */
function countFrames(page: Page) {
  const counter = { frames: 0, bytes: 0 };
  page.on("websocket", (socket) =>
    socket.on("framereceived", ({ payload }) => {
      if (typeof payload === "string") {
        if (payload.includes('"screen:frame"')) counter.frames += 1;
      } else counter.bytes += payload.length;
    }),
  );
  return counter;
}

/** Waits, in the technician's page, until the canvas pixel at (x, y) is near `rgb`; resolves with the time (ms since the epoch). */
function whenPixel(page: Page, x: number, y: number, rgb: number[]): Promise<number> {
  return page.evaluate(
    ([px, py, wanted]) =>
      new Promise<number>((resolve) => {
        const check = () => {
          const canvas = document.querySelector<HTMLCanvasElement>("[data-testid=app-screen]");
          const data = canvas?.width ? canvas.getContext("2d")!.getImageData(px, py, 1, 1).data : null;
          if (data && (wanted as number[]).every((value, index) => Math.abs(value - data[index]!) < 40))
            return resolve(performance.timeOrigin + performance.now());
          requestAnimationFrame(check);
        };
        check();
      }),
    [x, y, rgb] as [number, number, number[]],
  );
}

ensureBuild();
const appBinary = buildLinuxApp();
const dataDir = await mkdtemp(path.join(tmpdir(), "atelier-bench-picture-"));
const technician = { email: "tech-image@banc.fr", name: "Technicien Image", technician: true };
await seedAccounts({ dataDir }, [technician]);
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const server = await startServer(port, { DATA_DIR: dataDir, BETTER_AUTH_SECRET: SECRET, LOG_LEVEL: "warn" });
const display = await startXvfb(SCREEN.width, SCREEN.height);
const xApp = await openXApp(display);
await xApp.page.setContent(
  `<!doctype html><html lang="fr"><body style="margin:0;background:#fff"><pre id="t" style="font:16px monospace;margin:0"></pre></body></html>`,
);
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
const apps: ChildProcess[] = [];

/** Starts the app with no argument, allows seeing the screen, and returns its session code. */
async function startApp(): Promise<{ child: ChildProcess; code: string }> {
  const child = spawn(appBinary, ["--server", url], {
    env: { ...process.env, DISPLAY: display.display, WAYLAND_DISPLAY: "", XDG_SESSION_TYPE: "x11" },
    stdio: ["pipe", "pipe", "inherit"],
  });
  apps.push(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stdin!.write("Banc\n");
  for (let waited = 0; !/Code de session : \w{3} \w{3}/u.test(output); waited += 50) {
    if (waited > 20_000) throw new Error(`pas de code de session :\n${output}`);
    await pause(50);
  }
  child.stdin!.write("v\n");
  const [, a, b] = /Code de session : (\w{3}) (\w{3})/u.exec(output)!;
  return { child, code: `${a}${b}` };
}

try {
  const cookie = await signIn(url, technician.email, PASSWORD);
  const page = await signedInPage(browser, url, { ...technician, cookie });
  const counter = countFrames(page);

  // 1. Join → first full picture.
  const joins: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const { child, code } = await startApp();
    await page.getByLabel("Code de session").fill(code);
    const clicked = performance.timeOrigin + performance.now();
    const drawn = page.waitForFunction(
      (width) => document.querySelector<HTMLCanvasElement>("[data-testid=app-screen]")?.width === width,
      SCREEN.width,
      { polling: "raf", timeout: 20_000 },
    );
    await page.getByRole("button", { name: "Se connecter", exact: true }).click();
    await drawn;
    joins.push(performance.timeOrigin + performance.now() - clicked);
    if (run < runs - 1) {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
      await page.goto("/soft-assist");
    }
  }
  const app = apps.at(-1)!;
  console.log(`join → first full picture on the canvas: ${ms(joins)}`);

  // 2. X change → canvas updated: the X application's background toggles between two colours.
  const latencies: number[] = [];
  const colours = [
    [200, 30, 30],
    [30, 160, 60],
  ];
  for (let sample = 0; sample < changes; sample += 1) {
    const colour = colours[sample % 2]!;
    const seen = whenPixel(page, 900, 700, colour);
    const changed = await xApp.page.evaluate((rgb) => {
      document.body.style.background = `rgb(${rgb.join(",")})`;
      return performance.timeOrigin + performance.now();
    }, colour);
    latencies.push((await seen) - changed);
    await pause(150);
  }
  console.log(`X screen change → technician's canvas updated: ${ms(latencies)}`);

  // 3. A still screen.
  await pause(1_000);
  let before = { ...counter };
  await pause(5_000);
  console.log(
    `still screen: ${((counter.bytes - before.bytes) / 5 / 1024).toFixed(2)} KB/s, ${(counter.frames - before.frames) / 5} frames/s`,
  );

  // 4. A scroll: one more line every 16 ms in the X application, for 5 s.
  await xApp.page.evaluate(() => {
    const pre = document.getElementById("t")!;
    let line = 0;
    (window as unknown as { scroller: number }).scroller = window.setInterval(() => {
      line += 1;
      pre.textContent = Array.from(
        { length: 60 },
        (_, i) => `ligne ${line + i} : le terminal défile, ${"=".repeat((line + i) % 70)}`,
      ).join("\n");
    }, 16);
  });
  await pause(500);
  before = { ...counter };
  const appCpu = await cpuSeconds(app.pid!);
  const serverCpu = await cpuSeconds(server.pid!);
  let rssPeak = 0;
  const sampler = setInterval(() => void residentMb(app.pid!).then((mb) => (rssPeak = Math.max(rssPeak, mb))), 250);
  await pause(5_000);
  clearInterval(sampler);
  const frames = (counter.frames - before.frames) / 5;
  console.log(
    `scrolling: ${frames.toFixed(1)} frames/s received, ${((counter.bytes - before.bytes) / 5 / 1024).toFixed(0)} KB/s; ` +
      `app CPU ${((((await cpuSeconds(app.pid!)) - appCpu) / 5) * 100).toFixed(1)} % of a core, RSS peak ${rssPeak.toFixed(0)} MB; ` +
      `server CPU ${((((await cpuSeconds(server.pid!)) - serverCpu) / 5) * 100).toFixed(1)} % of a core for this session`,
  );
} finally {
  for (const child of apps) child.kill("SIGTERM");
  await browser.close();
  await xApp.close();
  await display.stop();
  await stop(server);
  await rm(dataDir, { recursive: true, force: true });
}
