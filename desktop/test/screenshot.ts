/**
 * Screenshots of an X display for the desktop app's tests (issue 27, "the
 * window appears (screenshot in the test's artifacts)"): the app's own X11
 * capturer grabs the root window and a minimal PNG encoder (zlib, no
 * dependency) writes it, so no ImageMagick or xwd is needed.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { deflateSync } from "node:zlib";
import { createX11Capturer } from "../src/capture/x11-capture.ts";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG (8-bit RGB) of BGRX pixels, rows `stride` bytes apart. */
export function encodePng(width: number, height: number, stride: number, bgrx: Uint8Array): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      const from = y * stride + x * 4;
      raw[row + 1 + x * 3] = bgrx[from + 2]!;
      raw[row + 2 + x * 3] = bgrx[from + 1]!;
      raw[row + 3 + x * 3] = bgrx[from]!;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", new Uint8Array(0)),
  ]);
}

/** Saves the `width` × `height` top-left part of `display`'s screen as a PNG at `file`; returns the file. */
export async function screenshot(display: string, width: number, height: number, file: string): Promise<string> {
  const capturer = await createX11Capturer({ env: { DISPLAY: display } });
  try {
    const image = capturer.grab({ id: "ecran", x: 0, y: 0, width, height, scale: 1, primary: true });
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, encodePng(image.width, image.height, image.stride, image.data));
    return file;
  } finally {
    capturer.close();
  }
}
