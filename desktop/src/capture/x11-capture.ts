/**
 * Linux X11 capture (issue 26, "the app sees the screen"): the pixels of one
 * monitor, i.e. its rectangle of the root window, through `X11CaptureApi`.
 *
 * - MIT-SHM first (`XShmGetImage`: the server writes into memory we share,
 *   about 0.5 ms for 1080p); plain `XGetImage` plus a copy when the display
 *   is remote or the extension is missing (15–100 ms a 1080p picture).
 * - The pointer is not part of the root window's pixels (the X server draws
 *   it apart, in hardware or as a software sprite it lifts before reading):
 *   its XFixes picture is blended into the captured buffer, so the
 *   technician sees where the customer points.
 * - Several monitors share one root window: each `Screen` is a rectangle of
 *   it, read from its own x/y offset.
 * - Wayland sessions: the X server there (XWayland) shows only X windows, so
 *   capture is reported impossible, in French, as the injector does.
 */
import type { Screen } from "#app/remote-support/device-protocol.ts";
import type { Capture } from "#app/remote-support/screen-protocol.ts";
import { isWaylandSession } from "../input/x11.ts";
import type { CapturedImage, ScreenCapturer } from "./capturer.ts";
import { drawCursor } from "./pointer.ts";
import { unavailableCapturer } from "./unavailable.ts";
import type { X11CaptureApi, X11CaptureOpenResult, X11PixelFormat, X11ShmImage } from "./x11-capture-native.ts";

export { drawCursor };

/** Why a Wayland session cannot be shown (French, shown to both sides). */
export const WAYLAND_CAPTURE_REASON =
  "Wayland : l'écran ne peut pas être montré au technicien sur une session Wayland. Pour être aidé à distance, " +
  "fermez votre session, choisissez « GNOME sur Xorg » (ou une autre session X11) sur l'écran de connexion, " +
  "puis relancez ce logiciel.";

const NO_DISPLAY =
  "Aucun affichage X11 n'est accessible (variable DISPLAY vide) : l'écran ne peut pas être montré au technicien.";
const OUTSIDE = "Cet écran est en dehors de l'affichage X11 (la disposition des écrans a peut-être changé).";
const REFUSED = "Le serveur X a refusé la lecture de l'écran.";

/** Whether the server's pixels are 32-bit little-endian B, G, R, X: what the encoder reads in place. */
export function isBgrx(format: X11PixelFormat): boolean {
  return (
    format.bitsPerPixel === 32 &&
    format.byteOrder === 0 &&
    format.redMask === 0xff0000 &&
    format.greenMask === 0xff00 &&
    format.blueMask === 0xff
  );
}

function formatReason(format: X11PixelFormat): string {
  return (
    `Le format des couleurs de cet affichage (${format.depth} bits par pixel) n'est pas pris en charge : ` +
    "l'écran ne peut pas être montré au technicien. Choisissez des couleurs sur 24 bits."
  );
}

type Rectangle = { x: number; y: number; width: number; height: number };

/** The part of `screen` inside a root window of `root` size; null when none. */
function clip(screen: Screen, root: { width: number; height: number }): Rectangle | null {
  const x = Math.max(0, screen.x);
  const y = Math.max(0, screen.y);
  const right = Math.min(root.width, screen.x + screen.width);
  const bottom = Math.min(root.height, screen.y + screen.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : null;
}

/** The X11 capturer over an open `X11CaptureApi`, whose pixel format is BGRX. */
export class X11Capturer implements ScreenCapturer {
  readonly #api: X11CaptureApi;
  #root: { width: number; height: number } | undefined;
  #useShm: boolean;
  #shm: X11ShmImage | null = null;
  /** The XGetImage path's own buffer (the shared-memory path uses the segment). */
  #copy: CapturedImage | null = null;
  #closed = false;

  constructor(api: X11CaptureApi) {
    this.#api = api;
    this.#useShm = api.shmAvailable;
  }

  status(): Capture {
    return { ok: true };
  }

  /** Whether the last grabs went through shared memory (false after a fallback to XGetImage). */
  get usingShm(): boolean {
    return this.#useShm;
  }

  grab(screen: Screen): CapturedImage {
    if (this.#closed) throw new Error("La capture de l'écran est fermée.");
    this.#root ??= this.#api.rootSize();
    let area = clip(screen, this.#root);
    let image = area && this.#read(area);
    if (!image) {
      // The layout may have changed (RandR): ask the root's size again, then retry once.
      this.#root = this.#api.rootSize();
      area = clip(screen, this.#root);
      if (!area) throw new Error(OUTSIDE);
      image = this.#read(area);
      if (!image && this.#useShm) {
        this.#dropShm();
        image = this.#read(area);
      }
      if (!image) throw new Error(REFUSED);
    }
    const cursor = this.#api.cursor();
    if (cursor) drawCursor(image, cursor, area!.x, area!.y);
    return image;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      if (this.#shm) this.#api.destroyShmImage(this.#shm);
      this.#shm = null;
    } finally {
      this.#api.close();
    }
  }

  #read(area: Rectangle): CapturedImage | null {
    if (this.#useShm) {
      if (!this.#shm || this.#shm.width !== area.width || this.#shm.height !== area.height) {
        if (this.#shm) this.#api.destroyShmImage(this.#shm);
        this.#shm = this.#api.createShmImage(area.width, area.height);
        if (!this.#shm) this.#useShm = false;
      }
      if (this.#shm) return this.#api.shmGet(this.#shm, area.x, area.y) ? this.#shm : null;
    }
    if (!this.#copy || this.#copy.width !== area.width || this.#copy.height !== area.height) {
      const stride = area.width * 4;
      this.#copy = { width: area.width, height: area.height, stride, data: new Uint8Array(stride * area.height) };
    }
    const copy = this.#copy;
    return this.#api.getImage(area.x, area.y, area.width, area.height, copy.data, copy.stride) ? copy : null;
  }

  #dropShm(): void {
    if (this.#shm) this.#api.destroyShmImage(this.#shm);
    this.#shm = null;
    this.#useShm = false;
  }
}

/** Options of `createX11Capturer`; `open` replaces the real Xlib in tests. */
export type X11CapturerOptions = {
  env?: NodeJS.ProcessEnv;
  open?: (display: string) => Promise<X11CaptureOpenResult>;
};

/**
 * The Linux capturer (issue 26). Never throws: under Wayland, without
 * DISPLAY, libX11 or a readable root window, or with a pixel format other
 * than 32-bit BGRX, its status says why (French) and `grab` throws it.
 */
export async function createX11Capturer(options: X11CapturerOptions = {}): Promise<ScreenCapturer> {
  const env = options.env ?? process.env;
  if (isWaylandSession(env)) return unavailableCapturer(WAYLAND_CAPTURE_REASON);
  if (!env.DISPLAY) return unavailableCapturer(NO_DISPLAY);
  const open = options.open ?? (async (display) => (await import("./x11-capture-native.ts")).openX11Capture(display));
  const opened = await open(env.DISPLAY);
  if ("reason" in opened) return unavailableCapturer(opened.reason);
  let format: X11PixelFormat;
  try {
    format = opened.api.pixelFormat();
  } catch {
    opened.api.close();
    return unavailableCapturer(REFUSED);
  }
  if (!isBgrx(format)) {
    opened.api.close();
    return unavailableCapturer(formatReason(format));
  }
  return new X11Capturer(opened.api);
}
