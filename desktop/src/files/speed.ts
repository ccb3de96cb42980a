/**
 * Issue 38 §2 « Files both ways, with consent »: a transfer's speed and time left, measured over the last few
 * seconds (a slow start or a pause long ago does not weigh on what the customer reads), and how they are said
 * in French (« 850 Ko/s », « encore 1 min 05 s »). Pure but for the clock, which tests give.
 */
import { formatFileSize } from "#app/remote-support/file-protocol.ts";

/** The speed is measured over this window, ms. */
export const SPEED_WINDOW_MS = 3_000;

/** Samples of one transfer's progress (bytes done at a time, ms). */
export class SpeedMeter {
  readonly #now: () => number;
  #samples: { at: number; done: number }[] = [];

  /** `now`: a clock in ms (default `performance.now`). */
  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** Records that `done` bytes are done now; samples older than `SPEED_WINDOW_MS` are dropped. */
  sample(done: number): void {
    const at = this.#now();
    this.#samples = this.#samples.filter((sample) => at - sample.at <= SPEED_WINDOW_MS);
    this.#samples.push({ at, done });
  }

  /** Forgets every sample (a pause, a resume from another byte). */
  reset(): void {
    this.#samples = [];
  }

  /** Bytes per second over the last `SPEED_WINDOW_MS`, null before two samples or while nothing moved in time. */
  bytesPerSecond(): number | null {
    const first = this.#samples[0];
    const last = this.#samples.at(-1);
    if (!first || !last || last.at <= first.at) return null;
    return ((last.done - first.done) * 1000) / (last.at - first.at);
  }

  /** Seconds left for `size` bytes at the measured speed (rounded up), null without a speed. */
  secondsLeft(size: number, done: number): number | null {
    const speed = this.bytesPerSecond();
    return speed && speed > 0 ? Math.ceil(Math.max(0, size - done) / speed) : null;
  }
}

/** « 850 Ko/s », « 1,2 Mo/s » (decimal units, as `formatFileSize`). */
export function formatSpeed(bytesPerSecond: number): string {
  return `${formatFileSize(Math.round(bytesPerSecond))}/s`;
}

/** « encore 5 s », « encore 2 min 05 s », « encore 1 h 03 min ». */
export function formatTimeLeft(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 60) return `encore ${s} s`;
  if (s < 3600) return `encore ${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
  return `encore ${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
}
