/**
 * Issue 37 §1: the size a JPEG says it decodes to, read from its header
 * without decoding it, so that the server can refuse a « JPEG bomb » (a few
 * kilobytes that decode to hundreds of megapixels) before it reaches a
 * technician's browser. Pure, no dependency; shared by the server and the browser.
 *
 * Markers read, in order, from the first byte:
 * - `FFD8` (SOI) first, else not a JPEG;
 * - any number of `FF` fill bytes before a marker code;
 * - `FF01` (TEM) and `FFD0`–`FFD7` (RSTn): no length, skipped;
 * - a segment with a two-byte big-endian length (≥ 2, the length bytes included, within the data):
 *   `FFC0` (SOF0, baseline), `FFC1` (SOF1, extended sequential), `FFC2` (SOF2, progressive): the frame header,
 *   read for its precision (8 bits), height and width (px, 1–65 535; a height of 0, defined later by a DNL
 *   marker, is refused) and its 1 to 4 components, whose length must be exactly `8 + 3 × components`;
 *   every other segment (APPn, COM, DQT, DHT, DRI…) is skipped by its length;
 * - `FFDA` (SOS), the first scan: the end of the header. Exactly one SOF0/1/2 must have come before it.
 *
 * Anything else is refused: other frame types (`FFC3`, `FFC5`–`FFC7`, `FFC9`–`FFCB`, `FFCD`–`FFCF`: lossless,
 * hierarchical, arithmetic coding, which the app never produces), `FFD9` (EOI) or `FFD8` before a scan,
 * `FF00`, a byte other than `FF` where a marker is due, a second SOF, a truncated segment.
 * The entropy-coded data after SOS is not read. `readJpegHeader` never throws: any input it cannot vouch for
 * gives null (fuzzed by `jpeg-header.test.ts`). It reads at most the header's bytes: O(header) time.
 */

/** What a JPEG's frame header (SOF) says. */
export type JpegHeader = {
  /** The frame's size, px. */
  width: number;
  height: number;
  /** 1 (grey), 3 (YCbCr) or 2 and 4. */
  components: number;
  /** SOF2: the picture is refined by several scans. */
  progressive: boolean;
};

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const TEM = 0x01;
const SOF_BASELINE = 0xc0;
const SOF_EXTENDED = 0xc1;
const SOF_PROGRESSIVE = 0xc2;

/** A frame header other than SOF0/1/2 (lossless, hierarchical, arithmetic): refused. */
function isOtherSof(code: number): boolean {
  return code >= 0xc3 && code <= 0xcf && code !== 0xc4 && code !== 0xc8 && code !== 0xcc;
}

/**
 * The frame header of `bytes` when it is a well-formed JPEG header (see the module comment) up to its first scan,
 * else null. Never throws.
 */
export function readJpegHeader(bytes: Uint8Array | ArrayBuffer): JpegHeader | null {
  const data = bytes instanceof Uint8Array ? bytes : bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : null;
  if (!data || data.length < 4 || data[0] !== 0xff || data[1] !== SOI) return null;
  let header: JpegHeader | null = null;
  let at = 2;
  while (at < data.length) {
    if (data[at] !== 0xff) return null;
    while (at < data.length && data[at] === 0xff) at += 1; // fill bytes
    if (at >= data.length) return null;
    const code = data[at]!;
    at += 1;
    if (code === TEM || (code >= 0xd0 && code <= 0xd7)) continue;
    if (code === 0x00 || code === SOI || code === EOI || isOtherSof(code)) return null;
    if (at + 2 > data.length) return null;
    const length = (data[at]! << 8) | data[at + 1]!;
    if (length < 2 || at + length > data.length) return null;
    if (code === SOS) return header;
    if (code === SOF_BASELINE || code === SOF_EXTENDED || code === SOF_PROGRESSIVE) {
      if (header !== null || length < 8) return null;
      const precision = data[at + 2]!;
      const height = (data[at + 3]! << 8) | data[at + 4]!;
      const width = (data[at + 5]! << 8) | data[at + 6]!;
      const components = data[at + 7]!;
      if (precision !== 8 || height === 0 || width === 0) return null;
      if (components < 1 || components > 4 || length !== 8 + 3 * components) return null;
      header = { width, height, components, progressive: code === SOF_PROGRESSIVE };
    }
    at += length;
  }
  return null; // no scan: truncated
}
