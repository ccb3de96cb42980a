/**
 * Change detection for the screen stream (issue 26, "the app sees the
 * screen"): which 64 × 64 tiles of a new capture differ from the picture the
 * technician was last SENT, merged into few rectangles.
 *
 * The reference is our own copy of what was sent, updated only by `commit`
 * (the stream commits exactly the rectangles it sent). A region left unsent
 * (no room in this frame, lost frames) therefore stays different from the
 * reference and comes back in the next `diff`, with its newest pixels.
 *
 * Speed: a whole row of the picture is compared first (one native memcmp);
 * only rows that differ are compared tile by tile, and a tile row stops being
 * read once all its tiles are known dirty. An unchanged 1080p screen costs
 * about 1 ms, a naive per-tile loop in JavaScript 20 ms (STACK-NOTES).
 */
import type { CapturedImage } from "./capturer.ts";

/** A rectangle of the picture, px from its top-left corner. */
export type Rect = { x: number; y: number; w: number; h: number };

/** Tile side, px (the protocol's 64 × 64 tiles). */
export const TILE_SIZE = 64;

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * The picture last sent and the tiles it holds. Rectangles from `diff` are
 * tile-aligned (clipped at the right and bottom edges), top to bottom, left
 * to right, and never overlap.
 */
export class TileDiff {
  readonly tileSize: number;
  #width = 0;
  #height = 0;
  #stride = 0;
  #columns = 0;
  #rows = 0;
  #reference: Buffer = Buffer.alloc(0);
  /** 1 where the reference holds what was sent for that tile; 0 forces the tile dirty (nothing sent yet). */
  #valid: Uint8Array = new Uint8Array(0);
  #dirty: Uint8Array = new Uint8Array(0);

  constructor(tileSize = TILE_SIZE) {
    this.tileSize = tileSize;
  }

  /** Forgets what was sent: the next `diff` returns the whole picture (a full picture, issue 26). */
  reset(): void {
    this.#valid.fill(0);
  }

  /** Whether every tile of the current size is known to the viewer (nothing left of a full picture). */
  get complete(): boolean {
    return this.#valid.length > 0 && this.#valid.every((value) => value === 1);
  }

  /**
   * The rectangles of `image` that differ from the picture sent (all of it
   * after `reset`, or when its width, height or stride changed). Leaves the
   * reference untouched.
   */
  diff(image: CapturedImage): Rect[] {
    this.#resize(image);
    const dirty = this.#dirty;
    const valid = this.#valid;
    for (let i = 0; i < dirty.length; i++) dirty[i] = valid[i] === 1 ? 0 : 1;
    const source = asBuffer(image.data);
    const reference = this.#reference;
    const { tileSize } = this;
    const rowBytes = image.width * 4;
    const pending: number[] = [];
    for (let tileRow = 0; tileRow < this.#rows; tileRow++) {
      pending.length = 0;
      for (let column = 0; column < this.#columns; column++) {
        if (dirty[tileRow * this.#columns + column] === 0) pending.push(column);
      }
      const bottom = Math.min(image.height, (tileRow + 1) * tileSize);
      for (let y = tileRow * tileSize; y < bottom && pending.length > 0; y++) {
        const start = y * image.stride;
        if (source.compare(reference, start, start + rowBytes, start, start + rowBytes) === 0) continue;
        for (let index = pending.length - 1; index >= 0; index--) {
          const column = pending[index]!;
          const from = start + column * tileSize * 4;
          const to = start + Math.min(rowBytes, (column + 1) * tileSize * 4);
          if (source.compare(reference, from, to, from, to) !== 0) {
            dirty[tileRow * this.#columns + column] = 1;
            pending.splice(index, 1);
          }
        }
      }
    }
    return this.#rects();
  }

  /**
   * Records that `rects` of `image` were sent: their pixels become the
   * reference, and every tile they wholly cover is known to the viewer.
   */
  commit(image: CapturedImage, rects: readonly Rect[]): void {
    this.#resize(image);
    const { tileSize } = this;
    for (const rect of rects) {
      const x = Math.max(0, rect.x);
      const right = Math.min(image.width, rect.x + rect.w);
      const bottom = Math.min(image.height, rect.y + rect.h);
      if (right <= x) continue;
      for (let y = Math.max(0, rect.y); y < bottom; y++) {
        const start = y * image.stride + x * 4;
        this.#reference.set(image.data.subarray(start, start + (right - x) * 4), start);
      }
      for (let row = Math.ceil(rect.y / tileSize); row < this.#rows; row++) {
        const tileBottom = Math.min(image.height, (row + 1) * tileSize);
        if (tileBottom > bottom) break;
        for (let column = Math.ceil(x / tileSize); column < this.#columns; column++) {
          if (Math.min(image.width, (column + 1) * tileSize) > right) break;
          this.#valid[row * this.#columns + column] = 1;
        }
      }
    }
  }

  #resize(image: CapturedImage): void {
    if (image.width === this.#width && image.height === this.#height && image.stride === this.#stride) return;
    this.#width = image.width;
    this.#height = image.height;
    this.#stride = image.stride;
    this.#columns = Math.ceil(image.width / this.tileSize);
    this.#rows = Math.ceil(image.height / this.tileSize);
    this.#reference = Buffer.alloc(image.stride * image.height);
    this.#valid = new Uint8Array(this.#columns * this.#rows);
    this.#dirty = new Uint8Array(this.#columns * this.#rows);
  }

  /** Dirty tiles → runs per tile row → runs of equal span stacked into one rectangle. */
  #rects(): Rect[] {
    const { tileSize } = this;
    const rects: Rect[] = [];
    /** Rectangles that reached the previous tile row, by "first:last" column. */
    let open = new Map<string, Rect>();
    for (let row = 0; row < this.#rows; row++) {
      const next = new Map<string, Rect>();
      const top = row * tileSize;
      const height = Math.min(this.#height, top + tileSize) - top;
      for (let column = 0; column < this.#columns; column++) {
        if (this.#dirty[row * this.#columns + column] !== 1) continue;
        const first = column;
        while (column + 1 < this.#columns && this.#dirty[row * this.#columns + column + 1] === 1) column++;
        const key = `${first}:${column}`;
        const above = open.get(key);
        if (above) {
          above.h += height;
          next.set(key, above);
        } else {
          const x = first * tileSize;
          const rect = { x, y: top, w: Math.min(this.#width, (column + 1) * tileSize) - x, h: height };
          rects.push(rect);
          next.set(key, rect);
        }
      }
      open = next;
    }
    return rects;
  }
}
