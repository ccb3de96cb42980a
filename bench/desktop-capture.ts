/**
 * Issue 26 "Figures": the desktop app's screen capture on this machine, Linux X11 part.
 *
 * Setup: Xvfb 1920 × 1080 × 24 (desktop/test/xvfb.ts), one xterm covering the screen (black on white,
 * the "fixed" font: 320 × 83 characters), the pointer in its middle. Two contents, each in a fresh xterm:
 * - still: 83 lines of text printed once, then nothing moves;
 * - scrolling: a shell loop printing numbered French lines as fast as it can (xterm's jump scroll
 *   redraws most of the window between two captures: the worst case for a terminal).
 *
 * 1. Stages, `samples` captures at 20 per second for each content, timed one by one: capture
 *    (XShmGetImage + the pointer blended in), change detection (64 × 64 tiles against the picture
 *    last sent), encoding (libjpeg-turbo, quality 70, 4:2:0, every changed rectangle, banded as the
 *    stream does not: one JPEG per rectangle) and commit. CPU = this process's user + system time
 *    (process.cpuUsage; XShm's copy is done by the X server and is not in it); wall = performance.now.
 * 2. The real `ScreenStream` (maxFps 20, quality 70) for `seconds` s per content, each frame
 *    acknowledged at once (a fast viewer): JPEG bytes per second, frames per second.
 * 3. A full picture of the text screen: JPEG bytes and encode time (whole screen as one JPEG,
 *    20 times), and how many frames the stream cuts it into.
 *
 * Usage: `node bench/desktop-capture.ts [samples=100] [seconds=5]` (needs the Debian packages xvfb, xterm).
 */
import { spawn, type ChildProcess } from "node:child_process";
import type { Screen } from "#app/remote-support/device-protocol.ts";
import { createCapturer } from "../desktop/src/capture/capturer.ts";
import { createJpegEncoder } from "../desktop/src/capture/jpeg.ts";
import { ScreenStream } from "../desktop/src/capture/stream.ts";
import { TileDiff } from "../desktop/src/capture/tiles.ts";
import { startXvfb } from "../desktop/test/xvfb.ts";

const samples = Number(process.argv[2] ?? 100);
const seconds = Number(process.argv[3] ?? 5);
const SCREEN: Screen = { id: "0", x: 0, y: 0, width: 1920, height: 1080, scale: 1, primary: true };
const QUALITY = 70;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}
const fmt = (values: number[]) => `${percentile(values, 50).toFixed(2)} / ${percentile(values, 95).toFixed(2)}`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** CPU ms (user + system) and wall ms of `work`. */
function measure<T>(work: () => T): { value: T; cpu: number; wall: number } {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const value = work();
  const used = process.cpuUsage(cpu);
  return { value, cpu: (used.user + used.system) / 1000, wall: performance.now() - wall };
}

const STILL =
  'for i in $(seq 1 82); do echo "ligne $i : le client montre au technicien ce que fait son ordinateur"; done; exec sleep 3600';
const SCROLL =
  'i=0; while true; do i=$((i+1)); echo "ligne $i : le technicien regarde défiler le texte du terminal, sans fin"; done';

const children: ChildProcess[] = [];
function xterm(display: string, script: string): ChildProcess {
  const child = spawn(
    "xterm",
    ["-geometry", "320x83+0+0", "-bg", "white", "-fg", "black", "-e", "bash", "-c", script],
    {
      env: { ...process.env, DISPLAY: display },
      stdio: "ignore",
    },
  );
  children.push(child);
  return child;
}

const xvfb = await startXvfb(1920, 1080);
const capturer = await createCapturer("linux", { env: { DISPLAY: xvfb.display } });
const encoder = await createJpegEncoder();
try {
  if (!capturer.status().ok || !encoder.status().ok) {
    throw new Error(JSON.stringify({ capture: capturer.status(), jpeg: encoder.status() }));
  }
  spawn("xdotool", ["mousemove", "960", "540"], { env: { ...process.env, DISPLAY: xvfb.display } }).on("error", () => {
    // Optional: without xdotool the pointer stays in the corner.
  });
  console.log(
    `Xvfb ${xvfb.display} 1920 × 1080, quality ${QUALITY}, ${samples} captures per content, CPU ms (wall ms)`,
  );
  console.log("| content | capture p50 / p95 | diff p50 / p95 | encode p50 / p95 | rects p50 | JPEG p50 / p95 |");
  console.log("|---|---|---|---|---|---|");
  const streamRows: string[] = [];
  let fullPicture: Uint8Array | undefined;
  let fullEncode: { cpu: number[]; wall: number[] } | undefined;

  for (const [name, script] of [
    ["still", STILL],
    ["scrolling", SCROLL],
  ] as const) {
    const terminal = xterm(xvfb.display, script);
    await pause(1500);
    const diff = new TileDiff();
    const first = capturer.grab(SCREEN);
    diff.commit(first, diff.diff(first));
    if (name === "still") {
      // 3. The full picture of a screen of text.
      fullEncode = { cpu: [], wall: [] };
      for (let i = 0; i < 20; i++) {
        const run = measure(() => encoder.encode(first, { x: 0, y: 0, w: 1920, h: 1080 }, QUALITY));
        fullPicture = run.value;
        fullEncode.cpu.push(run.cpu);
        fullEncode.wall.push(run.wall);
      }
    }
    const times = { capture: [] as number[], diff: [] as number[], encode: [] as number[] };
    const walls = { capture: [] as number[], diff: [] as number[], encode: [] as number[] };
    const rectCounts: number[] = [];
    const jpegBytes: number[] = [];
    for (let i = 0; i < samples; i++) {
      await pause(50);
      const grab = measure(() => capturer.grab(SCREEN));
      const found = measure(() => diff.diff(grab.value));
      const encoded = measure(() => found.value.map((rect) => encoder.encode(grab.value, rect, QUALITY)));
      diff.commit(grab.value, found.value);
      times.capture.push(grab.cpu);
      times.diff.push(found.cpu);
      times.encode.push(encoded.cpu);
      walls.capture.push(grab.wall);
      walls.diff.push(found.wall);
      walls.encode.push(encoded.wall);
      rectCounts.push(found.value.length);
      jpegBytes.push(encoded.value.reduce((sum, jpeg) => sum + jpeg.byteLength, 0));
    }
    console.log(
      `| ${name} | ${fmt(times.capture)} (${fmt(walls.capture)}) | ${fmt(times.diff)} (${fmt(walls.diff)}) | ` +
        `${fmt(times.encode)} (${fmt(walls.encode)}) | ${percentile(rectCounts, 50)} | ` +
        `${kb(percentile(jpegBytes, 50))} / ${kb(percentile(jpegBytes, 95))} |`,
    );

    // 2. The stream itself, acknowledged at once.
    const stream = new ScreenStream(capturer, encoder, (frame) => setImmediate(() => stream.ack(frame.seq)), {
      maxFps: 20,
      quality: QUALITY,
    });
    const cpu = process.cpuUsage();
    stream.setDemand({ active: true, screen: null, refresh: 0 }, [SCREEN]);
    await pause(1000);
    // The first second carries the full picture; count from here on.
    const before = { ...stream.stats };
    const cpuBefore = process.cpuUsage(cpu);
    await pause(seconds * 1000);
    stream.stop();
    const used = process.cpuUsage(cpu);
    const cpuShare = (used.user + used.system - cpuBefore.user - cpuBefore.system) / 1000 / (seconds * 1000);
    const s = stream.stats;
    streamRows.push(
      `| ${name} | ${kb((s.bytesSent - before.bytesSent) / seconds)}/s | ` +
        `${((s.framesSent - before.framesSent) / seconds).toFixed(1)} | ${((s.captures - before.captures) / seconds).toFixed(1)} | ` +
        `${s.capturesSkipped - before.capturesSkipped} | ${(cpuShare * 100).toFixed(0)} % | ` +
        `${name === "still" ? before.framesSent : "–"} |`,
    );
    terminal.kill("SIGKILL");
    await pause(300);
  }

  console.log(`\nScreenStream, maxFps 20, each frame acknowledged at once, ${seconds} s after the first second:`);
  console.log(
    "| content | JPEG bytes | frames/s | captures/s | skipped | CPU of this process | frames of the first full picture |",
  );
  console.log("|---|---|---|---|---|---|---|");
  for (const row of streamRows) console.log(row);
  if (fullPicture && fullEncode) {
    console.log(
      `\nFull picture of the text screen as one JPEG: ${kb(fullPicture.byteLength)}, encode CPU ${fmt(fullEncode.cpu)} ms ` +
        `(wall ${fmt(fullEncode.wall)} ms), p50 / p95 of 20.`,
    );
  }
} finally {
  for (const child of children) child.kill("SIGKILL");
  capturer.close();
  encoder.close();
  await xvfb.stop();
}
