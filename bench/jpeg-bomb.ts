/**
 * Issue 37 §1 benchmark, « A hostile app can freeze the technician's tab »: the stream of
 * `tests/e2e/jpeg-bomb.spec.ts` against a production server process (PGlite or the embedded PostgreSQL, fresh
 * DATA_DIR) and a real Chromium (/usr/bin/chromium), with figures instead of assertions.
 *
 * A technician signed in takes the session a hostile app started (`tests/support/hostile-app.ts`, from this
 * process, paired like the real app); the app allows showing and, for `seconds` (default 6), streams:
 * - phase « bombes » (the issue's stream): 7 600 × 7 600 px progressive JPEGs of 113 KB in a 64 × 64 rectangle or a
 *   rectangle outside the picture, and full 8K pictures (the largest frame the pixel budget lets through), in turn
 *   at 27 frames a second, plus an 8K picture at once on every acknowledgement;
 * - phase « image géante » (each phase has its own session and page): full pictures of the largest size the
 *   protocol accepts (16 384 × 16 384) with one 8 × 8 rectangle, alternated with 8K pictures, the same way.
 *
 * Printed per phase:
 * - the technician page's responsiveness: the round trip of a `requestAnimationFrame` through `page.evaluate`,
 *   sampled every 100 ms, p50 / p99 / max, idle (3 s), during the stream, and the 10 s after it;
 * - Chromium's memory, sampled every 500 ms: all its processes' RSS, the largest renderer's RSS and the page's JS
 *   heap (CDP), idle, the peak during the stream, and 10 s after it;
 * - frames sent per kind, relayed to the page (its socket), refused (the rest), decoded and drawn by the viewer;
 * - when the last frame was drawn, and how many were drawn more than 2 s after the stream stopped.
 * The issue's figures before the fix: the dashboard answered in 7.8 s after 6 s of stream, Chromium grew from 1.1 to
 * 4.5 GB, and frames were still drawn 25 s late.
 *
 *   node bench/jpeg-bomb.ts [seconds=6]
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser, type Page } from "@playwright/test";
import { signIn } from "#tests/support/remote-support.ts";
import { HostileApp, type BombKind } from "#tests/support/hostile-app.ts";
import {
  chromiumMemory,
  installDrawProbe,
  readDrawProbe,
  recordRelayed,
  type ChromiumMemory,
} from "#tests/support/viewer-probe.ts";
import { CHROMIUM_ARGS, PASSWORD, SECRET, seedAccounts, signedInPage, type Account } from "./soft-assist-lib.ts";
import { epochNow, latencies } from "./poll-lib.ts";
import { ensureBuild, freePort, startServer, stop } from "./lib.ts";

const seconds = Number(process.argv[2] ?? 6);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Samples the page's rAF round trip every 100 ms until `stop()`; a sample still pending at stop counts as it ends. */
function sampleResponsiveness(page: Page): { stop(): Promise<number[]> } {
  const samples: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
      samples.push(performance.now() - started);
      await pause(Math.max(0, 100 - (performance.now() - started)));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return samples;
    },
  };
}

/** Samples Chromium's memory every 500 ms until `stop()`. */
function sampleMemory(browser: Browser, page: Page): { stop(): Promise<ChromiumMemory[]> } {
  const samples: ChromiumMemory[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      samples.push(await chromiumMemory(browser, page));
      await pause(500);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return samples;
    },
  };
}

const memoryText = (memory: ChromiumMemory) =>
  `Chromium ${memory.totalMb} MB, largest renderer ${memory.rendererMb} MB, JS heap ${memory.jsHeapMb} MB`;
const peakText = (samples: ChromiumMemory[]) =>
  memoryText({
    totalMb: Math.max(...samples.map((sample) => sample.totalMb)),
    rendererMb: Math.max(...samples.map((sample) => sample.rendererMb)),
    jsHeapMb: Math.max(...samples.map((sample) => sample.jsHeapMb)),
  });

async function phase(label: string, kinds: BombKind[], url: string, technician: Account): Promise<void> {
  console.log(`\n${label}: ${kinds.join(" + ")}, ${seconds} s`);
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  try {
    const page = await signedInPage(browser, url, technician);
    await installDrawProbe(page);
    await page.reload();
    const relayed = recordRelayed(page);
    const app = await HostileApp.start(url, "Marie");
    await page.getByRole("button", { name: "Prendre en charge Marie" }).click();
    await page.getByRole("dialog", { name: "Contrôle à distance" }).waitFor();
    while (!app.isActive()) await pause(50);

    let responsiveness = sampleResponsiveness(page);
    await pause(3_000);
    const idleRtt = await responsiveness.stop();
    const idleMemory = await chromiumMemory(browser, page);

    responsiveness = sampleResponsiveness(page);
    let memory = sampleMemory(browser, page);
    const report = await app.stream(kinds, seconds * 1000);
    const stoppedAt = epochNow();
    const duringRtt = await responsiveness.stop();
    const duringMemory = await memory.stop();
    const atStop = await readDrawProbe(page);

    responsiveness = sampleResponsiveness(page);
    memory = sampleMemory(browser, page);
    await pause(10_000);
    const afterRtt = await responsiveness.stop();
    const afterMemory = await memory.stop();
    const probe = await readDrawProbe(page);

    const sent = Object.values(report.sent).reduce((sum, count) => sum + count, 0);
    console.log(`  page rAF round trip, idle (3 s):         ${latencies(idleRtt)}`);
    console.log(`  page rAF round trip, during the stream:  ${latencies(duringRtt)}`);
    console.log(`  page rAF round trip, the 10 s after:     ${latencies(afterRtt)}`);
    console.log(`  memory idle:                 ${memoryText(idleMemory)}`);
    console.log(`  memory peak, stream:         ${peakText(duringMemory)}`);
    console.log(`  memory peak, 10 s after:     ${peakText(afterMemory)}`);
    console.log(`  memory 10 s after:           ${memoryText(afterMemory.at(-1)!)}`);
    console.log(
      `  frames: sent ${sent} (${JSON.stringify(report.sent)}, ${(report.bytes / 1024 / 1024 / seconds).toFixed(2)} MB/s), ` +
        `relayed ${relayed.length}, refused ${sent - relayed.length}; decoded ${probe.decodes} ` +
        `(${(probe.decodedPixels / 1e6).toFixed(0)} Mpx), drawn ${probe.draws} (${atStop.draws} by the stream's end), ` +
        `drawn at another size than their rectangle ${probe.mismatched}`,
    );
    const late = probe.lastDrawAt - stoppedAt;
    console.log(
      probe.draws > atStop.draws
        ? `  after the stream: ${probe.draws - atStop.draws} more drawn, the last ${(late / 1000).toFixed(2)} s after it stopped` +
            `${late > 2_000 ? " (more than 2 s late)" : ""}`
        : "  after the stream: nothing more drawn",
    );
    await app.leave();
  } finally {
    await browser.close();
  }
}

ensureBuild();
const dataDir = await mkdtemp(path.join(tmpdir(), "atelier-bench-jpeg-bomb-"));
const account = { email: "tech-bombe@banc.fr", name: "Technicien Bombe", technician: true };
await seedAccounts({ dataDir }, [account]);
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const server = await startServer(port, { DATA_DIR: dataDir, BETTER_AUTH_SECRET: SECRET, LOG_LEVEL: "warn" });
try {
  const technician = { ...account, cookie: await signIn(url, account.email, PASSWORD) };
  await phase("bombes", ["mismatch", "outside", "largest"], url, technician);
  await phase("image géante", ["huge", "largest"], url, technician);
} finally {
  await stop(server);
  await rm(dataDir, { recursive: true, force: true });
}
