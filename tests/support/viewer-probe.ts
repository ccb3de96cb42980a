/**
 * Issue 37 §1, for the JPEG bomb's e2e spec and bench: what the technician's Chromium does with the app's picture,
 * read from outside the viewer's code.
 * - `installDrawProbe` wraps, before any page script runs, `createImageBitmap` (every decode: its pixels) and
 *   `CanvasRenderingContext2D.drawImage` of an `ImageBitmap` (every rectangle drawn: the bitmap's size against the
 *   rectangle's); `readDrawProbe` reads the counts.
 * - `recordRelayed` lists the `seq` of every `screen:frame` the page's socket received (the frames the server relayed).
 * - `chromiumMemory` reads the resident memory of the browser's processes (CDP `SystemInfo.getProcessInfo` gives
 *   their ids, Linux's `/proc/<pid>/status` their VmRSS) and the page's JS heap (CDP `Performance.getMetrics`).
 */
import { readFileSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "@playwright/test";

/** What the probe counted since the page loaded. */
export type DrawProbe = {
  /** Decodes finished (`createImageBitmap` resolved), and the pixels of their bitmaps. */
  decodes: number;
  decodedPixels: number;
  /** Decodes started and not finished yet. */
  decoding: number;
  /** `drawImage` calls of a bitmap, their bitmaps' pixels, and the largest bitmap drawn, px. */
  draws: number;
  drawnPixels: number;
  largestDrawn: number;
  /** Draws of a bitmap whose size differs from the rectangle it is drawn in (a JPEG larger than its rectangle). */
  mismatched: number;
  /** When the last bitmap was drawn, ms since the epoch; 0 before any. */
  lastDrawAt: number;
};

declare global {
  interface Window {
    __drawProbe?: DrawProbe;
  }
}

/** Installs the probe in every page of `target` from its next document on. */
export async function installDrawProbe(target: BrowserContext | Page): Promise<void> {
  await target.addInitScript(() => {
    const probe: DrawProbe = {
      decodes: 0,
      decodedPixels: 0,
      decoding: 0,
      draws: 0,
      drawnPixels: 0,
      largestDrawn: 0,
      mismatched: 0,
      lastDrawAt: 0,
    };
    window.__drawProbe = probe;
    const decode = window.createImageBitmap.bind(window) as (...args: unknown[]) => Promise<ImageBitmap>;
    window.createImageBitmap = ((...args: unknown[]) => {
      probe.decoding += 1;
      const bitmap = decode(...args);
      bitmap.then(
        (decoded) => {
          probe.decoding -= 1;
          probe.decodes += 1;
          probe.decodedPixels += decoded.width * decoded.height;
        },
        () => (probe.decoding -= 1),
      );
      return bitmap;
    }) as typeof window.createImageBitmap;
    const draw = CanvasRenderingContext2D.prototype.drawImage as (...args: unknown[]) => void;
    CanvasRenderingContext2D.prototype.drawImage = function (this: CanvasRenderingContext2D, ...args: unknown[]) {
      const [image, , , w, h] = args;
      if (image instanceof ImageBitmap) {
        probe.draws += 1;
        probe.lastDrawAt = performance.timeOrigin + performance.now();
        probe.drawnPixels += image.width * image.height;
        probe.largestDrawn = Math.max(probe.largestDrawn, image.width * image.height);
        if (typeof w === "number" && typeof h === "number" && (image.width !== w || image.height !== h))
          probe.mismatched += 1;
      }
      draw.apply(this, args);
    } as typeof CanvasRenderingContext2D.prototype.drawImage;
  });
}

/** The probe's counts in `page` (zeros before any frame). */
export async function readDrawProbe(page: Page): Promise<DrawProbe> {
  return page.evaluate(() => ({ ...window.__drawProbe! }));
}

/** The `seq` of every `screen:frame` received by `page`'s sockets from now on (in arrival order). */
export function recordRelayed(page: Page): number[] {
  const seqs: number[] = [];
  page.on("websocket", (socket) =>
    socket.on("framereceived", ({ payload }) => {
      // Socket.IO sends a binary event as a text header (`451-["screen:frame",{…}]`) and its attachment after it.
      if (typeof payload !== "string" || !payload.includes('"screen:frame"')) return;
      const seq = /"seq":(\d+)/.exec(payload);
      if (seq) seqs.push(Number(seq[1]));
    }),
  );
  return seqs;
}

/** Resident memory of the browser's processes, MB: all together and the largest renderer; the page's JS heap, MB. */
export type ChromiumMemory = { totalMb: number; rendererMb: number; jsHeapMb: number };

const MB = 1024 * 1024;

function vmRssBytes(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0; // gone meanwhile
  }
}

/** Reads the memory of `browser` (Chromium, on Linux) and of `page`'s JS heap. */
export async function chromiumMemory(browser: Browser, page: Page): Promise<ChromiumMemory> {
  const session = await browser.newBrowserCDPSession();
  try {
    const { processInfo } = (await session.send("SystemInfo.getProcessInfo")) as {
      processInfo: { type: string; id: number }[];
    };
    let total = 0;
    let renderer = 0;
    for (const process of processInfo) {
      const bytes = vmRssBytes(process.id);
      total += bytes;
      if (process.type === "renderer") renderer = Math.max(renderer, bytes);
    }
    const pageSession = await page.context().newCDPSession(page);
    await pageSession.send("Performance.enable");
    const { metrics } = await pageSession.send("Performance.getMetrics");
    await pageSession.detach();
    const heap = metrics.find((metric) => metric.name === "JSHeapUsedSize")?.value ?? 0;
    return { totalMb: Math.round(total / MB), rendererMb: Math.round(renderer / MB), jsHeapMb: Math.round(heap / MB) };
  } finally {
    await session.detach();
  }
}
