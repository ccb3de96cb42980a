/**
 * The X11 capturer against a real X server (issue 26): Xvfb with one
 * 2560 × 720 root window seen as two 1280 × 720 monitors side by side,
 * coloured windows drawn by the test itself through Xlib, the pointer moved
 * with `XWarpPointer`. Fails (never skips) when Xvfb is missing.
 *
 * Xvfb cannot declare RandR monitors (`xrandr --setmonitor` is refused), so
 * the two `Screen`s are written here as the injector would list them on a
 * real two-monitor desktop: rectangles of the one root window.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Screen } from "#app/remote-support/device-protocol.ts";
import { startXvfb, type Xvfb } from "../../test/xvfb.ts";
import { loadKoffi } from "../input/koffi.ts";
import type { CapturedImage, ScreenCapturer } from "./capturer.ts";
import type { Rgb } from "./test-images.ts";
import { colourDistance, pixel } from "./test-images.ts";
import { openX11Capture } from "./x11-capture-native.ts";
import { createX11Capturer, X11Capturer } from "./x11-capture.ts";

const LEFT: Screen = { id: "GAUCHE", x: 0, y: 0, width: 1280, height: 720, scale: 1, primary: true };
const RIGHT: Screen = { id: "DROITE", x: 1280, y: 0, width: 1280, height: 720, scale: 1, primary: false };
const BACKGROUND: Rgb = [0x33, 0x66, 0x99];
const RED: Rgb = [255, 0, 0];
const GREEN: Rgb = [0, 255, 0];
const YELLOW: Rgb = [255, 255, 0];

const toPixel = ([red, green, blue]: Rgb) => (red << 16) | (green << 8) | blue;

/** A second client that paints windows of plain colours and moves the pointer. */
async function openPainter(display: string) {
  const koffi = await loadKoffi();
  const x11 = koffi.load("libX11.so.6");
  const f = {
    XOpenDisplay: x11.func("void *XOpenDisplay(const char *name)"),
    XCloseDisplay: x11.func("int XCloseDisplay(void *dpy)"),
    XRootWindow: x11.func("unsigned long XRootWindow(void *dpy, int screen)"),
    XCreateSimpleWindow: x11.func(
      "unsigned long XCreateSimpleWindow(void *dpy, unsigned long parent, int x, int y, unsigned int w, " +
        "unsigned int h, unsigned int border, unsigned long borderPixel, unsigned long background)",
    ),
    XMapWindow: x11.func("int XMapWindow(void *dpy, unsigned long window)"),
    XSetWindowBackground: x11.func("int XSetWindowBackground(void *dpy, unsigned long window, unsigned long pixel)"),
    XClearWindow: x11.func("int XClearWindow(void *dpy, unsigned long window)"),
    XWarpPointer: x11.func(
      "int XWarpPointer(void *dpy, unsigned long source, unsigned long destination, int sx, int sy, " +
        "unsigned int sw, unsigned int sh, int x, int y)",
    ),
    XSync: x11.func("int XSync(void *dpy, int discard)"),
  };
  const dpy: unknown = f.XOpenDisplay(display);
  if (!dpy) throw new Error(`Affichage ${display} injoignable`);
  const root: number = f.XRootWindow(dpy, 0);
  return {
    background(colour: Rgb) {
      f.XSetWindowBackground(dpy, root, toPixel(colour));
      f.XClearWindow(dpy, root);
      f.XSync(dpy, 0);
    },
    // No window manager: the window sits exactly where it is put.
    window(x: number, y: number, width: number, height: number, colour: Rgb) {
      const window = f.XCreateSimpleWindow(dpy, root, x, y, width, height, 0, 0, toPixel(colour));
      f.XMapWindow(dpy, window);
      f.XSync(dpy, 0);
    },
    pointer(x: number, y: number) {
      f.XWarpPointer(dpy, 0, root, 0, 0, 0, 0, x, y);
      f.XSync(dpy, 0);
    },
    close: () => void f.XCloseDisplay(dpy),
  };
}

let xvfb: Xvfb;
let painter: Awaited<ReturnType<typeof openPainter>>;
let capturer: ScreenCapturer;

const near = (image: CapturedImage, x: number, y: number, colour: Rgb) =>
  colourDistance(pixel(image, x, y), colour) <= 2;

/** Pixels unlike `colour` in the 40 × 40 box centred on (x, y). */
function foreign(image: CapturedImage, x: number, y: number, colour: Rgb): number {
  let count = 0;
  for (let row = y - 20; row < y + 20; row++) {
    for (let column = x - 20; column < x + 20; column++) if (!near(image, column, row, colour)) count++;
  }
  return count;
}

beforeAll(async () => {
  xvfb = await startXvfb(2560, 720);
  painter = await openPainter(xvfb.display);
  painter.background(BACKGROUND);
  painter.window(100, 100, 300, 200, RED);
  painter.window(1280 + 200, 150, 400, 300, GREEN);
  // Across the border between the two monitors.
  painter.window(1180, 500, 200, 100, YELLOW);
  painter.pointer(1280 + 1000, 600);
  capturer = await createX11Capturer({ env: { DISPLAY: xvfb.display } });
}, 30_000);

afterAll(async () => {
  capturer?.close();
  painter?.close();
  await xvfb?.stop();
});

describe("X11 capture under Xvfb", () => {
  it("works, through shared memory", () => {
    expect(capturer.status()).toEqual({ ok: true });
    expect((capturer as X11Capturer).usingShm).toBe(true);
  });

  it("grabs the left monitor: background, its window, its half of the straddling one", async () => {
    await expect.poll(() => near(capturer.grab(LEFT), 150, 150, RED)).toBe(true);
    const image = capturer.grab(LEFT);
    expect(image).toMatchObject({ width: 1280, height: 720 });
    expect(pixel(image, 10, 10)).toEqual(BACKGROUND);
    expect(pixel(image, 399, 299)).toEqual(RED);
    expect(pixel(image, 400, 300)).toEqual(BACKGROUND);
    expect(pixel(image, 1200, 550)).toEqual(YELLOW);
    expect(pixel(image, 1279, 599)).toEqual(YELLOW);
    expect(pixel(image, 1000, 300)).toEqual(BACKGROUND);
  });

  it("grabs the right monitor from its own offset", async () => {
    await expect.poll(() => near(capturer.grab(RIGHT), 250, 200, GREEN)).toBe(true);
    const image = capturer.grab(RIGHT);
    expect(image).toMatchObject({ width: 1280, height: 720 });
    expect(pixel(image, 10, 10)).toEqual(BACKGROUND);
    expect(pixel(image, 200, 150)).toEqual(GREEN);
    expect(pixel(image, 199, 150)).toEqual(BACKGROUND);
    expect(pixel(image, 0, 550)).toEqual(YELLOW);
    expect(pixel(image, 99, 550)).toEqual(YELLOW);
    expect(pixel(image, 100, 550)).toEqual(BACKGROUND);
  });

  it("grabs a small rectangle inside a window", () => {
    const image = capturer.grab({ ...LEFT, id: "petit", x: 150, y: 120, width: 100, height: 50 });
    expect(image).toMatchObject({ width: 100, height: 50 });
    expect(pixel(image, 0, 0)).toEqual(RED);
    expect(pixel(image, 99, 49)).toEqual(RED);
  });

  it("draws the pointer where it is, on the monitor it is on", () => {
    painter.pointer(1280 + 800, 400);
    const right = capturer.grab(RIGHT);
    expect(foreign(right, 800, 400, BACKGROUND)).toBeGreaterThan(10);
    expect(foreign(right, 900, 450, BACKGROUND)).toBe(0);
    // Same place on the other monitor: no pointer there.
    expect(foreign(capturer.grab(LEFT), 800, 400, BACKGROUND)).toBe(0);

    painter.pointer(1280 + 900, 450);
    const moved = capturer.grab(RIGHT);
    expect(foreign(moved, 800, 400, BACKGROUND)).toBe(0);
    expect(foreign(moved, 900, 450, BACKGROUND)).toBeGreaterThan(10);
  });

  it("gives the same picture through XGetImage when shared memory is unavailable", async () => {
    const opened = await openX11Capture(xvfb.display);
    if ("reason" in opened) throw new Error(opened.reason);
    const plain = new X11Capturer({ ...opened.api, shmAvailable: false });
    try {
      const copy = plain.grab(RIGHT);
      expect(plain.usingShm).toBe(false);
      const shared = capturer.grab(RIGHT);
      let different = 0;
      for (let y = 0; y < copy.height; y += 3) {
        for (let x = 0; x < copy.width; x += 3) {
          if (colourDistance(pixel(copy, x, y), pixel(shared, x, y)) !== 0) different++;
        }
      }
      expect(different).toBe(0);
    } finally {
      plain.close();
    }
  });
});
