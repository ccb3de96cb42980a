/**
 * Issue 37 §1, for tests only: JPEG headers of any size without an encoder. `fakeJpeg` is what
 * `jpeg-header.ts` accepts (SOI, comments, SOF0 or SOF2, SOS, two bytes standing for the scan, EOI); a browser
 * cannot decode it, the server cannot tell (it reads headers only). The « JPEG bomb » of the issue is one with
 * a large `width` × `height`.
 */

/** A JPEG header saying `width` × `height` px (1–65 535), padded with comments to `bytes` bytes (default 64). */
export function fakeJpeg(
  width: number,
  height: number,
  options: { bytes?: number; progressive?: boolean } = {},
): Uint8Array {
  const sof = [
    0xff,
    options.progressive ? 0xc2 : 0xc0,
    0,
    17,
    8,
    height >> 8,
    height & 255,
    width >> 8,
    width & 255,
    3,
  ];
  for (let id = 1; id <= 3; id += 1) sof.push(id, 0x11, 0);
  const sos = [0xff, 0xda, 0, 12, 3, 1, 0, 2, 0x11, 3, 0x11, 0, 63, 0];
  const tail = [...sof, ...sos, 0x00, 0x00, 0xff, 0xd9];
  const out = new Uint8Array(Math.max(options.bytes ?? 64, 2 + tail.length));
  out.set([0xff, 0xd8], 0);
  let at = 2;
  const end = out.length - tail.length;
  while (at < end) {
    // A comment segment: FFFE, its length (≥ 2, ≤ 65 535), spaces. A gap of 1–3 bytes is filled with FF fill bytes.
    const room = end - at;
    if (room < 4) {
      out.fill(0xff, at, end);
      break;
    }
    const length = Math.min(65_535, room - 2);
    out.set([0xff, 0xfe, length >> 8, length & 255], at);
    out.fill(0x20, at + 4, at + 2 + length);
    at += 2 + length;
  }
  out.set(tail, end);
  return out;
}
