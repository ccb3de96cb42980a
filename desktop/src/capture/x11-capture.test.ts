/**
 * The X11 capturer's logic (issue 26) over a fake `X11CaptureApi`: the
 * screen's rectangle read from its offset, the shared-memory fallback, the
 * pointer blended in, and the French reasons when capture is impossible.
 * `x11-capture.xvfb.test.ts` runs the real Xlib.
 */
import { describe, expect, it } from "vitest";
import type { Screen } from "#app/remote-support/device-protocol.ts";
import { createCapturer } from "./capturer.ts";
import { fillRect, makeImage, pixel } from "./test-images.ts";
import type { X11CaptureApi, X11CursorImage, X11PixelFormat, X11ShmImage } from "./x11-capture-native.ts";
import { createX11Capturer, drawCursor, WAYLAND_CAPTURE_REASON, X11Capturer } from "./x11-capture.ts";

const BGRX: X11PixelFormat = {
  depth: 24,
  bitsPerPixel: 32,
  byteOrder: 0,
  redMask: 0xff0000,
  greenMask: 0xff00,
  blueMask: 0xff,
};

/** A 400 × 200 root window: left half grey, right half blue; records every request. */
function fakeApi(options: { shm?: boolean; shmAttaches?: boolean; cursor?: X11CursorImage | null } = {}) {
  const root = makeImage(400, 200, [100, 100, 100]);
  fillRect(root, 200, 0, 200, 200, [0, 0, 255]);
  const calls: string[] = [];
  const copy = (x: number, y: number, width: number, height: number, into: Uint8Array, stride: number) => {
    if (x < 0 || y < 0 || x + width > root.width || y + height > root.height) return false;
    for (let row = 0; row < height; row++) {
      const start = (y + row) * root.stride + x * 4;
      into.set(root.data.subarray(start, start + width * 4), row * stride);
    }
    return true;
  };
  const api: X11CaptureApi & { root: typeof root; calls: string[] } = {
    root,
    calls,
    rootSize: () => (calls.push("rootSize"), { width: root.width, height: root.height }),
    pixelFormat: () => BGRX,
    shmAvailable: options.shm ?? true,
    createShmImage(width, height) {
      calls.push(`createShm ${width}x${height}`);
      if (options.shmAttaches === false) return null;
      return { width, height, stride: width * 4, data: new Uint8Array(width * 4 * height) };
    },
    shmGet(image: X11ShmImage, x, y) {
      calls.push(`shmGet ${x},${y}`);
      return copy(x, y, image.width, image.height, image.data, image.stride);
    },
    destroyShmImage: () => void calls.push("destroyShm"),
    getImage(x, y, width, height, into, stride) {
      calls.push(`getImage ${x},${y} ${width}x${height}`);
      return copy(x, y, width, height, into, stride);
    },
    cursor: () => options.cursor ?? null,
    close: () => void calls.push("close"),
  };
  return api;
}

const screen = (x: number, y: number, width: number, height: number): Screen => ({
  id: `${x}`,
  x,
  y,
  width,
  height,
  scale: 1,
  primary: false,
});

describe("X11Capturer", () => {
  it("reads only the screen's rectangle of the root window, through shared memory", () => {
    const api = fakeApi();
    const capturer = new X11Capturer(api);
    const image = capturer.grab(screen(200, 0, 200, 200));
    expect(image).toMatchObject({ width: 200, height: 200 });
    expect(pixel(image, 10, 10)).toEqual([0, 0, 255]);
    const left = capturer.grab(screen(0, 0, 200, 200));
    expect(pixel(left, 199, 199)).toEqual([100, 100, 100]);
    expect(api.calls.filter((call) => call.startsWith("shmGet"))).toEqual(["shmGet 200,0", "shmGet 0,0"]);
    expect(capturer.usingShm).toBe(true);
    capturer.close();
    capturer.close();
    expect(api.calls.filter((call) => call === "close")).toHaveLength(1);
  });

  it("clips a screen reaching past the root window", () => {
    const capturer = new X11Capturer(fakeApi());
    const image = capturer.grab(screen(300, 100, 200, 200));
    expect(image).toMatchObject({ width: 100, height: 100 });
  });

  it("falls back to XGetImage when the segment cannot be attached (remote display)", () => {
    const api = fakeApi({ shmAttaches: false });
    const capturer = new X11Capturer(api);
    const image = capturer.grab(screen(150, 50, 100, 100));
    expect(capturer.usingShm).toBe(false);
    expect(api.calls).toContain("getImage 150,50 100x100");
    expect(pixel(image, 0, 0)).toEqual([100, 100, 100]);
    expect(pixel(image, 99, 0)).toEqual([0, 0, 255]);
  });

  it("throws in French when the screen lies outside the root window", () => {
    const capturer = new X11Capturer(fakeApi());
    expect(() => capturer.grab(screen(1000, 0, 100, 100))).toThrow(/en dehors de l'affichage/);
  });

  it("draws the pointer at its hot spot, relative to the screen's offset", () => {
    // A 3 × 3 opaque white pointer with its hot spot in the middle, at root (250, 20).
    const pixels = new Uint32Array(9).fill(0xffffffff);
    pixels[0] = 0; // transparent corner
    const cursor: X11CursorImage = { serial: 1, x: 250, y: 20, xhot: 1, yhot: 1, width: 3, height: 3, pixels };
    const capturer = new X11Capturer(fakeApi({ cursor }));
    const image = capturer.grab(screen(200, 0, 200, 200));
    expect(pixel(image, 50, 20)).toEqual([255, 255, 255]);
    expect(pixel(image, 51, 21)).toEqual([255, 255, 255]);
    expect(pixel(image, 49, 19)).toEqual([0, 0, 255]);
    expect(pixel(image, 53, 20)).toEqual([0, 0, 255]);
  });
});

describe("drawCursor", () => {
  it("blends premultiplied ARGB and clips at the picture's edges", () => {
    const image = makeImage(4, 4, [200, 100, 0]);
    // Half-transparent black (premultiplied: colour 0) and half-transparent white (colour 0x80).
    const pixels = new Uint32Array([0x80000000, 0x80808080, 0xff00ff00, 0x00000000]);
    drawCursor(image, { x: 3, y: -1, xhot: 0, yhot: 0, width: 2, height: 2, pixels }, 0, -2);
    // Root (3, -1) is picture (3, 1): only the left column of the pointer fits.
    expect(pixel(image, 3, 1)).toEqual([100, 50, 0]);
    expect(pixel(image, 3, 2)).toEqual([0, 255, 0]);
    expect(pixel(image, 2, 1)).toEqual([200, 100, 0]);
  });
});

describe("createX11Capturer", () => {
  it("refuses Wayland sessions in French, without opening X", async () => {
    let opened = false;
    const open = async () => ((opened = true), { reason: "jamais" });
    for (const env of [{ XDG_SESSION_TYPE: "wayland", DISPLAY: ":0" }, { WAYLAND_DISPLAY: "wayland-0" }]) {
      const capturer = await createX11Capturer({ env, open });
      expect(capturer.status()).toEqual({ ok: false, reason: WAYLAND_CAPTURE_REASON });
      expect(() => capturer.grab(screen(0, 0, 10, 10))).toThrow(WAYLAND_CAPTURE_REASON);
    }
    expect(opened).toBe(false);
  });

  it("says why without DISPLAY, or when the display cannot be opened", async () => {
    const none = await createX11Capturer({ env: {} });
    expect(none.status()).toMatchObject({ ok: false, reason: expect.stringContaining("DISPLAY") });
    const refused = await createX11Capturer({ env: { DISPLAY: ":9" }, open: async () => ({ reason: "Pas de X." }) });
    expect(refused.status()).toEqual({ ok: false, reason: "Pas de X." });
  });

  it("refuses a pixel format other than 32-bit BGRX, and closes the display", async () => {
    const api = fakeApi();
    api.pixelFormat = () => ({
      ...BGRX,
      depth: 16,
      bitsPerPixel: 16,
      redMask: 0xf800,
      greenMask: 0x7e0,
      blueMask: 0x1f,
    });
    const capturer = await createX11Capturer({ env: { DISPLAY: ":9" }, open: async () => ({ api }) });
    expect(capturer.status()).toMatchObject({ ok: false, reason: expect.stringContaining("16 bits") });
    expect(api.calls).toContain("close");
  });
});

describe("createCapturer", () => {
  it("gives the Windows and macOS backends (here their libraries are missing: a French reason), none elsewhere", async () => {
    for (const [platform, library] of [
      ["win32", /user32\.dll/],
      ["darwin", /CoreGraphics/],
    ] as const) {
      const capturer = await createCapturer(platform);
      const status = capturer.status();
      expect(status.ok).toBe(false);
      expect(!status.ok && status.reason).toMatch(library);
      expect(!status.ok && status.reason).not.toMatch(/prochaine version/);
      expect(() => capturer.grab(screen(0, 0, 1, 1))).toThrow(library);
    }
    expect((await createCapturer("aix")).status()).toMatchObject({ ok: false });
  });

  it("gives the X11 capturer on Linux (here without DISPLAY: its reason)", async () => {
    const capturer = await createCapturer("linux", { env: {} });
    expect(capturer.status()).toMatchObject({ ok: false, reason: expect.stringContaining("X11") });
  });
});
