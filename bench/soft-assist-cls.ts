/**
 * Layout shift of /soft-assist's first view, for each of its three faces
 * (issue 16 §1 goal: CLS < 0.05 signed out, on the customer screen and on the
 * dashboard), in Debian's Chromium with Lighthouse's mobile conditions: a
 * 412×823 px viewport at 1.75×, 4× CPU slowdown, 150 ms RTT and 1.6 Mbit/s.
 * The customer has a session open and the technician a history, so their
 * screens load with data. CLS = the largest session window of `layout-shift`
 * entries without recent input (5 s windows, 1 s gaps), as Chromium's web-vitals
 * count it, observed until the network is idle plus 3 s.
 * Also prints the JavaScript each face downloads (gzip -9 KB).
 * Usage: node bench/soft-assist-cls.ts [runs=3]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium, type Browser } from "@playwright/test";
import { signIn } from "#tests/support/remote-support.ts";
import { ensureBuild, freePort, startServer, stop } from "./lib.ts";
import { api, PASSWORD, SECRET, seedAccounts } from "./soft-assist-lib.ts";

const runs = Number(process.argv[2] ?? 3);
const MOBILE = { width: 412, height: 823 };

/** One load of /soft-assist with `cookie` (or none): its CLS and its JavaScript (gzip bytes). */
async function measure(browser: Browser, url: string, cookie: string | null): Promise<{ cls: number; js: number }> {
  const context = await browser.newContext({
    baseURL: url,
    locale: "fr-FR",
    viewport: MOBILE,
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
  });
  if (cookie) {
    await context.addCookies(
      cookie.split("; ").map((pair) => {
        const [name, ...value] = pair.split("=");
        return { name: name!, value: value.join("="), url };
      }),
    );
  }
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
  if (process.env.BENCH_DEBUG)
    page.on("console", (message) => void (message.type() === "error" && console.log(message.text().slice(0, 600))));
  const scripts: Promise<number>[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "script")
      scripts.push(response.body().then((body) => gzipSync(body, { level: 9 }).length));
  });
  await page.addInitScript(() => {
    const shifts: { value: number; time: number; nodes: string }[] = [];
    (window as unknown as { __shifts: typeof shifts }).__shifts = shifts;
    new PerformanceObserver((list) => {
      type Shift = PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources: { node?: Node | null }[];
      };
      for (const entry of list.getEntries() as Shift[]) {
        if (entry.hadRecentInput) continue;
        // What moved, for BENCH_DEBUG: the first words of each shifted element.
        const nodes = entry.sources.map((source) => source.node?.textContent?.slice(0, 60) ?? "?").join(" | ");
        shifts.push({ value: entry.value, time: entry.startTime, nodes });
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
  await page.goto("/soft-assist", { waitUntil: "networkidle", timeout: 120_000 });
  await page.waitForTimeout(3_000);
  const shifts = await page.evaluate(
    () => (window as unknown as { __shifts: { value: number; time: number; nodes: string }[] }).__shifts,
  );
  if (process.env.BENCH_DEBUG) for (const shift of shifts) console.log(shift);
  await context.close();
  let cls = 0;
  let window = 0;
  let first = 0;
  let last = 0;
  for (const shift of shifts) {
    if (window > 0 && (shift.time - last > 1_000 || shift.time - first > 5_000)) window = 0;
    if (window === 0) first = shift.time;
    window += shift.value;
    last = shift.time;
    cls = Math.max(cls, window);
  }
  const js = (await Promise.all(scripts)).reduce((sum, size) => sum + size, 0);
  return { cls, js };
}

ensureBuild();
const dataDir = mkdtempSync(path.join(tmpdir(), "atelier-bench-cls-"));
const accounts = [
  { email: "client@banc.fr", name: "Léa Martin", technician: false },
  { email: "tech@banc.fr", name: "Camille Technicienne", technician: true },
];
await seedAccounts({ dataDir }, accounts);
const port = await freePort();
const server = await startServer(port, { DATA_DIR: dataDir, BETTER_AUTH_SECRET: SECRET, LOG_LEVEL: "warn" });
const url = `http://127.0.0.1:${port}`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox"],
});
try {
  const customer = await signIn(url, accounts[0]!.email, PASSWORD);
  const technician = await signIn(url, accounts[1]!.email, PASSWORD);
  // The technician's history holds one ended session; the customer has one waiting.
  const first = await api<{ session: { code: string } }>(url, customer, "/api/sessions", {});
  await api(url, technician, "/api/sessions/join", { code: first.session.code });
  await api(url, technician, `/api/sessions/${first.session.code}/disconnect`, {});
  await api(url, customer, "/api/sessions", {});
  const faces: [string, string | null][] = [
    ["signed out", null],
    ["customer screen", customer],
    ["technician dashboard", technician],
  ];
  for (const [label, cookie] of faces) {
    const results = [];
    for (let run = 0; run < runs; run++) results.push(await measure(browser, url, cookie));
    const cls = results.map((result) => result.cls.toFixed(3)).join(", ");
    const js = (Math.max(...results.map((result) => result.js)) / 1024).toFixed(1);
    console.log(`/soft-assist, ${label}: CLS ${cls} over ${runs} runs; JavaScript ${js} KB gzip`);
  }
} finally {
  await browser.close();
  await stop(server);
  rmSync(dataDir, { recursive: true, force: true });
}
