/**
 * Issue 37 §1: `readJpegHeader` reads the SOF size of well-formed headers (baseline, progressive, with fill bytes,
 * restart markers and several comments), and gives null, never an exception, on anything else: truncations at
 * every length, hostile segment lengths, other frame types, a second SOF, and random or mutated bytes.
 */
import { describe, expect, it } from "vitest";
import { readJpegHeader } from "./jpeg-header.ts";
import { fakeJpeg } from "./jpeg-testing.ts";

/** `bytes` as a fresh array (tests mutate copies). */
const bytesOf = (...parts: (number[] | Uint8Array)[]) => new Uint8Array(parts.flatMap((part) => [...part]));
const SOI = [0xff, 0xd8];
const sof = (code: number, width: number, height: number, components = 3, precision = 8) => {
  const body = [precision, height >> 8, height & 255, width >> 8, width & 255, components];
  for (let id = 1; id <= components; id += 1) body.push(id, 0x11, 0);
  return [0xff, code, (body.length + 2) >> 8, (body.length + 2) & 255, ...body];
};
const SOS = [0xff, 0xda, 0, 8, 1, 1, 0, 0, 63, 0, 0x12, 0x34, 0xff, 0xd9];
const DQT = [0xff, 0xdb, 0, 67, 0, ...new Array<number>(64).fill(1)];

/** A small deterministic generator (xorshift32), so that a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

describe("readJpegHeader", () => {
  it("reads the size of baseline, extended and progressive frames", () => {
    expect(readJpegHeader(bytesOf(SOI, DQT, sof(0xc0, 1920, 1080), SOS))).toEqual({
      width: 1920,
      height: 1080,
      components: 3,
      progressive: false,
    });
    expect(readJpegHeader(bytesOf(SOI, sof(0xc1, 64, 32, 1), SOS))).toMatchObject({ width: 64, height: 32 });
    expect(readJpegHeader(fakeJpeg(7600, 7600, { progressive: true }))).toEqual({
      width: 7600,
      height: 7600,
      components: 3,
      progressive: true,
    });
    expect(readJpegHeader(fakeJpeg(65_535, 1, { bytes: 200_000 }))).toMatchObject({ width: 65_535, height: 1 });
    expect(readJpegHeader(fakeJpeg(3, 2).buffer as ArrayBuffer)).toMatchObject({ width: 3, height: 2 });
  });

  it("skips fill bytes, TEM and restart markers between segments", () => {
    const jpeg = bytesOf(SOI, [0xff, 0xff, 0xff], DQT, [0xff, 0x01, 0xff, 0xd3], sof(0xc0, 10, 20), SOS);
    expect(readJpegHeader(jpeg)).toMatchObject({ width: 10, height: 20 });
  });

  it("refuses every truncation of a valid header, without throwing", () => {
    const whole = bytesOf(SOI, DQT, sof(0xc2, 640, 480), SOS);
    const scanAt = whole.length - SOS.length;
    for (let length = 0; length < scanAt + 4; length += 1) {
      expect(readJpegHeader(whole.subarray(0, length)), `${length} bytes`).toBeNull();
    }
    expect(readJpegHeader(whole.subarray(0, scanAt + 10))).toMatchObject({ width: 640 });
  });

  it("refuses hostile and foreign headers", () => {
    const hostile: [string, Uint8Array][] = [
      ["empty", bytesOf([])],
      ["PNG", bytesOf([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
      ["no SOI", bytesOf(sof(0xc0, 8, 8), SOS)],
      ["no SOF", bytesOf(SOI, DQT, SOS)],
      ["no scan", bytesOf(SOI, sof(0xc0, 8, 8), [0xff, 0xd9])],
      ["EOI before the scan", bytesOf(SOI, [0xff, 0xd9], sof(0xc0, 8, 8), SOS)],
      ["a second SOI", bytesOf(SOI, SOI, sof(0xc0, 8, 8), SOS)],
      ["two SOFs", bytesOf(SOI, sof(0xc0, 8, 8), sof(0xc0, 7600, 7600), SOS)],
      ["lossless SOF3", bytesOf(SOI, sof(0xc3, 8, 8), SOS)],
      ["arithmetic SOF9", bytesOf(SOI, sof(0xc9, 8, 8), SOS)],
      ["hierarchical SOF5", bytesOf(SOI, sof(0xc5, 8, 8), SOS)],
      ["height from a DNL (0)", bytesOf(SOI, sof(0xc0, 8, 0), SOS)],
      ["width 0", bytesOf(SOI, sof(0xc0, 0, 8), SOS)],
      ["12-bit precision", bytesOf(SOI, sof(0xc1, 8, 8, 3, 12), SOS)],
      ["no component", bytesOf(SOI, sof(0xc0, 8, 8, 0), SOS)],
      ["five components", bytesOf(SOI, sof(0xc0, 8, 8, 5), SOS)],
      ["SOF length too short", bytesOf(SOI, [0xff, 0xc0, 0, 7, 8, 0, 8, 0, 8], SOS)],
      ["SOF length beyond its components", bytesOf(SOI, [0xff, 0xc0, 0, 12, 8, 0, 8, 0, 8, 1, 1, 0x11, 0, 0], SOS)],
      ["segment length 0", bytesOf(SOI, [0xff, 0xfe, 0, 0], sof(0xc0, 8, 8), SOS)],
      ["segment length 1", bytesOf(SOI, [0xff, 0xfe, 0, 1], sof(0xc0, 8, 8), SOS)],
      ["segment past the end", bytesOf(SOI, [0xff, 0xfe, 0xff, 0xff, 1, 2, 3])],
      ["FF00 as a marker", bytesOf(SOI, [0xff, 0x00], sof(0xc0, 8, 8), SOS)],
      ["garbage between segments", bytesOf(SOI, [0x12], sof(0xc0, 8, 8), SOS)],
      ["only fill bytes", bytesOf(SOI, new Array<number>(1000).fill(0xff))],
      ["SOS length past the end", bytesOf(SOI, sof(0xc0, 8, 8), [0xff, 0xda, 0x40, 0])],
    ];
    for (const [name, bytes] of hostile) expect(readJpegHeader(bytes), name).toBeNull();
    expect(readJpegHeader("not bytes" as unknown as Uint8Array)).toBeNull();
    expect(readJpegHeader(null as unknown as Uint8Array)).toBeNull();
  });

  it("never throws on random bytes or on mutations of a valid header (fuzz)", () => {
    const next = random(37);
    const valid = bytesOf(SOI, DQT, sof(0xc2, 300, 200), SOS);
    for (let round = 0; round < 20_000; round += 1) {
      let bytes: Uint8Array;
      if (round % 2 === 0) {
        bytes = new Uint8Array(Math.floor(next() * 200));
        for (let i = 0; i < bytes.length; i += 1) bytes[i] = next() < 0.3 ? 0xff : Math.floor(next() * 256);
        if (next() < 0.5 && bytes.length >= 2) bytes.set(SOI, 0);
      } else {
        bytes = valid.slice(0, Math.floor(next() * (valid.length + 1)));
        for (let flips = Math.floor(next() * 4); flips > 0 && bytes.length > 0; flips -= 1)
          bytes[Math.floor(next() * bytes.length)] = Math.floor(next() * 256);
      }
      const header = readJpegHeader(bytes);
      if (header) {
        expect(header.width).toBeGreaterThan(0);
        expect(header.height).toBeGreaterThan(0);
      }
    }
  });
});
