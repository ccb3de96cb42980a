/**
 * Synthetic BGRX pictures for the capture tests (issue 26): filled
 * rectangles of known colours, and reading a pixel back.
 */
import type { CapturedImage } from "./capturer.ts";

/** An RGB colour, 0–255 each. */
export type Rgb = [number, number, number];

/** A `width` × `height` picture filled with `colour`; `padding` extra bytes end each row (stride > width × 4). */
export function makeImage(width: number, height: number, colour: Rgb = [0, 0, 0], padding = 0): CapturedImage {
  const stride = width * 4 + padding;
  const image = { width, height, stride, data: new Uint8Array(stride * height) };
  fillRect(image, 0, 0, width, height, colour);
  return image;
}

/** Paints a rectangle (clipped to the picture); the X byte is set to 0xff. */
export function fillRect(
  image: CapturedImage,
  x: number,
  y: number,
  w: number,
  h: number,
  [red, green, blue]: Rgb,
): void {
  for (let row = Math.max(0, y); row < Math.min(image.height, y + h); row++) {
    for (let column = Math.max(0, x); column < Math.min(image.width, x + w); column++) {
      const offset = row * image.stride + column * 4;
      image.data[offset] = blue;
      image.data[offset + 1] = green;
      image.data[offset + 2] = red;
      image.data[offset + 3] = 0xff;
    }
  }
}

/** The RGB colour at (x, y). */
export function pixel(image: CapturedImage, x: number, y: number): Rgb {
  const offset = y * image.stride + x * 4;
  return [image.data[offset + 2]!, image.data[offset + 1]!, image.data[offset]!];
}

/** Largest difference of one channel between two colours. */
export function colourDistance(a: Rgb, b: Rgb): number {
  return Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]), Math.abs(a[2] - b[2]));
}
