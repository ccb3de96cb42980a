/**
 * The paced picture producer (issue 26, "the app sees the screen"): captures
 * the monitor the server asks for, finds what changed since the picture last
 * SENT, encodes it as JPEG rectangles and hands `ScreenFrame`s to `send`.
 *
 * Pacing (app/remote-support/screen-protocol.ts, step 5):
 * - at most `maxFps` captures a second (20 by default);
 * - at most `SCREEN_LIMITS.framesInFlight` frames unacknowledged: meanwhile
 *   captures are skipped, so no queue grows, and the next frame carries
 *   everything changed since the last SENT picture, never stale pixels;
 * - a frame unacknowledged for `SCREEN_LIMITS.ackTimeoutMs` counts as lost:
 *   the next picture is full;
 * - a still screen sends nothing;
 * - issue 37 §1: the decoded pixels sent (Σ w × h) stay within
 *   `PIXEL_PACE` (¾ of the server's `pairingPixelsPerSecond` and
 *   `pairingBurstPixels`, leaving room for network jitter): a capture waits
 *   until a whole picture fits, and what does not fit waits for the next one.
 *
 * A picture larger than a frame (a full 1080p is ~180 KB) is cut into
 * tile-aligned horizontal bands, packed into frames of at most
 * `SCREEN_LIMITS.frameBytes` of JPEG and `frameRects` rectangles; what does
 * not fit in the free frames waits for the next capture, which sends it with
 * its newest pixels (the change detector only learns what was really sent).
 * Only the first frame of a full picture has `full: true`.
 */
import type { Screen } from "#app/remote-support/device-protocol.ts";
import type { ScreenDemand, ScreenFrame } from "#app/remote-support/screen-protocol.ts";
import { packRects, SCREEN_LIMITS } from "#app/remote-support/screen-protocol.ts";
import type { CapturedImage, ScreenCapturer } from "./capturer.ts";
import type { RectEncoder } from "./jpeg.ts";
import { DEFAULT_JPEG_QUALITY } from "./jpeg.ts";
import type { Rect } from "./tiles.ts";
import { TileDiff } from "./tiles.ts";

/** Time source and timers (ms); tests pass a fake one. */
export type StreamClock = {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
};

/** Counters since the stream was made (for the bench and diagnostics). */
export type ScreenStreamStats = {
  /** Pictures captured. */
  captures: number;
  /** Captures skipped because `framesInFlight` frames waited for their acknowledgement. */
  capturesSkipped: number;
  framesSent: number;
  /** JPEG bytes sent, all frames together. */
  bytesSent: number;
  /** Full pictures started (first frame with `full: true`). */
  fullPictures: number;
  /** Frames given up after `ackTimeoutMs` without acknowledgement. */
  framesLost: number;
  /** Captures or encodings that threw (see `onError`). */
  errors: number;
};

/** What one capture cost and produced (ms of wall time, bytes of JPEG). */
export type StreamTick = {
  captureMs: number;
  diffMs: number;
  encodeMs: number;
  rects: number;
  frames: number;
  bytes: number;
};

export type ScreenStreamOptions = {
  /** Captures per second at most (default 20). */
  maxFps?: number;
  /** JPEG quality, 1–100 (default 70). */
  quality?: number;
  clock?: StreamClock;
  /** A capture, encoding or send failed; the stream goes on with the next capture. */
  onError?: (error: unknown) => void;
  /** Called after every capture with its timings. */
  onTick?: (tick: StreamTick) => void;
};

const realClock: StreamClock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The monitor `id` among `screens`, else the primary one, else the first; null when there is none. */
export function pickDemandedScreen(id: string | null, screens: readonly Screen[]): Screen | null {
  return (
    (id === null ? undefined : screens.find((screen) => screen.id === id)) ??
    screens.find((screen) => screen.primary) ??
    screens[0] ??
    null
  );
}

function sameScreen(a: Screen, b: Screen): boolean {
  return a.id === b.id && a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

/** A rectangle and its JPEG, before the frame's rectangles are joined into one `data`. */
type EncodedRect = Rect & { jpeg: Uint8Array };

/** Issue 37 §1: the app's own pixel budget, px/s and px, under the server's so that it never refuses a real app's frame. */
export const PIXEL_PACE = {
  perSecond: SCREEN_LIMITS.pairingPixelsPerSecond * 0.75,
  burst: SCREEN_LIMITS.pairingBurstPixels * 0.75,
} as const;

/** Bytes of JPEG per pixel assumed before the first encoding (a desktop at quality 70 is ~0.1). */
const INITIAL_BYTES_PER_PIXEL = 0.3;

/** One monitor streamed to the technician, driven by the server's `ScreenDemand` and acknowledgements. */
export class ScreenStream {
  /** Counters since creation. */
  readonly stats: ScreenStreamStats = {
    captures: 0,
    capturesSkipped: 0,
    framesSent: 0,
    bytesSent: 0,
    fullPictures: 0,
    framesLost: 0,
    errors: 0,
  };
  readonly #capturer: ScreenCapturer;
  readonly #encoder: RectEncoder;
  readonly #send: (frame: ScreenFrame) => void;
  readonly #intervalMs: number;
  readonly #quality: number;
  readonly #clock: StreamClock;
  readonly #onError: ((error: unknown) => void) | undefined;
  readonly #onTick: ((tick: StreamTick) => void) | undefined;
  readonly #diff: TileDiff;
  #screen: Screen | null = null;
  #refresh: number | null = null;
  #size = { width: 0, height: 0 };
  /** The next frame starts a new canvas. */
  #full = true;
  #seq = 0;
  /** Unacknowledged frames: seq → when sent (clock ms). */
  readonly #inFlight = new Map<number, number>();
  #timer: unknown = null;
  #bytesPerPixel = INITIAL_BYTES_PER_PIXEL;
  /** Issue 37 §1: pixels that may be sent now (`PIXEL_PACE`), and when they were last counted (clock ms). */
  #pixels: number = PIXEL_PACE.burst;
  #pixelsAt: number | null = null;

  /**
   * `send` is called synchronously with each frame, in `seq` order; its
   * `jpeg` buffers belong to the frame. Nothing runs before `setDemand`.
   */
  constructor(
    capturer: ScreenCapturer,
    encoder: RectEncoder,
    send: (frame: ScreenFrame) => void,
    options: ScreenStreamOptions = {},
  ) {
    this.#capturer = capturer;
    this.#encoder = encoder;
    this.#send = send;
    this.#intervalMs = 1000 / Math.max(1, options.maxFps ?? 20);
    this.#quality = options.quality ?? DEFAULT_JPEG_QUALITY;
    this.#clock = options.clock ?? realClock;
    this.#onError = options.onError;
    this.#onTick = options.onTick;
    this.#diff = new TileDiff();
  }

  /** Whether the stream is capturing (an active demand with a monitor to show). */
  get active(): boolean {
    return this.#screen !== null;
  }

  /**
   * Follows the server's `device:screen`: starts, switches monitor (among
   * `screens`, the injector's list, OS px), or stops. Starting, another
   * monitor, a moved or resized one, or a new `refresh` value makes the next
   * picture full.
   */
  setDemand(demand: ScreenDemand, screens: readonly Screen[]): void {
    const screen = demand.active ? pickDemandedScreen(demand.screen, screens) : null;
    if (!screen) {
      this.stop();
      return;
    }
    const starting = this.#screen === null;
    if (starting || !sameScreen(this.#screen!, screen) || demand.refresh !== this.#refresh) this.#startFull();
    this.#screen = screen;
    this.#refresh = demand.refresh;
    if (starting) this.#schedule(0);
  }

  /** The technician drew frame `seq`: one more frame may be sent. Unknown numbers are ignored. */
  ack(seq: number): void {
    this.#inFlight.delete(seq);
  }

  /** Stops capturing and forgets frames in flight; a later `setDemand` starts with a full picture. */
  stop(): void {
    if (this.#timer !== null) this.#clock.clearTimeout(this.#timer);
    this.#timer = null;
    this.#screen = null;
    this.#refresh = null;
    this.#inFlight.clear();
    this.#startFull();
  }

  #startFull(): void {
    this.#full = true;
    this.#diff.reset();
  }

  #schedule(delayMs: number): void {
    this.#timer = this.#clock.setTimeout(() => this.#tick(), delayMs);
  }

  #tick(): void {
    this.#timer = null;
    if (!this.#screen) return;
    const started = this.#clock.now();
    try {
      this.#step(started, this.#screen);
    } catch (error) {
      this.stats.errors++;
      this.#onError?.(error);
    }
    if (!this.#screen) return;
    // On a machine too slow for maxFps, rest at least as long as the work took: at most half a core.
    const elapsed = this.#clock.now() - started;
    this.#schedule(Math.max(this.#intervalMs - elapsed, elapsed));
  }

  #step(now: number, screen: Screen): void {
    for (const sentAt of this.#inFlight.values()) {
      if (now - sentAt >= SCREEN_LIMITS.ackTimeoutMs) {
        this.stats.framesLost += this.#inFlight.size;
        this.#inFlight.clear();
        this.#startFull();
        break;
      }
    }
    const free = SCREEN_LIMITS.framesInFlight - this.#inFlight.size;
    if (free <= 0) {
      this.stats.capturesSkipped++;
      return;
    }
    if (!this.#capturer.status().ok) return;
    // Issue 37 §1: wait until a whole picture (the last one's size) fits in the pixel budget.
    this.#pixels = Math.min(
      PIXEL_PACE.burst,
      this.#pixels + ((now - (this.#pixelsAt ?? now)) / 1000) * PIXEL_PACE.perSecond,
    );
    this.#pixelsAt = now;
    if (this.#pixels < Math.min(PIXEL_PACE.burst, this.#size.width * this.#size.height)) {
      this.stats.capturesSkipped++;
      return;
    }

    const t0 = performance.now();
    const image = this.#capturer.grab(screen);
    this.stats.captures++;
    const t1 = performance.now();
    if (image.width !== this.#size.width || image.height !== this.#size.height) {
      this.#size = { width: image.width, height: image.height };
      this.#startFull();
    }
    const rects = this.#diff.diff(image);
    const t2 = performance.now();
    const frames = rects.length > 0 ? this.#pack(image, rects, free) : [];
    const t3 = performance.now();
    let bytes = 0;
    for (const frame of frames) {
      for (const rect of frame) bytes += rect.jpeg.byteLength;
    }
    this.#emit(screen, image, frames, now);
    this.#onTick?.({
      captureMs: t1 - t0,
      diffMs: t2 - t1,
      encodeMs: t3 - t2,
      rects: rects.length,
      frames: frames.length,
      bytes,
    });
  }

  /** Encodes `rects` into at most `slots` frames; commits what fits to the change detector. */
  #pack(image: CapturedImage, rects: readonly Rect[], slots: number): EncodedRect[][] {
    const queue = rects.flatMap((rect) => this.#bands(rect));
    const frames: EncodedRect[][] = [[]];
    const sent: Rect[] = [];
    let bytes = 0;
    while (queue.length > 0) {
      const rect = queue.shift()!;
      // Past the pixel budget the rest waits for the next capture (issue 37 §1).
      if (rect.w * rect.h > this.#pixels) break;
      const jpeg = this.#encoder.encode(image, rect, this.#quality);
      const perPixel = jpeg.byteLength / (rect.w * rect.h);
      this.#bytesPerPixel = Math.min(4, Math.max(0.02, this.#bytesPerPixel * 0.7 + perPixel * 0.3));
      if (jpeg.byteLength > SCREEN_LIMITS.frameBytes) {
        const halves = this.#halve(rect);
        if (!halves) throw new Error(`Image JPEG trop grande pour une trame : ${jpeg.byteLength} octets.`);
        queue.unshift(...halves);
        continue;
      }
      let frame = frames.at(-1)!;
      if (bytes + jpeg.byteLength > SCREEN_LIMITS.frameBytes || frame.length >= SCREEN_LIMITS.frameRects) {
        // No free frame left: the rest waits for the next capture, which sends its newest pixels.
        if (frames.length >= slots) break;
        frame = [];
        frames.push(frame);
        bytes = 0;
      }
      frame.push({ ...rect, jpeg });
      sent.push(rect);
      this.#pixels -= rect.w * rect.h;
      bytes += jpeg.byteLength;
    }
    this.#diff.commit(image, sent);
    return frames.filter((frame) => frame.length > 0);
  }

  /** Cuts `rect` into bands of whole tile rows, each expected to fill about half a frame. */
  #bands(rect: Rect): Rect[] {
    const tile = this.#diff.tileSize;
    const pixels = SCREEN_LIMITS.frameBytes / 2 / this.#bytesPerPixel;
    const rows = Math.max(1, Math.floor(pixels / (rect.w * tile))) * tile;
    const bands: Rect[] = [];
    for (let y = rect.y; y < rect.y + rect.h; y += rows) {
      bands.push({ x: rect.x, y, w: rect.w, h: Math.min(rows, rect.y + rect.h - y) });
    }
    return bands;
  }

  /** Two tile-aligned halves of `rect` (rows first, then columns); null for a single tile. */
  #halve(rect: Rect): [Rect, Rect] | null {
    const tile = this.#diff.tileSize;
    const tileRows = Math.ceil(rect.h / tile);
    if (tileRows > 1) {
      const h = Math.ceil(tileRows / 2) * tile;
      return [
        { ...rect, h },
        { ...rect, y: rect.y + h, h: rect.h - h },
      ];
    }
    const tileColumns = Math.ceil(rect.w / tile);
    if (tileColumns > 1) {
      const w = Math.ceil(tileColumns / 2) * tile;
      return [
        { ...rect, w },
        { ...rect, x: rect.x + w, w: rect.w - w },
      ];
    }
    return null;
  }

  #emit(screen: Screen, image: CapturedImage, frames: EncodedRect[][], now: number): void {
    for (const encoded of frames) {
      this.#seq = this.#seq >= 2 ** 31 ? 1 : this.#seq + 1;
      // One binary attachment per frame: the JPEGs end to end (screen-protocol.ts, step 3).
      const { rects, data } = packRects(encoded);
      const frame: ScreenFrame = {
        screen: screen.id,
        seq: this.#seq,
        width: image.width,
        height: image.height,
        full: this.#full,
        rects,
        data,
      };
      if (this.#full) this.stats.fullPictures++;
      this.#full = false;
      this.#inFlight.set(frame.seq, now);
      this.stats.framesSent++;
      this.stats.bytesSent += data.byteLength;
      try {
        this.#send(frame);
      } catch (error) {
        // The viewer may have missed this frame while the detector counts it sent: start again in full.
        this.#startFull();
        throw error;
      }
    }
  }
}
