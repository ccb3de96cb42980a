/**
 * Model finder (issue 3): time to answer a keystroke over the whole catalogue
 * in Chromium (target ≤ 5 ms median).
 *
 * Loads the built home page in Debian's Chromium, waits for the finder's
 * engine, then types several queries character by character into the field.
 * The page records each search as a User Timing measure "finder:search"
 * (app/components/finder/finder-engine.ts) and the index loading as
 * "finder:index-load"; this script reads them back. Runs once at full speed
 * and once with the CPU slowed 4× (as Lighthouse's mobile preset does).
 * Usage: node bench/finder.ts [rounds=5]
 */
import { chromium, type Page } from "@playwright/test";
import { ensureBuild, freePort, median, startServer, stop } from "./lib.ts";

const QUERIES = [
  "ps5 hdmi",
  "iphone 13 ecran",
  "redmi pad se",
  "iphnoe 13",
  "nintedo switch",
  "samsung galaxy s24 ultra batterie",
  "tablette xiaomi pad 6",
  "zzzzqx",
];
const rounds = Number(process.argv[2] ?? 5);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

async function measure(page: Page, url: string): Promise<{ load: number; searches: number[] }> {
  await page.goto(url);
  // The engine loads when the field is used (issue 16), not with the page.
  const input = page.getByRole("combobox", { name: "Trouver mon modèle" });
  await input.focus();
  await page.waitForFunction(() => performance.getEntriesByName("finder:index-load").length > 0);
  const load = await page.evaluate(() => performance.getEntriesByName("finder:index-load")[0]!.duration);
  await page.evaluate(() => performance.clearMeasures("finder:search"));
  for (let round = 0; round < rounds; round++) {
    for (const query of QUERIES) {
      await input.fill("");
      await input.pressSequentially(query);
    }
  }
  const searches = await page.evaluate(() => performance.getEntriesByName("finder:search").map((e) => e.duration));
  return { load, searches };
}

ensureBuild();
const port = await freePort();
const server = await startServer(port, { LOG_LEVEL: "warn" });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox"],
});
try {
  const keystrokes = QUERIES.reduce((sum, q) => sum + q.length, 0) * rounds;
  console.log(`${QUERIES.length} queries × ${rounds} rounds, typed one character at a time (${keystrokes} keystrokes)`);
  for (const throttle of [1, 4]) {
    const page = await browser.newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: throttle });
    const { load, searches } = await measure(page, `http://127.0.0.1:${port}/`);
    console.log(
      `CPU ×${throttle}: search per keystroke median ${ms(median(searches))}, p95 ${ms(percentile(searches, 95))}, ` +
        `max ${ms(Math.max(...searches))} (${searches.length} searches); index load ${ms(load)}`,
    );
    await page.close();
  }
} finally {
  await browser.close();
  await stop(server);
}
