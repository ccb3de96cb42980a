/**
 * Issue 37 §1, for tests and benches only: the « JPEG bomb » of the issue, made by hand. `flatJpeg(w, h)` is a real
 * progressive JPEG (SOF2) of a flat grey picture that a browser decodes to `w` × `h` px, in about one bit per 8 × 8
 * block: 7 600 × 7 600 px (231 MB once decoded as RGBA) in 113 KB, under `SCREEN_LIMITS.frameBytes`; 7 680 × 4 320
 * in 65 KB. (`app/remote-support/jpeg-testing.ts`'s `fakeJpeg` has the header only: a browser cannot decode it.)
 *
 * Layout, one grey component (1 × 1 sampling, so the blocks are `ceil(w / 8)` × `ceil(h / 8)`):
 * - SOI, a quantisation table of ones, SOF2 (8 bits, `h`, `w`, one component);
 * - the DC scan (Ss = Se = 0, Ah = Al = 0) with a Huffman table of one code, « 0 » for category 0: every block's DC
 *   difference is 0 (the grey of `level`, carried by the first block's code, `DC_GREY`), one bit each;
 * - the AC scan (1–63) made only of end-of-band runs (EOBRUN, up to 32 767 blocks a code): all AC coefficients 0;
 * - EOI. Entropy-coded bytes are stuffed (`FF` → `FF 00`).
 */

const SOI = [0xff, 0xd8];
const EOI = [0xff, 0xd9];

/** Writes bits most significant first, stuffing a 0 after every FF byte, padding the last byte with ones. */
class BitWriter {
  private readonly bytes: number[] = [];
  private current = 0;
  private count = 0;

  write(value: number, length: number): void {
    for (let bit = length - 1; bit >= 0; bit -= 1) {
      this.current = (this.current << 1) | ((value >> bit) & 1);
      this.count += 1;
      if (this.count === 8) this.flushByte();
    }
  }

  /** `length` zero bits, fast (the DC scan is hundreds of thousands of them). */
  zeros(length: number): void {
    let left = length;
    while (left > 0 && this.count !== 0) {
      this.write(0, 1);
      left -= 1;
    }
    const whole = Math.floor(left / 8);
    for (let i = 0; i < whole; i += 1) this.bytes.push(0);
    this.write(0, left - whole * 8);
  }

  finish(): number[] {
    if (this.count > 0) this.write((1 << (8 - this.count)) - 1, 8 - this.count);
    return this.bytes;
  }

  private flushByte(): void {
    this.bytes.push(this.current);
    if (this.current === 0xff) this.bytes.push(0);
    this.current = 0;
    this.count = 0;
  }
}

function segment(marker: number, body: number[]): number[] {
  const length = body.length + 2;
  return [0xff, marker, length >> 8, length & 255, ...body];
}

/** Huffman table `tableClass` (0 DC, 1 AC) number 0: `counts[i]` codes of length i + 1, then the symbols. */
function huffmanTable(tableClass: number, counts: number[], symbols: number[]): number[] {
  const lengths = Array.from({ length: 16 }, (_, index) => counts[index] ?? 0);
  return segment(0xc4, [tableClass << 4, ...lengths, ...symbols]);
}

function scanHeader(start: number, end: number): number[] {
  return segment(0xda, [1, 1, 0x00, start, end, 0x00]);
}

/**
 * A decodable progressive JPEG of `width` × `height` px (1–65 535) of one flat grey (see the module comment).
 * `level`: the grey, 0–255.
 */
export function flatJpeg(width: number, height: number, level = 128): Uint8Array {
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  // The first block's DC, (level − 128) × 8 (quantiser 1), in category `size` with `size` extra bits; the rest: 0.
  const dc = Math.round((Math.min(255, Math.max(0, level)) - 128) * 8);
  const size = dc === 0 ? 0 : Math.floor(Math.log2(Math.abs(dc))) + 1;
  const extra = dc >= 0 ? dc : dc + (1 << size) - 1;
  // DC codes: « 0 » for category 0; « 10 » for the first block's category when it is not 0.
  const dcTable = size === 0 ? huffmanTable(0, [1], [0]) : huffmanTable(0, [1, 1], [0, size]);
  const dcBits = new BitWriter();
  if (size === 0) dcBits.zeros(blocks);
  else {
    dcBits.write(0b10, 2);
    dcBits.write(extra, size);
    dcBits.zeros(blocks - 1);
  }
  // AC: EOBr (r = 0…14) are the 15 codes of 4 bits, 0000 to 1110 in that order; a run n = 2^r + r more bits.
  const acTable = huffmanTable(
    1,
    [0, 0, 0, 15],
    Array.from({ length: 15 }, (_, r) => r << 4),
  );
  const acBits = new BitWriter();
  for (let left = blocks; left > 0;) {
    const run = Math.min(left, 32_767);
    const r = Math.floor(Math.log2(run));
    acBits.write(r, 4);
    acBits.write(run - (1 << r), r);
    left -= run;
  }
  const bytes = [
    ...SOI,
    ...segment(0xdb, [0x00, ...Array.from({ length: 64 }, () => 1)]),
    ...segment(0xc2, [8, height >> 8, height & 255, width >> 8, width & 255, 1, 1, 0x11, 0]),
    ...dcTable,
    ...scanHeader(0, 0),
  ];
  const out = new Uint8Array(bytes.length + Math.ceil(blocks / 8) + 4096);
  let at = 0;
  const push = (part: number[]) => {
    // Spread pushes overflow the stack past ~100 000 values: copied in place.
    out.set(part, at);
    at += part.length;
  };
  push(bytes);
  push(dcBits.finish());
  push([...acTable, ...scanHeader(1, 63)]);
  push(acBits.finish());
  push(EOI);
  return out.slice(0, at);
}
