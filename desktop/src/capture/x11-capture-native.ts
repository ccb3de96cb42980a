/**
 * The X11 capture FFI boundary (issue 26, "the app sees the screen", Linux):
 * libX11.so.6, libXext.so.6 (MIT-SHM), libXfixes.so.3 (the pointer's picture)
 * and System V shared memory from libc.so.6, bound through koffi. Thin on
 * purpose, like `../input/x11-native.ts`: numbers and byte arrays in and
 * out; the choices (shared memory or not, clipping, drawing the pointer)
 * live in `x11-capture.ts`, which tests drive with a fake `X11CaptureApi`.
 *
 * Struct layouts are those of LP64 Linux (x86_64, arm64): `unsigned long`
 * and pointers are 8 bytes.
 */
import type { IKoffiLib, Koffi } from "../input/koffi.ts";
import { loadKoffi } from "../input/koffi.ts";
import { CAPTURE_KOFFI_MISSING } from "./unavailable.ts";
import type { X11CursorImage } from "./x11-cursor-native.ts";
import { bindCursor } from "./x11-cursor-native.ts";
import type { X11ShmImage } from "./x11-shm-native.ts";
import { ALL_PLANES, bindShm, declareXImage, ZPIXMAP } from "./x11-shm-native.ts";

export type { X11CursorImage, X11ShmImage };

/** How the server stores a pixel, from a 1 × 1 `XGetImage` of the root window. */
export type X11PixelFormat = {
  depth: number;
  bitsPerPixel: number;
  /** 0 LSBFirst (little-endian, BGRX in memory), 1 MSBFirst. */
  byteOrder: number;
  redMask: number;
  greenMask: number;
  blueMask: number;
};

/** What `x11-capture.ts` needs of Xlib, one display connection. */
export interface X11CaptureApi {
  /** Current size of the root window, px (asked to the server: follows RandR changes). */
  rootSize(): { width: number; height: number };
  pixelFormat(): X11PixelFormat;
  /** Whether libXext, libc's shared memory and the server's MIT-SHM extension are there. */
  readonly shmAvailable: boolean;
  /** A shared-memory image; null when the server cannot attach the segment (remote display). */
  createShmImage(width: number, height: number): X11ShmImage | null;
  /** `XShmGetImage` of the root window from (x, y), root px; false when the server refused. */
  shmGet(image: X11ShmImage, x: number, y: number): boolean;
  destroyShmImage(image: X11ShmImage): void;
  /**
   * `XGetImage` of the root window's rectangle, copied into `into` (`stride`
   * bytes a row); false when the server refused (rectangle outside the root).
   */
  getImage(x: number, y: number, width: number, height: number, into: Uint8Array, stride: number): boolean;
  /** The pointer's picture and position; null without XFixes. */
  cursor(): X11CursorImage | null;
  close(): void;
}

export type X11CaptureOpenResult = { api: X11CaptureApi } | { reason: string };

const NO_DISPLAY =
  "Aucun affichage X11 n'est accessible (variable DISPLAY vide ou serveur X injoignable) : " +
  "l'écran ne peut pas être montré au technicien.";
const NO_LIBS =
  "La bibliothèque X11 (libX11.so.6) est introuvable : installez le paquet libx11-6, puis relancez le logiciel.";

type Libs = { koffi: Koffi; x11: IKoffiLib; xext: IKoffiLib | null; xfixes: IKoffiLib | null; libc: IKoffiLib | null };
let libs: Libs | undefined;

function tryLoad(koffi: Koffi, name: string) {
  try {
    return koffi.load(name);
  } catch {
    return null;
  }
}

/**
 * Opens `display` (e.g. ":0"; null = $DISPLAY) for capture, issue 26. Never
 * throws: a missing libX11 or display gives `{ reason }` in French. Without
 * libXext or shared memory, `shmAvailable` is false (XGetImage only); without
 * libXfixes, `cursor()` gives null.
 */
export async function openX11Capture(display: string | null): Promise<X11CaptureOpenResult> {
  if (!libs) {
    let koffi: Koffi;
    try {
      koffi = await loadKoffi();
    } catch {
      return { reason: CAPTURE_KOFFI_MISSING };
    }
    const x11 = tryLoad(koffi, "libX11.so.6");
    if (!x11) return { reason: NO_LIBS };
    libs = {
      koffi,
      x11,
      xext: tryLoad(koffi, "libXext.so.6"),
      xfixes: tryLoad(koffi, "libXfixes.so.3"),
      libc: tryLoad(koffi, "libc.so.6"),
    };
  }
  const { koffi, x11, xext, xfixes, libc } = libs;

  const XImage = declareXImage(koffi);
  const f = {
    XOpenDisplay: x11.func("void *XOpenDisplay(const char *name)"),
    XCloseDisplay: x11.func("int XCloseDisplay(void *dpy)"),
    XDefaultScreen: x11.func("int XDefaultScreen(void *dpy)"),
    XRootWindow: x11.func("unsigned long XRootWindow(void *dpy, int screen)"),
    XDefaultVisual: x11.func("void *XDefaultVisual(void *dpy, int screen)"),
    XDefaultDepth: x11.func("int XDefaultDepth(void *dpy, int screen)"),
    XGetGeometry: x11.func(
      "int XGetGeometry(void *dpy, unsigned long d, _Out_ unsigned long *root, _Out_ int *x, _Out_ int *y, " +
        "_Out_ unsigned int *w, _Out_ unsigned int *h, _Out_ unsigned int *border, _Out_ unsigned int *depth)",
    ),
    XGetImage: x11.func(
      "void *XGetImage(void *dpy, unsigned long d, int x, int y, unsigned int w, unsigned int h, " +
        "unsigned long planes, int format)",
    ),
    XDestroyImage: x11.func("int XDestroyImage(void *image)"),
    XFree: x11.func("int XFree(void *data)"),
    XSync: x11.func("int XSync(void *dpy, int discard)"),
    XSetErrorHandler: x11.func("void *XSetErrorHandler(void *handler)"),
  };
  installErrorHandler(koffi, f.XSetErrorHandler);

  const dpy: unknown = f.XOpenDisplay(display);
  if (!dpy) return { reason: NO_DISPLAY };
  const screen: number = f.XDefaultScreen(dpy);
  const root: number = f.XRootWindow(dpy, screen);

  const shm = xext && libc ? bindShm(koffi, xext, libc, dpy, root, screen, f, XImage) : null;
  const cursor = xfixes ? bindCursor(koffi, xfixes, dpy, f.XFree) : () => null;

  let format: X11PixelFormat | undefined;
  let open = true;
  const api: X11CaptureApi = {
    rootSize() {
      const width = [0];
      const height = [0];
      f.XGetGeometry(dpy, root, [0], [0], [0], width, height, [0], [0]);
      return { width: width[0] ?? 0, height: height[0] ?? 0 };
    },
    pixelFormat() {
      if (!format) {
        const pointer: unknown = f.XGetImage(dpy, root, 0, 0, 1, 1, ALL_PLANES, ZPIXMAP);
        if (!pointer) throw new Error("XGetImage a échoué sur la fenêtre racine.");
        const image = koffi.decode(pointer, XImage) as Record<string, number>;
        format = {
          depth: image.depth!,
          bitsPerPixel: image.bits_per_pixel!,
          byteOrder: image.byte_order!,
          redMask: Number(image.red_mask),
          greenMask: Number(image.green_mask),
          blueMask: Number(image.blue_mask),
        };
        f.XDestroyImage(pointer);
      }
      return format;
    },
    shmAvailable: shm !== null,
    createShmImage: (width, height) => shm?.create(width, height) ?? null,
    shmGet: (image, x, y) => shm?.get(image, x, y) ?? false,
    destroyShmImage: (image) => shm?.destroy(image),
    getImage(x, y, width, height, into, stride) {
      const pointer: unknown = f.XGetImage(dpy, root, x, y, width, height, ALL_PLANES, ZPIXMAP);
      if (!pointer) return false;
      try {
        const image = koffi.decode(pointer, XImage) as { bytes_per_line: number; data: unknown };
        const source = new Uint8Array(koffi.view(image.data, image.bytes_per_line * height));
        const row = Math.min(width * 4, stride, image.bytes_per_line);
        if (row === stride && stride === image.bytes_per_line) into.set(source.subarray(0, stride * height));
        else {
          for (let y = 0; y < height; y++) {
            into.set(source.subarray(y * image.bytes_per_line, y * image.bytes_per_line + row), y * stride);
          }
        }
        return true;
      } finally {
        f.XDestroyImage(pointer);
      }
    },
    cursor,
    close() {
      if (!open) return;
      open = false;
      shm?.closeAll();
      f.XCloseDisplay(dpy);
    },
  };
  return { api };
}

let errorHandlerInstalled = false;

/**
 * Xlib's default error handler prints and calls exit(1): a refused shared
 * memory segment (remote display) or a rectangle outside a shrunk root window
 * would kill the app. Ours ignores the error; the call that caused it then
 * returns failure (both capture calls wait for the server's reply). Same
 * behaviour as the injector's handler, whichever is installed last.
 */
function installErrorHandler(koffi: Koffi, setHandler: (handler: unknown) => unknown) {
  if (errorHandlerInstalled) return;
  const proto = koffi.proto("int AtelierCaptureXErrorHandler(void *dpy, void *event)");
  setHandler(koffi.register(() => 0, koffi.pointer(proto)));
  errorHandlerInstalled = true;
}
