/**
 * The pointer's picture through XFixes and koffi (issue 26, part of
 * `x11-capture-native.ts`): the X server draws the pointer apart from the
 * windows, so capture must add it. LP64 Linux struct layout.
 */
import type { IKoffiLib, Koffi } from "../input/koffi.ts";
import { struct } from "./x11-shm-native.ts";

/** The pointer's picture: 32-bit ARGB premultiplied by alpha, row after row, and where it is (root px). */
export type X11CursorImage = {
  /** Changes whenever the shape changes (same serial: same pixels). */
  serial: number;
  x: number;
  y: number;
  xhot: number;
  yhot: number;
  width: number;
  height: number;
  pixels: Uint32Array;
};

/** XFixes' cursor image; the server only answers clients that announced a version first. */
export function bindCursor(
  koffi: Koffi,
  xfixes: IKoffiLib,
  dpy: unknown,
  xFree: (...args: unknown[]) => unknown,
): () => X11CursorImage | null {
  const CursorImage = struct(koffi, "AtelierXFixesCursorImage", {
    x: "short",
    y: "short",
    width: "unsigned short",
    height: "unsigned short",
    xhot: "unsigned short",
    yhot: "unsigned short",
    cursor_serial: "unsigned long",
    pixels: "void *",
    atom: "unsigned long",
    name: "void *",
  });

  let getCursorImage: (...args: unknown[]) => unknown;
  try {
    const queryExtension = xfixes.func("int XFixesQueryExtension(void *dpy, _Out_ int *event, _Out_ int *error)");
    const queryVersion = xfixes.func("int XFixesQueryVersion(void *dpy, _Inout_ int *major, _Inout_ int *minor)");
    getCursorImage = xfixes.func("void *XFixesGetCursorImage(void *dpy)");
    if (!queryExtension(dpy, [0], [0])) return () => null;
    queryVersion(dpy, [6], [0]);
  } catch {
    return () => null;
  }
  const longSize = koffi.sizeof("unsigned long");
  let cached: { serial: number; pixels: Uint32Array } | undefined;
  return () => {
    const pointer = getCursorImage(dpy);
    if (!pointer) return null;
    try {
      const image = koffi.decode(pointer, CursorImage) as {
        x: number;
        y: number;
        width: number;
        height: number;
        xhot: number;
        yhot: number;
        cursor_serial: number | bigint;
        pixels: unknown;
      };
      const serial = Number(image.cursor_serial);
      const count = image.width * image.height;
      if (!cached || cached.serial !== serial || cached.pixels.length !== count) {
        // `unsigned long` per pixel: 8 bytes on LP64, the ARGB value in the low (first, little-endian) half.
        const words = new Uint32Array(koffi.view(image.pixels, count * longSize));
        const step = longSize / 4;
        const pixels = new Uint32Array(count);
        for (let i = 0; i < count; i++) pixels[i] = words[i * step]!;
        cached = { serial, pixels };
      }
      return {
        serial,
        x: image.x,
        y: image.y,
        xhot: image.xhot,
        yhot: image.yhot,
        width: image.width,
        height: image.height,
        pixels: cached.pixels,
      };
    } finally {
      xFree(pointer);
    }
  };
}
