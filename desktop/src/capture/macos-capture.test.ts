/**
 * The macOS capturer (issue 26) over a fake CoreGraphics that records every
 * call: the display asked of CGDisplayCreateImage (the injector's ids), the
 * Retina picture kept in device pixels with its row stride, the arrow drawn
 * where the pointer is (points → pixels), buffers reused, every image, data
 * and event released, the Screen Recording permission's French steps.
 */
import { describe, expect, it } from "vitest";
import type { Screen } from "#app/remote-support/device-protocol.ts";
import { Capture } from "#app/remote-support/screen-protocol.ts";
import type { CGPoint } from "../input/macos-native.ts";
import { loadKoffi } from "../input/koffi.ts";
import type { MacCaptureApi } from "./macos-capture-native.ts";
import {
  CORE_FOUNDATION_CAPTURE,
  CORE_GRAPHICS_CAPTURE,
  declareCGGeometry,
  OPTIONAL_CAPTURE,
} from "./macos-capture-native.ts";
import { channelOffsets, createMacCapturer, SCREEN_RECORDING_REASON } from "./macos-capture.ts";
import { arrowCursor } from "./pointer.ts";
import type { Rgb } from "./test-images.ts";
import { fillRect, makeImage, pixel } from "./test-images.ts";

const MAIN = 69_733_248;
const UPPER = 724_042_646;
const GREY: Rgb = [100, 100, 100];
const BLUE: Rgb = [0, 0, 255];
const RED: Rgb = [255, 0, 0];
/** As the injector lists them: the Retina main display 144 × 90 points (288 × 180 px), another above it. */
const MAIN_SCREEN: Screen = { id: String(MAIN), x: 0, y: 0, width: 144, height: 90, scale: 2, primary: true };
const UPPER_SCREEN: Screen = { id: String(UPPER), x: -24, y: -108, width: 192, height: 108, scale: 1, primary: false };

type FakeOptions = { granted?: boolean; pointer?: CGPoint; bitmapInfo?: number; bitsPerPixel?: number };

/** The main display grey with a red pixel at (10, 20) px, rows padded by 64 bytes; the upper one blue. */
function fakeQuartz(options: FakeOptions = {}) {
  const pictures = {
    [MAIN]: makeImage(288, 180, GREY, 64),
    [UPPER]: makeImage(192, 108, BLUE),
  } as Record<number, ReturnType<typeof makeImage>>;
  fillRect(pictures[MAIN]!, 10, 20, 1, 1, RED);
  const calls: string[] = [];
  const owned = new Set<string>();
  let next = 1;
  let granted = options.granted ?? true;
  const make = (kind: string) => {
    const ref = `${kind}${next++}`;
    owned.add(ref);
    return ref;
  };
  const image = (ref: unknown) => pictures[Number(String(ref).split(":")[1])]!;
  const api: MacCaptureApi = {
    CGPreflightScreenCaptureAccess: () => (calls.push("CGPreflightScreenCaptureAccess"), granted),
    CGRequestScreenCaptureAccess: () => (calls.push("CGRequestScreenCaptureAccess"), granted),
    CGGetActiveDisplayList(max, displays, count) {
      expect(max).toBeGreaterThanOrEqual(2);
      displays.splice(0, displays.length, MAIN, UPPER);
      count[0] = 2;
      return 0;
    },
    CGDisplayBounds: (display) =>
      display === MAIN
        ? { origin: { x: 0, y: 0 }, size: { width: 144, height: 90 } }
        : { origin: { x: -24, y: -108 }, size: { width: 192, height: 108 } },
    CGDisplayCreateImage: (display) => (calls.push(`CGDisplayCreateImage(${display})`), `${make("image")}:${display}`),
    CGImageGetWidth: (ref) => image(ref).width,
    CGImageGetHeight: (ref) => image(ref).height,
    CGImageGetBitsPerPixel: () => options.bitsPerPixel ?? 32,
    CGImageGetBytesPerRow: (ref) => image(ref).stride,
    // kCGBitmapByteOrder32Little | kCGImageAlphaPremultipliedFirst: B, G, R, A in memory.
    CGImageGetBitmapInfo: () => options.bitmapInfo ?? 0x2002,
    CGImageGetDataProvider: (ref) => `provider:${String(ref).split(":")[1]}`,
    CGDataProviderCopyData: (provider) => `${make("data")}:${String(provider).split(":")[1]}`,
    CFDataGetBytePtr: (data) => `address:${String(data).split(":")[1]}`,
    CFDataGetLength: (data) => image(data).data.byteLength,
    CFRelease: (ref) =>
      void (calls.push(`CFRelease(${String(ref).split(":")[0]})`), owned.delete(String(ref).split(":")[0]!)),
    CGImageRelease: (ref) => void (calls.push("CGImageRelease"), owned.delete(String(ref).split(":")[0]!)),
    CGEventCreate: (source) => (expect(source).toBeNull(), make("event")),
    CGEventGetLocation: () => options.pointer ?? { x: 5000, y: 5000 },
    view: (address, bytes) => image(address).data.subarray(0, bytes),
  };
  return { api, calls, owned, pictures, grant: (value: boolean) => (granted = value) };
}

/** How many pixels of `image` are pure black (the arrow's outline). */
function blackPixels(image: { width: number; height: number; stride: number; data: Uint8Array }): number {
  let count = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) if (pixel(image, x, y).every((value) => value === 0)) count++;
  }
  return count;
}

describe("macOS capturer (fake CoreGraphics)", () => {
  it("captures the injector's display in device pixels with its stride, and releases every object", async () => {
    const { api, calls, owned } = fakeQuartz();
    const capturer = await createMacCapturer({ open: async () => ({ api }) });
    expect(capturer.status()).toEqual({ ok: true });
    const image = capturer.grab(MAIN_SCREEN);
    expect(image).toMatchObject({ width: 288, height: 180, stride: 288 * 4 + 64 });
    expect(pixel(image, 10, 20)).toEqual(RED);
    expect(pixel(image, 287, 179)).toEqual(GREY);
    expect(pixel(capturer.grab(UPPER_SCREEN), 0, 0)).toEqual(BLUE);
    expect(calls.filter((call) => call.startsWith("CGDisplayCreateImage"))).toEqual([
      `CGDisplayCreateImage(${MAIN})`,
      `CGDisplayCreateImage(${UPPER})`,
    ]);
    expect(calls).not.toContain("CGRequestScreenCaptureAccess");
    // Images, their data and the pointer's events: each released.
    expect([...owned]).toEqual([]);
  });

  it("reuses its buffer while the picture's size stays", async () => {
    const { api } = fakeQuartz();
    const capturer = await createMacCapturer({ open: async () => ({ api }) });
    const first = capturer.grab(MAIN_SCREEN);
    expect(capturer.grab(MAIN_SCREEN).data).toBe(first.data);
    expect(capturer.grab(UPPER_SCREEN).data).not.toBe(first.data);
    capturer.close();
    capturer.close();
    expect(() => capturer.grab(MAIN_SCREEN)).toThrow(/fermée/);
  });

  it("draws a twice-as-large arrow at the pointer's place on a Retina display, points turned into pixels", async () => {
    const { api } = fakeQuartz({ pointer: { x: 72, y: 45 } });
    const capturer = await createMacCapturer({ open: async () => ({ api }) });
    const image = capturer.grab(MAIN_SCREEN);
    // Tip (black) at (144, 90) px; row "BWB" of the arrow is rows 4–5 at scale 2, its white at columns 2–3.
    expect(pixel(image, 144, 90)).toEqual([0, 0, 0]);
    expect(pixel(image, 146, 94)).toEqual([255, 255, 255]);
    expect(pixel(image, 143, 90)).toEqual(GREY);
    expect(blackPixels(image)).toBe(blackPixels(arrowImage(2)));
  });

  it("draws the arrow only on the display the pointer is on", async () => {
    const { api } = fakeQuartz({ pointer: { x: 72, y: -54 } });
    const capturer = await createMacCapturer({ open: async () => ({ api }) });
    expect(blackPixels(capturer.grab(MAIN_SCREEN))).toBe(0);
    const upper = capturer.grab(UPPER_SCREEN);
    expect(pixel(upper, 96, 54)).toEqual([0, 0, 0]);
    expect(blackPixels(upper)).toBe(blackPixels(arrowImage(1)));
  });

  it("without Screen Recording: asks macOS once, gives the steps in French, captures nothing", async () => {
    const { api, calls, grant } = fakeQuartz({ granted: false });
    let now = 0;
    const capturer = await createMacCapturer({ open: async () => ({ api }), now: () => now });
    expect(calls.filter((call) => call === "CGRequestScreenCaptureAccess")).toHaveLength(1);
    const status = capturer.status();
    expect(status).toEqual({ ok: false, reason: SCREEN_RECORDING_REASON });
    expect(Capture.safeParse(status).success).toBe(true);
    expect(SCREEN_RECORDING_REASON).toContain(
      "Réglages Système › Confidentialité et sécurité › Enregistrement de l'écran et de l'audio du système",
    );
    expect(SCREEN_RECORDING_REASON).toContain("« Enregistrement de l'écran » sur les versions plus anciennes");
    expect(SCREEN_RECORDING_REASON).toMatch(/« Terminal ».*quittez ce logiciel et relancez-le/);
    expect(() => capturer.grab(MAIN_SCREEN)).toThrow(SCREEN_RECORDING_REASON);
    expect(calls.some((call) => call.startsWith("CGDisplayCreateImage"))).toBe(false);
    // Granted (and relaunched, for real macOS): read again after 2 s at most, not at every capture.
    grant(true);
    const reads = calls.filter((call) => call === "CGPreflightScreenCaptureAccess").length;
    expect(capturer.status().ok).toBe(false);
    now = 2_000;
    expect(capturer.status()).toEqual({ ok: true });
    expect(calls.filter((call) => call === "CGPreflightScreenCaptureAccess")).toHaveLength(reads + 1);
  });

  it("throws in French for a display no longer connected, or a refused picture", async () => {
    const { api, calls } = fakeQuartz();
    const capturer = await createMacCapturer({ open: async () => ({ api }) });
    for (const id of ["999", "inconnu", "69733248.5"]) {
      expect(() => capturer.grab({ ...MAIN_SCREEN, id })).toThrow(/n'est plus branché/);
    }
    expect(calls.some((call) => call.startsWith("CGDisplayCreateImage"))).toBe(false);
    api.CGDisplayCreateImage = () => null;
    expect(() => capturer.grab(MAIN_SCREEN)).toThrow(/macOS a refusé la lecture de l'écran/);
  });

  it("turns another 32-bit layout into BGRX, refuses an unknown one and still releases the image", async () => {
    // Default byte order, premultiplied last: R, G, B, A in memory.
    const rgba = fakeQuartz({ bitmapInfo: 1 });
    const picture = rgba.pictures[MAIN]!;
    picture.data.set([1, 2, 3, 255], 20 * picture.stride + 10 * 4);
    const capturer = await createMacCapturer({ open: async () => ({ api: rgba.api }) });
    // Read as R, G, B: the pixel is (1, 2, 3).
    expect(pixel(capturer.grab(MAIN_SCREEN), 10, 20)).toEqual([1, 2, 3]);
    const sixteen = fakeQuartz({ bitsPerPixel: 16 });
    const refused = await createMacCapturer({ open: async () => ({ api: sixteen.api }) });
    expect(() => refused.grab(MAIN_SCREEN)).toThrow(/format des pixels/);
    expect(sixteen.calls).toContain("CGImageRelease");
    expect([...sixteen.owned]).toEqual([]);
  });

  it("reports missing frameworks or CGDisplayCreateImage in its status", async () => {
    const capturer = await createMacCapturer({ open: async () => ({ reason: "Pas de CoreGraphics." }) });
    expect(capturer.status()).toEqual({ ok: false, reason: "Pas de CoreGraphics." });
    expect(() => capturer.grab(MAIN_SCREEN)).toThrow("Pas de CoreGraphics.");
  });
});

/** The arrow alone on a white picture (to count its black pixels). */
function arrowImage(scale: number) {
  const arrow = arrowCursor(scale);
  const image = makeImage(arrow.width, arrow.height, [255, 255, 255]);
  for (let y = 0; y < arrow.height; y++) {
    for (let x = 0; x < arrow.width; x++) {
      if (arrow.pixels[y * arrow.width + x] === 0xff000000) fillRect(image, x, y, 1, 1, [0, 0, 0]);
    }
  }
  return image;
}

describe("channelOffsets", () => {
  it("finds blue, green and red in the 32-bit layouts CoreGraphics describes", () => {
    expect(channelOffsets(32, 0x2002)).toEqual({ b: 0, g: 1, r: 2 }); // 32Little, premultiplied first: BGRA
    expect(channelOffsets(32, 0x2006)).toEqual({ b: 0, g: 1, r: 2 }); // 32Little, none-skip-first: BGRX
    expect(channelOffsets(32, 0x2001)).toEqual({ b: 1, g: 2, r: 3 }); // 32Little, last: ABGR
    expect(channelOffsets(32, 0x4002)).toEqual({ b: 3, g: 2, r: 1 }); // 32Big, first: ARGB
    expect(channelOffsets(32, 0x0005)).toEqual({ b: 2, g: 1, r: 0 }); // default order, none-skip-last: RGBX
    expect(channelOffsets(24, 0x2002)).toBeNull();
    expect(channelOffsets(32, 0x2000)).toBeNull(); // no alpha byte: not a 4-byte pixel layout
    expect(channelOffsets(32, 0x1002)).toBeNull(); // 16-bit byte order
  });
});

describe("macOS capture declarations (koffi)", () => {
  it("declares every function in a form koffi parses", async () => {
    const koffi = await loadKoffi();
    declareCGGeometry(koffi);
    const all = { ...CORE_GRAPHICS_CAPTURE, ...CORE_FOUNDATION_CAPTURE, ...OPTIONAL_CAPTURE };
    for (const declaration of Object.values(all)) {
      const renamed = declaration.replace(/ \*?(\w+)\(/, (match, name: string) =>
        match.replace(name, `AtelierCheck${name}`),
      );
      expect(() => koffi.proto(renamed), declaration).not.toThrow();
    }
    expect(koffi.sizeof("AtelierCGRect")).toBe(32);
  });
});
