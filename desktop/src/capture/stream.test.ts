/**
 * The paced picture producer (issue 26) with a fake capturer, encoder and
 * clock: full pictures, still screens, the in-flight limit, lost frames,
 * frames kept under the protocol's byte and rectangle limits.
 */
import { describe, expect, it, vi } from "vitest";
import type { Screen } from "#app/remote-support/device-protocol.ts";
import type { ScreenDemand, ScreenFrame } from "#app/remote-support/screen-protocol.ts";
import { frameBytes, SCREEN_LIMITS } from "#app/remote-support/screen-protocol.ts";
import type { CapturedImage, ScreenCapturer } from "./capturer.ts";
import type { RectEncoder } from "./jpeg.ts";
import type { StreamClock } from "./stream.ts";
import { PIXEL_PACE, pickDemandedScreen, ScreenStream } from "./stream.ts";
import { fillRect, makeImage } from "./test-images.ts";
import type { Rect } from "./tiles.ts";

/** Timers run only when the test moves time forward. */
class FakeClock implements StreamClock {
  time = 0;
  #next = 1;
  #timers = new Map<number, { at: number; callback: () => void }>();
  now = () => this.time;
  setTimeout = (callback: () => void, ms: number) => {
    const id = this.#next++;
    this.#timers.set(id, { at: this.time + ms, callback });
    return id;
  };
  clearTimeout = (handle: unknown) => void this.#timers.delete(handle as number);
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.#timers.entries()].filter(([, timer]) => timer.at <= end).sort((a, b) => a[1].at - b[1].at);
      if (due.length === 0) break;
      const [id, timer] = due[0]!;
      this.#timers.delete(id);
      this.time = timer.at;
      timer.callback();
    }
    this.time = end;
  }
}

/** Returns `image` (the test paints it between captures). */
function fakeCapturer(image: CapturedImage): ScreenCapturer & { grabs: Screen[] } {
  const grabs: Screen[] = [];
  return {
    grabs,
    status: () => ({ ok: true }),
    grab: (screen) => {
      grabs.push(screen);
      return image;
    },
    close: () => undefined,
  };
}

/** "JPEG" of `bytesPerPixel` × area bytes, first byte marking the rectangle's top-left tile. */
function fakeEncoder(bytesPerPixel = 0.1): RectEncoder & { calls: Rect[] } {
  const calls: Rect[] = [];
  return {
    calls,
    encode: (_image, rect) => {
      calls.push(rect);
      return new Uint8Array(Math.max(1, Math.ceil(rect.w * rect.h * bytesPerPixel)));
    },
  };
}

const SCREEN: Screen = { id: "HDMI-1", x: 0, y: 0, width: 256, height: 128, scale: 1, primary: true };
const OTHER: Screen = { id: "DP-2", x: 256, y: 0, width: 256, height: 128, scale: 1, primary: false };
const demand = (refresh = 0, screen: string | null = null): ScreenDemand => ({ active: true, screen, refresh });

function setup(width = 256, height = 128, bytesPerPixel = 0.1) {
  const image = makeImage(width, height, [40, 40, 40]);
  const clock = new FakeClock();
  const frames: ScreenFrame[] = [];
  const capturer = fakeCapturer(image);
  const encoder = fakeEncoder(bytesPerPixel);
  const stream = new ScreenStream(capturer, encoder, (frame) => frames.push(frame), { clock, maxFps: 20 });
  const screen = { ...SCREEN, width, height };
  return { image, clock, frames, capturer, encoder, stream, screen };
}

/** Area of the union of the frames' rectangles (they never overlap within a picture). */
const area = (frames: ScreenFrame[]) => frames.flatMap((frame) => frame.rects).reduce((sum, r) => sum + r.w * r.h, 0);

describe("ScreenStream", () => {
  it("sends nothing before a demand, then one full picture, then nothing while the screen is still", () => {
    const { clock, frames, capturer, stream, screen } = setup();
    clock.advance(1_000);
    expect(frames).toEqual([]);
    stream.setDemand(demand(), [screen]);
    clock.advance(0);
    expect(frames).toHaveLength(1);
    expect(frames[0]).toMatchObject({ screen: "HDMI-1", seq: 1, width: 256, height: 128, full: true });
    expect(frames[0]!.rects.map(({ x, y, w, h }) => ({ x, y, w, h }))).toEqual([{ x: 0, y: 0, w: 256, h: 128 }]);
    stream.ack(1);
    clock.advance(1_000);
    expect(frames).toHaveLength(1);
    expect(capturer.grabs.length).toBeGreaterThanOrEqual(20);
    expect(stream.stats).toMatchObject({ framesSent: 1, fullPictures: 1, capturesSkipped: 0 });
  });

  it("issue 37: keeps the decoded pixels under the server's budget, a 4K screen changing all the time", () => {
    const { image, clock, frames, stream, screen } = setup(3840, 2160, 0.005);
    stream.setDemand(demand(), [screen]);
    const pixelsBy: number[] = [];
    for (let step = 1; step <= 40; step += 1) {
      fillRect(image, 0, 0, 3840, 2160, step % 2 === 0 ? [200, 10, 10] : [10, 10, 200]);
      clock.advance(50);
      for (const frame of frames.splice(0)) {
        stream.ack(frame.seq);
        pixelsBy.push(frame.rects.reduce((sum, r) => sum + r.w * r.h, 0));
      }
    }
    const total = pixelsBy.reduce((sum, pixels) => sum + pixels, 0);
    // 2 s: what the server lets through is its burst and two seconds of its rate; the app keeps under ¾ of it.
    expect(total).toBeGreaterThanOrEqual(3840 * 2160 * 4);
    expect(total).toBeLessThanOrEqual(PIXEL_PACE.burst + PIXEL_PACE.perSecond * 2);
    expect(total).toBeLessThan(SCREEN_LIMITS.pairingBurstPixels + SCREEN_LIMITS.pairingPixelsPerSecond * 2);
    expect(Math.max(...pixelsBy)).toBeLessThanOrEqual(SCREEN_LIMITS.pairingBurstPixels);
  });

  it("paces captures at maxFps", () => {
    const { clock, capturer, stream, screen } = setup();
    stream.setDemand(demand(), [screen]);
    clock.advance(0);
    stream.ack(1);
    clock.advance(1_000);
    // One capture every 50 ms.
    expect(capturer.grabs).toHaveLength(21);
  });

  it("sends the changed tile only, as a frame that is not full", () => {
    const { image, clock, frames, stream, screen } = setup();
    stream.setDemand(demand(), [screen]);
    clock.advance(0);
    stream.ack(1);
    fillRect(image, 70, 10, 3, 3, [255, 255, 255]);
    clock.advance(50);
    expect(frames).toHaveLength(2);
    expect(frames[1]).toMatchObject({ seq: 2, full: false });
    expect(frames[1]!.rects.map(({ x, y, w, h }) => ({ x, y, w, h }))).toEqual([{ x: 64, y: 0, w: 64, h: 64 }]);
  });

  it("keeps at most framesInFlight frames unacknowledged, skipping captures, then sends everything changed", () => {
    const { image, clock, frames, stream, screen } = setup();
    stream.setDemand(demand(), [screen]);
    clock.advance(0);
    fillRect(image, 0, 70, 1, 1, [255, 0, 0]);
    clock.advance(50);
    expect(frames).toHaveLength(SCREEN_LIMITS.framesInFlight);
    // Changes while both frames wait: nothing is captured or sent.
    fillRect(image, 130, 0, 1, 1, [0, 255, 0]);
    clock.advance(50);
    fillRect(image, 200, 100, 1, 1, [0, 0, 255]);
    clock.advance(200);
    expect(frames).toHaveLength(2);
    expect(stream.stats.capturesSkipped).toBe(5);
    stream.ack(2);
    clock.advance(50);
    expect(frames).toHaveLength(3);
    expect(frames[2]!.rects.map(({ x, y }) => [x, y])).toEqual([
      [128, 0],
      [192, 64],
    ]);
  });

  it("counts a frame unacknowledged for ackTimeoutMs as lost and sends a full picture next", () => {
    const { clock, frames, stream, screen } = setup();
    stream.setDemand(demand(), [screen]);
    clock.advance(0);
    clock.advance(SCREEN_LIMITS.ackTimeoutMs - 50);
    expect(frames).toHaveLength(1);
    clock.advance(50);
    expect(frames).toHaveLength(2);
    expect(frames[1]).toMatchObject({ seq: 2, full: true });
    expect(area([frames[1]!])).toBe(256 * 128);
    expect(stream.stats.framesLost).toBe(1);
  });

  it("a new refresh value, another monitor or a moved one makes the next picture full", () => {
    const { clock, frames, stream, screen } = setup();
    stream.setDemand(demand(0), [screen, OTHER]);
    clock.advance(0);
    stream.ack(1);
    stream.setDemand(demand(0), [screen, OTHER]);
    clock.advance(100);
    expect(frames).toHaveLength(1);

    stream.setDemand(demand(1), [screen, OTHER]);
    clock.advance(50);
    expect(frames.at(-1)).toMatchObject({ seq: 2, full: true, screen: "HDMI-1" });
    stream.ack(2);

    stream.setDemand(demand(1, "DP-2"), [screen, OTHER]);
    clock.advance(50);
    expect(frames.at(-1)).toMatchObject({ seq: 3, full: true, screen: "DP-2" });
    stream.ack(3);

    stream.setDemand(demand(1, "DP-2"), [screen, { ...OTHER, x: 512 }]);
    clock.advance(50);
    expect(frames.at(-1)).toMatchObject({ seq: 4, full: true });
  });

  it("stops on an inactive demand and starts again with a full picture", () => {
    const { clock, frames, capturer, stream, screen } = setup();
    stream.setDemand(demand(), [screen]);
    clock.advance(0);
    stream.setDemand({ active: false, screen: null, refresh: 0 }, [screen]);
    expect(stream.active).toBe(false);
    const grabs = capturer.grabs.length;
    clock.advance(1_000);
    expect(capturer.grabs).toHaveLength(grabs);
    stream.setDemand(demand(), [screen]);
    clock.advance(0);
    expect(frames.at(-1)).toMatchObject({ seq: 2, full: true });
  });

  it("splits a full picture into frames under frameBytes, the first one only being full", () => {
    // 0.5 byte a pixel: a 1920 × 1080 picture is ~1 MB of "JPEG", about ten frames.
    const { clock, frames, stream, screen } = setup(1920, 1080, 0.5);
    stream.setDemand(demand(), [screen]);
    clock.advance(0);
    expect(frames).toHaveLength(SCREEN_LIMITS.framesInFlight);
    for (let i = 0; i < 40 && area(frames) < 1920 * 1080; i++) {
      for (const frame of frames) stream.ack(frame.seq);
      clock.advance(50);
    }
    expect(area(frames)).toBe(1920 * 1080);
    expect(frames.length).toBeGreaterThanOrEqual(9);
    expect(frames.filter((frame) => frame.full).map((frame) => frame.seq)).toEqual([1]);
    for (const frame of frames) {
      expect(frameBytes(frame)).toBeLessThanOrEqual(SCREEN_LIMITS.frameBytes);
      expect(frame.rects.length).toBeLessThanOrEqual(SCREEN_LIMITS.frameRects);
      // Horizontal bands of whole tile rows.
      for (const rect of frame.rects) expect(rect.y % 64).toBe(0);
    }
    const sent = frames.length;
    for (const frame of frames) stream.ack(frame.seq);
    clock.advance(500);
    expect(frames).toHaveLength(sent);
  });

  it("halves a band whose JPEG is larger than a frame (noise-like content)", () => {
    // 2 bytes a pixel: one 1920 × 64 band is 245 KB, a 64 × 64 tile 8 KB.
    const { clock, frames, encoder, stream, screen } = setup(1920, 128, 2);
    stream.setDemand(demand(), [screen]);
    clock.advance(0);
    expect(encoder.calls.some((rect) => rect.w < 1920)).toBe(true);
    for (const frame of frames) expect(frameBytes(frame)).toBeLessThanOrEqual(SCREEN_LIMITS.frameBytes);
  });

  it("never puts more than frameRects rectangles in a frame", () => {
    const { image, clock, frames, stream, screen } = setup(2560, 1440, 0.01);
    stream.setDemand(demand(), [screen]);
    clock.advance(0);
    for (const frame of frames) stream.ack(frame.seq);
    const before = frames.length;
    // A checkerboard of changed tiles: 460 separate rectangles.
    for (let row = 0; row < 23; row++) {
      for (let column = row % 2; column < 40; column += 2) fillRect(image, column * 64, row * 64, 1, 1, [255, 0, 0]);
    }
    clock.advance(50);
    const after = frames.slice(before);
    expect(after).toHaveLength(2);
    expect(after.map((frame) => frame.rects.length)).toEqual([
      SCREEN_LIMITS.frameRects,
      460 - SCREEN_LIMITS.frameRects,
    ]);
  });

  it("goes on after a capture error, reporting it", () => {
    const { clock, frames, capturer, stream, screen } = setup();
    const onError = vi.fn();
    const failing = new ScreenStream(
      {
        ...capturer,
        grab: () => {
          throw new Error("refusé");
        },
      },
      fakeEncoder(),
      (frame) => frames.push(frame),
      { clock, onError },
    );
    failing.setDemand(demand(), [screen]);
    clock.advance(100);
    expect(onError).toHaveBeenCalledTimes(3);
    expect(failing.stats.errors).toBe(3);
    expect(frames).toEqual([]);
    failing.stop();
    stream.stop();
  });
});

describe("pickDemandedScreen", () => {
  it("takes the asked monitor, else the primary one, else the first", () => {
    expect(pickDemandedScreen("DP-2", [SCREEN, OTHER])).toBe(OTHER);
    expect(pickDemandedScreen("absent", [OTHER, SCREEN])).toBe(SCREEN);
    expect(pickDemandedScreen(null, [OTHER])).toBe(OTHER);
    expect(pickDemandedScreen(null, [])).toBeNull();
  });
});
