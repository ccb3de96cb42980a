/**
 * Latency of another user while a flood runs (issue 13 §3, issue 28 §1):
 * a worker thread (its own event loop, so the flood's client does not delay
 * it) requests one URL every `intervalMs`, open loop, and returns when each
 * request started and how long it took.
 */
import { Worker } from "node:worker_threads";
import { percentile } from "./soft-assist-lib.ts";

/** One request: when it started (ms since the epoch) and how long it took (ms; infinite if it failed). */
export type Poll = { at: number; ms: number };

/** Now, ms since the epoch, on the same clock as `Poll.at`. */
export const epochNow = () => performance.timeOrigin + performance.now();

/** Requests `url` (with `cookie` when given) every `intervalMs` until told to stop; resolves with every poll. */
export function pollUrl(url: string, intervalMs: number, cookie?: string): { stop(): Promise<Poll[]> } {
  const worker = new Worker(
    `
    const { parentPort, workerData } = require("node:worker_threads");
    const polls = [];
    const inFlight = new Set();
    const headers = workerData.cookie ? { cookie: workerData.cookie } : {};
    const timer = setInterval(() => {
      const started = performance.now();
      const at = performance.timeOrigin + started;
      const poll = fetch(workerData.url, { headers, signal: AbortSignal.timeout(60_000) })
        .then((response) => { if (!response.ok) throw new Error(String(response.status)); return response.arrayBuffer(); })
        .then(() => polls.push({ at, ms: performance.now() - started }), () => polls.push({ at, ms: Number.POSITIVE_INFINITY }))
        .finally(() => inFlight.delete(poll));
      inFlight.add(poll);
    }, workerData.interval);
    parentPort.on("message", async () => {
      clearInterval(timer);
      await Promise.all(inFlight);
      parentPort.postMessage(polls);
    });`,
    { eval: true, workerData: { url, interval: intervalMs, cookie } },
  );
  return {
    stop: () =>
      new Promise((resolve) => {
        worker.once("message", (polls: Poll[]) => void worker.terminate().then(() => resolve(polls)));
        worker.postMessage("stop");
      }),
  };
}

/** "p50 …, p99 …, max … (n=…, failed …)" of request durations in ms (a failed request counts as infinite). */
export function latencies(durations: number[]): string {
  const failed = durations.filter((duration) => !Number.isFinite(duration)).length;
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  return `p50 ${ms(percentile(durations, 50))}, p99 ${ms(percentile(durations, 99))}, max ${ms(Math.max(...durations))} (n=${durations.length}, failed ${failed})`;
}
