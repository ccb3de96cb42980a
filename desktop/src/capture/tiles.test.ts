/**
 * Change detection on 64 × 64 tiles (issue 26): known changes give the
 * expected rectangles, and the reference only learns what was committed.
 */
import { describe, expect, it } from "vitest";
import { fillRect, makeImage } from "./test-images.ts";
import { TileDiff } from "./tiles.ts";

const GREY: [number, number, number] = [128, 128, 128];
const RED: [number, number, number] = [255, 0, 0];

/** A diff whose reference is `image` as a whole. */
function committed(image: ReturnType<typeof makeImage>): TileDiff {
  const diff = new TileDiff();
  diff.commit(image, diff.diff(image));
  return diff;
}

describe("TileDiff", () => {
  it("returns the whole picture first, clipped to its size, then nothing while it stays the same", () => {
    const image = makeImage(200, 100, GREY);
    const diff = new TileDiff();
    const rects = diff.diff(image);
    expect(rects).toEqual([{ x: 0, y: 0, w: 200, h: 100 }]);
    expect(diff.complete).toBe(false);
    diff.commit(image, rects);
    expect(diff.complete).toBe(true);
    expect(diff.diff(image)).toEqual([]);
  });

  it("finds one changed pixel's tile, clipped at the bottom edge", () => {
    const image = makeImage(200, 100, GREY);
    const diff = committed(image);
    fillRect(image, 130, 70, 1, 1, RED);
    expect(diff.diff(image)).toEqual([{ x: 128, y: 64, w: 64, h: 36 }]);
  });

  it("merges a run of tiles in a row, and equal runs of consecutive rows", () => {
    const image = makeImage(640, 320, GREY);
    const diff = committed(image);
    // Tiles (1,1) (2,1) (1,2) (2,2): one 128 × 128 block.
    fillRect(image, 70, 70, 120, 120, RED);
    expect(diff.diff(image)).toEqual([{ x: 64, y: 64, w: 128, h: 128 }]);
  });

  it("keeps runs of different spans apart (an L shape is two rectangles)", () => {
    const image = makeImage(640, 320, GREY);
    const diff = committed(image);
    fillRect(image, 0, 0, 192, 10, RED); // row 0: tiles 0–2
    fillRect(image, 0, 64, 10, 10, RED); // row 1: tile 0
    fillRect(image, 400, 200, 1, 1, RED); // row 3: tile 6
    expect(diff.diff(image)).toEqual([
      { x: 0, y: 0, w: 192, h: 64 },
      { x: 0, y: 64, w: 64, h: 64 },
      { x: 384, y: 192, w: 64, h: 64 },
    ]);
  });

  it("ignores the bytes past each row's pixels (stride padding)", () => {
    const image = makeImage(100, 100, GREY, 24);
    const diff = committed(image);
    image.data[10 * image.stride + 100 * 4 + 3] = 77;
    expect(diff.diff(image)).toEqual([]);
  });

  it("reports again what was not committed, with the newest pixels", () => {
    const image = makeImage(256, 64, GREY);
    const diff = committed(image);
    fillRect(image, 0, 0, 1, 1, RED);
    fillRect(image, 200, 0, 1, 1, RED);
    const rects = diff.diff(image);
    expect(rects).toEqual([
      { x: 0, y: 0, w: 64, h: 64 },
      { x: 192, y: 0, w: 64, h: 64 },
    ]);
    diff.commit(image, [rects[0]!]);
    expect(diff.diff(image)).toEqual([{ x: 192, y: 0, w: 64, h: 64 }]);
  });

  it("after reset, and when the size changes, returns the whole picture again", () => {
    const image = makeImage(128, 128, GREY);
    const diff = committed(image);
    diff.reset();
    expect(diff.diff(image)).toEqual([{ x: 0, y: 0, w: 128, h: 128 }]);
    diff.commit(image, [{ x: 0, y: 0, w: 128, h: 128 }]);
    expect(diff.diff(makeImage(64, 128, GREY))).toEqual([{ x: 0, y: 0, w: 64, h: 128 }]);
  });

  it("a full picture committed band by band becomes complete only once every tile was sent", () => {
    const image = makeImage(128, 192, GREY);
    const diff = new TileDiff();
    expect(diff.diff(image)).toEqual([{ x: 0, y: 0, w: 128, h: 192 }]);
    diff.commit(image, [{ x: 0, y: 0, w: 128, h: 64 }]);
    expect(diff.diff(image)).toEqual([{ x: 0, y: 64, w: 128, h: 128 }]);
    // Half a tile sent does not make the tile known.
    diff.commit(image, [{ x: 0, y: 64, w: 128, h: 32 }]);
    expect(diff.diff(image)).toEqual([{ x: 0, y: 64, w: 128, h: 128 }]);
    diff.commit(image, [{ x: 0, y: 64, w: 128, h: 128 }]);
    expect(diff.complete).toBe(true);
    expect(diff.diff(image)).toEqual([]);
  });

  it("a checkerboard of changes gives one rectangle per tile", () => {
    const image = makeImage(512, 256, GREY);
    const diff = committed(image);
    for (let row = 0; row < 4; row++) {
      for (let column = (row % 2) * 1; column < 8; column += 2) fillRect(image, column * 64, row * 64, 1, 1, RED);
    }
    const rects = diff.diff(image);
    expect(rects).toHaveLength(16);
    expect(rects.every((rect) => rect.w === 64 && rect.h === 64)).toBe(true);
  });
});
