/**
 * Cost of following a link from one public page to another (issue 16: what client-side navigation
 * buys, docs/decisions/013). In Debian's Chromium, for each pair of pages: land on the first page
 * with an empty cache and wait until its network is idle (its JavaScript loaded and run), click
 * its link to the second page, then measure
 * - content: click → first animation frame showing the second page's `<h1>` (ms, browser clock),
 * - settled: click → its network idle again, i.e. its scripts loaded (ms, less the 500 ms quiet),
 * - the bytes transferred after the click (KB, as sent: compressed, headers included; cached
 *   files count 0; images and video apart) and the number of requests.
 * On loopback, then with Lighthouse's mobile throttling (150 ms RTT, 1.6 Mbit/s down, 4× CPU).
 * Medians of `runs` (default 5). It reports what the current build does: client-side navigation
 * where the pages load React Router, document loads where they load the islands script.
 * Usage: node bench/navigation.ts [runs]
 */
import { chromium, type Page } from "@playwright/test";
import { ensureBuild, freePort, startServer, stop } from "./lib.ts";

const runs = Number(process.argv[2] ?? 5);
const PAIRS = [
  { from: "/services/smartphone-repair", to: "/services/iphone-repair" },
  { from: "/services/iphone-repair", to: "/repair" },
  { from: "/", to: "/sales" },
] as const;
const CONDITIONS = [
  { name: "loopback", network: undefined, cpu: 1 },
  {
    name: "slow 4G, CPU ×4",
    // Lighthouse's mobile preset: 150 ms RTT, 1 638.4 kbit/s down, 675 kbit/s up.
    network: {
      offline: false,
      latency: 150,
      downloadThroughput: (1638.4 * 1024) / 8,
      uploadThroughput: (675 * 1024) / 8,
    },
    cpu: 4,
  },
] as const;
const QUIET_MS = 500;
/** A request whose end CDP never reports (cancelled by the navigation) must not hang the run. */
const SETTLE_LIMIT_MS = 15_000;

type Sample = { contentMs: number; settledMs: number; kb: number; mediaKb: number; requests: number };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

/** Resolves once no request has been in flight for QUIET_MS; gives the time the last one ended. */
function networkIdle(inFlight: () => number, lastEnd: () => number): Promise<number> {
  return new Promise((resolve) => {
    const started = performance.now();
    const check = () => {
      const quiet = inFlight() === 0 && performance.now() - lastEnd() >= QUIET_MS;
      if (quiet || performance.now() - started > SETTLE_LIMIT_MS) resolve(lastEnd());
      else setTimeout(check, 20);
    };
    setTimeout(check, 20);
  });
}

declare global {
  interface Window {
    /** Epoch ms of the first frame that showed the awaited `<h1>` (set by the init script below). */
    __h1Shown?: number;
  }
}

/**
 * In every document of the page, from its start: on each animation frame, look for the `<h1>`
 * holding `text` and record when it is first there. The same loop, started in the first page,
 * also sees a client-side navigation render it.
 */
function watchH1(text: string) {
  const check = () => {
    if (window.__h1Shown === undefined && document.querySelector("h1")?.textContent?.includes(text)) {
      window.__h1Shown = performance.timeOrigin + performance.now();
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

async function measure(page: Page, base: string, from: string, to: string, h1: string): Promise<Sample> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  let counting = false;
  const pending = new Map<string, string>();
  const bytes = { media: 0, other: 0 };
  let requests = 0;
  let lastEnd = performance.now();
  cdp.on("Network.requestWillBeSent", ({ requestId, type }) => {
    if (!counting) return;
    if (!pending.has(requestId)) requests++;
    pending.set(requestId, type ?? "Other");
  });
  const done = ({ requestId, encodedDataLength }: { requestId: string; encodedDataLength?: number }) => {
    const type = pending.get(requestId);
    if (type === undefined) return;
    pending.delete(requestId);
    bytes[type === "Media" || type === "Image" ? "media" : "other"] += encodedDataLength ?? 0;
    lastEnd = performance.now();
  };
  cdp.on("Network.loadingFinished", done);
  cdp.on("Network.loadingFailed", (event) => done({ requestId: event.requestId }));
  await page.addInitScript(watchH1, h1);
  await page.goto(`${base}${from}`, { waitUntil: "networkidle" });
  const link = page.locator(`a[href="${to}"]:visible`).first();
  await link.scrollIntoViewIfNeeded();
  counting = true;
  const start = performance.now();
  lastEnd = start;
  // The click happens in the page, timed on the same clock as the <h1> watcher.
  const clickedAt = await link.evaluate((a: HTMLAnchorElement) => {
    const now = performance.timeOrigin + performance.now();
    a.click();
    return now;
  });
  await page.waitForURL(`${base}${to}`, { waitUntil: "commit" });
  const shownAt = (await (
    await page.waitForFunction(() => window.__h1Shown, undefined, { timeout: 30_000 })
  ).jsonValue()) as number;
  const contentMs = shownAt - clickedAt;
  const settled = await networkIdle(
    () => pending.size,
    () => lastEnd,
  );
  await cdp.detach();
  return {
    contentMs,
    settledMs: Math.max(settled - start, contentMs),
    kb: bytes.other / 1024,
    mediaKb: bytes.media / 1024,
    requests,
  };
}

ensureBuild();
const port = await freePort();
const server = await startServer(port, { LOG_LEVEL: "warn" });
const base = `http://127.0.0.1:${port}`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox"],
});
try {
  for (const condition of CONDITIONS) {
    console.log(`${condition.name} (median of ${runs})`);
    for (const { from, to } of PAIRS) {
      const html = await (await fetch(`${base}${to}`)).text();
      const h1 = (/<h1[^>]*>(.*?)<\/h1>/s.exec(html)?.[1] ?? "").replace(/<[^>]+>/g, "").trim();
      const samples: Sample[] = [];
      for (let i = 0; i < runs; i++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        if (condition.network) await cdp.send("Network.emulateNetworkConditions", condition.network);
        await cdp.send("Emulation.setCPUThrottlingRate", { rate: condition.cpu });
        samples.push(await measure(page, base, from, to, h1));
        await context.close();
      }
      console.log(
        `  ${from} → ${to}: content ${median(samples.map((s) => s.contentMs)).toFixed(0)} ms, ` +
          `settled ${median(samples.map((s) => s.settledMs)).toFixed(0)} ms, ` +
          `${median(samples.map((s) => s.kb)).toFixed(1)} KB in ${median(samples.map((s) => s.requests))} requests` +
          ` (+ ${median(samples.map((s) => s.mediaKb)).toFixed(1)} KB of images and video)`,
      );
    }
  }
} finally {
  await browser.close();
  await stop(server);
}
