/**
 * The rectangle check shared by the JPEG encoders (issue 26): libjpeg-turbo
 * (`jpeg.ts`) and GDI+ (`windows-jpeg.ts`) both read the picture's memory
 * from the rectangle's first pixel on, so a wrong rectangle would make them
 * read outside it.
 */
import type { CapturedImage } from "./capturer.ts";
import type { Rect } from "./tiles.ts";

/**
 * Checks that `rect` (px) is a non-empty part of `image`; a wrong one would
 * make the library read outside it. Throws a `RangeError` otherwise.
 */
export function checkRect(image: CapturedImage, rect: Rect): void {
  const inside =
    Number.isInteger(rect.x) &&
    Number.isInteger(rect.y) &&
    Number.isInteger(rect.w) &&
    Number.isInteger(rect.h) &&
    rect.x >= 0 &&
    rect.y >= 0 &&
    rect.w > 0 &&
    rect.h > 0 &&
    rect.x + rect.w <= image.width &&
    rect.y + rect.h <= image.height &&
    image.stride >= image.width * 4 &&
    image.data.byteLength >= image.stride * (image.height - 1) + image.width * 4;
  if (!inside) throw new RangeError(`Rectangle hors de l'image : ${JSON.stringify(rect)}`);
}
