/**
 * The libjpeg-turbo encoder (issue 26) on synthetic BGRX pictures: valid
 * JPEG files of the rectangle's size, colours back within tolerance after
 * decoding, sub-rectangles read in place through the stride.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JpegDecoder, JpegEncoder } from "./jpeg.ts";
import { createJpegDecoder, createJpegEncoder, DEFAULT_JPEG_QUALITY } from "./jpeg.ts";
import type { Rgb } from "./test-images.ts";
import { colourDistance, fillRect, makeImage, pixel } from "./test-images.ts";
import { turbojpegInPackage } from "./turbojpeg-library.ts";
import { readJpegHeader } from "#app/remote-support/jpeg-header.ts";

/** Width and height from the first SOF marker (baseline SOF0 or any other SOFn). */
function sofSize(jpeg: Uint8Array): { width: number; height: number } | null {
  let offset = 2;
  while (offset + 9 < jpeg.length) {
    if (jpeg[offset] !== 0xff) return null;
    const marker = jpeg[offset + 1]!;
    const length = (jpeg[offset + 2]! << 8) | jpeg[offset + 3]!;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return {
        height: (jpeg[offset + 5]! << 8) | jpeg[offset + 6]!,
        width: (jpeg[offset + 7]! << 8) | jpeg[offset + 8]!,
      };
    }
    offset += 2 + length;
  }
  return null;
}

const RED: Rgb = [220, 30, 30];
const GREEN: Rgb = [30, 200, 60];
const BLUE: Rgb = [20, 40, 230];
const WHITE: Rgb = [250, 250, 250];

/** 320 × 240 with a stride padded by 32 bytes: four coloured quarters. */
function quarters() {
  const image = makeImage(320, 240, WHITE, 32);
  fillRect(image, 0, 0, 160, 120, RED);
  fillRect(image, 160, 0, 160, 120, GREEN);
  fillRect(image, 0, 120, 160, 120, BLUE);
  return image;
}

let encoder: JpegEncoder;
let decoder: JpegDecoder;

beforeAll(async () => {
  encoder = await createJpegEncoder();
  decoder = await createJpegDecoder();
});

afterAll(() => {
  encoder?.close();
  decoder?.close();
});

describe("JPEG encoder", () => {
  it("loads libjpeg-turbo from the registry package", () => {
    expect(encoder.status()).toEqual({ ok: true });
  });

  it("encodes a whole picture into a JPEG of its size whose colours decode back", () => {
    const image = quarters();
    const jpeg = encoder.encode(image, { x: 0, y: 0, w: 320, h: 240 }, DEFAULT_JPEG_QUALITY);
    expect([jpeg[0], jpeg[1]]).toEqual([0xff, 0xd8]);
    expect([jpeg.at(-2), jpeg.at(-1)]).toEqual([0xff, 0xd9]);
    expect(sofSize(jpeg)).toEqual({ width: 320, height: 240 });
    const decoded = decoder.decode(jpeg);
    expect(decoded).toMatchObject({ width: 320, height: 240 });
    for (const [x, y, colour] of [
      [80, 60, RED],
      [240, 60, GREEN],
      [80, 180, BLUE],
      [240, 180, WHITE],
    ] as const) {
      expect(colourDistance(pixel(decoded, x, y), colour)).toBeLessThanOrEqual(12);
    }
  });

  it("encodes a sub-rectangle in place, reading rows through the stride", () => {
    const image = quarters();
    // Straddles the four quarters: 100 × 80 from (110, 80).
    const jpeg = encoder.encode(image, { x: 110, y: 80, w: 100, h: 80 }, DEFAULT_JPEG_QUALITY);
    expect(sofSize(jpeg)).toEqual({ width: 100, height: 80 });
    // Issue 37 §1: what the server checks of every rectangle passes.
    expect(readJpegHeader(jpeg)).toMatchObject({ width: 100, height: 80 });
    const decoded = decoder.decode(jpeg);
    expect(colourDistance(pixel(decoded, 20, 15), RED)).toBeLessThanOrEqual(12);
    expect(colourDistance(pixel(decoded, 80, 15), GREEN)).toBeLessThanOrEqual(12);
    expect(colourDistance(pixel(decoded, 20, 65), BLUE)).toBeLessThanOrEqual(12);
    expect(colourDistance(pixel(decoded, 80, 65), WHITE)).toBeLessThanOrEqual(12);
  });

  it("gives smaller files at lower quality", () => {
    const image = makeImage(256, 256, WHITE);
    for (let i = 0; i < 256; i += 4) fillRect(image, i, (i * 7) % 256, 3, 40, [i, 255 - i, (i * 3) % 256]);
    const low = encoder.encode(image, { x: 0, y: 0, w: 256, h: 256 }, 30);
    const high = encoder.encode(image, { x: 0, y: 0, w: 256, h: 256 }, 95);
    expect(low.byteLength).toBeLessThan(high.byteLength);
    // Each result is the caller's own copy.
    expect(low.buffer).not.toBe(high.buffer);
    expect([low[0], low[1]]).toEqual([0xff, 0xd8]);
  });

  it("refuses a rectangle outside the picture", () => {
    const image = makeImage(64, 64);
    expect(() => encoder.encode(image, { x: 32, y: 0, w: 64, h: 64 }, 70)).toThrow(RangeError);
    expect(() => encoder.encode(image, { x: 0, y: 0, w: 0, h: 64 }, 70)).toThrow(RangeError);
  });

  it("reports libjpeg-turbo's error on a broken JPEG", () => {
    expect(() => decoder.decode(new Uint8Array([0xff, 0xd8, 0xff, 0x00, 1, 2, 3]))).toThrow(/Décodage JPEG impossible/);
  });
});

describe("turbojpegInPackage", () => {
  it("names the library shipped for Linux and macOS, none for Windows", () => {
    expect(turbojpegInPackage("linux", "x64")).toBe("prebuilds/jpeg-turbo-linux-x64/libturbojpeg.so.0");
    expect(turbojpegInPackage("linux", "x64", true)).toBe("prebuilds/jpeg-turbo-linux-x64-musl/libturbojpeg.so.0");
    expect(turbojpegInPackage("darwin", "arm64")).toBe("prebuilds/jpeg-turbo-darwin-arm64/node-napi-v10.node");
    expect(turbojpegInPackage("win32", "x64")).toBeNull();
  });
});
