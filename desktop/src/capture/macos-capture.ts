/**
 * macOS capture (issue 26, "the app sees the screen"): CoreGraphics through
 * `MacCaptureApi` (`macos-capture-native.ts`).
 *
 * - Permission: macOS 10.15+ shows other apps' windows only to a program
 *   holding « Enregistrement de l'écran » (Screen Recording); without it the
 *   picture would hold the wallpaper alone. `CGPreflightScreenCaptureAccess`
 *   says whether it is granted: when not, the status explains the steps in
 *   French (as the injector does for Accessibility) and nothing is captured.
 *   `CGRequestScreenCaptureAccess` is called once, at creation, so macOS
 *   shows its prompt and lists the app (Terminal, which runs it) in the
 *   settings. macOS applies a grant to a program only after it restarts.
 * - Capture: `CGDisplayCreateImage` of the display whose id is the
 *   injector's `Screen.id` (`CGGetActiveDisplayList`), its pixels copied out
 *   of `CGDataProviderCopyData`'s CFData (rows `CGImageGetBytesPerRow` apart)
 *   into a buffer reused between grabs, then the image and the data are
 *   released. Copied, not read in place: the data may share the display's
 *   read-only memory, and the pointer is drawn into the picture.
 * - Retina: the picture is in device pixels (2 per point), the injector's
 *   `Screen` in points with `scale` 2; the picture keeps its own size (the
 *   frame's width and height), and the technician's pointer fractions map to
 *   points on the injector's side, so both still agree.
 * - The pointer is not in `CGDisplayCreateImage`'s picture: a plain arrow is
 *   drawn at `CGEventGetLocation(CGEventCreate(NULL))`, converted to pixels.
 *
 * `CGDisplayCreateImage` is deprecated since macOS 14 and left out of the
 * macOS 15 SDK in favour of ScreenCaptureKit; the function is still exported
 * for older programs (when it is gone, the status says so). ScreenCaptureKit
 * (`SCShareableContent`, `SCStream` or `SCScreenshotManager`) is the
 * replacement: it needs Objective-C objects, blocks as completion handlers
 * and delegate callbacks run on dispatch queues, which koffi cannot easily
 * create or drive; it would also give the pointer and the changed areas.
 */
import type { Screen } from "#app/remote-support/device-protocol.ts";
import type { Capture } from "#app/remote-support/screen-protocol.ts";
import type { CapturedImage, ScreenCapturer } from "./capturer.ts";
import type { MacCaptureApi, MacCaptureOpenResult, Ref } from "./macos-capture-native.ts";
import { arrowCursor, drawCursor } from "./pointer.ts";
import { unavailableCapturer } from "./unavailable.ts";

/** Why the screen cannot be shown without the permission, and how to grant it (French, ≤ 500 characters). */
export const SCREEN_RECORDING_REASON =
  "macOS : ce logiciel n'a pas encore l'autorisation « Enregistrement de l'écran », nécessaire pour que le " +
  "technicien voie l'écran. Ouvrez Réglages Système › Confidentialité et sécurité › Enregistrement de l'écran " +
  "et de l'audio du système (« Enregistrement de l'écran » sur les versions plus anciennes), activez « Terminal » " +
  "(ou le nom de ce logiciel ; sinon ajoutez-le avec le bouton +), puis quittez ce logiciel et relancez-le.";
const OUTSIDE = "Cet écran n'est plus branché (la disposition des écrans a peut-être changé).";
const REFUSED = "macOS a refusé la lecture de l'écran (autorisation retirée, ou écran en veille).";
const FORMAT = "Le format des pixels de cet écran n'est pas pris en charge : l'écran ne peut pas être montré.";
const CLOSED = "La capture de l'écran est fermée.";
/** The permission is read again at most this often (ms): the stream asks for the status before every capture. */
const PERMISSION_RECHECK_MS = 2_000;
const MAX_DISPLAYS = 16;

// CGBitmapInfo (CGImage.h).
const ALPHA_INFO_MASK = 0x1f;
const BYTE_ORDER_MASK = 0x7000;
const BYTE_ORDER_32_LITTLE = 0x2000;
const BYTE_ORDER_32_BIG = 0x4000;
const ALPHA_FIRST = new Set([2, 4, 6]); // premultiplied first, first, none-skip-first
const ALPHA_LAST = new Set([1, 3, 5]); // premultiplied last, last, none-skip-last

/** Where blue, green and red lie in each 4-byte pixel (bytes from its start). */
export type ChannelOffsets = { b: number; g: number; r: number };

/**
 * Where the colours lie in a pixel of `bitsPerPixel` and `bitmapInfo`
 * (CGBitmapInfo), or null when it is not a 32-bit layout handled here.
 * `kCGBitmapByteOrder32Little` + alpha first (what displays give) is
 * B, G, R, A in memory: { b: 0, g: 1, r: 2 }, read as is.
 */
export function channelOffsets(bitsPerPixel: number, bitmapInfo: number): ChannelOffsets | null {
  if (bitsPerPixel !== 32) return null;
  const alpha = bitmapInfo & ALPHA_INFO_MASK;
  const order = bitmapInfo & BYTE_ORDER_MASK;
  if (order !== 0 && order !== BYTE_ORDER_32_LITTLE && order !== BYTE_ORDER_32_BIG) return null;
  // The 32-bit value from its most significant byte.
  let bytes: string[];
  if (ALPHA_FIRST.has(alpha)) bytes = ["a", "r", "g", "b"];
  else if (ALPHA_LAST.has(alpha)) bytes = ["r", "g", "b", "a"];
  else return null;
  // Default and 32Big: that order in memory; 32Little: reversed.
  if (order === BYTE_ORDER_32_LITTLE) bytes = bytes.reverse();
  return { b: bytes.indexOf("b"), g: bytes.indexOf("g"), r: bytes.indexOf("r") };
}

/** Options of `MacCapturer`; `now` (ms) replaces the clock of the permission's re-reading in tests. */
export type MacCapturerOptions = { now?: () => number };

/** The macOS capturer over a `MacCaptureApi` (real or fake), issue 26. */
export class MacCapturer implements ScreenCapturer {
  readonly #api: MacCaptureApi;
  readonly #now: () => number;
  #granted: { value: boolean; at: number } | null = null;
  #picture: CapturedImage | null = null;
  #closed = false;

  constructor(api: MacCaptureApi, options: MacCapturerOptions = {}) {
    this.#api = api;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Ok with the Screen Recording permission; else `SCREEN_RECORDING_REASON`. Re-read every 2 s at most. */
  status(): Capture {
    return this.#allowed() ? { ok: true } : { ok: false, reason: SCREEN_RECORDING_REASON };
  }

  /**
   * The pixels of `screen` (its id is a CGDirectDisplayID, as the injector
   * lists it) in device pixels, pointer drawn in: BGRX, rows
   * `CGImageGetBytesPerRow` bytes apart, in a buffer reused until the next
   * grab or `close`. Throws (French) without the permission, when the display
   * is gone, when macOS gives no picture, or for an unknown pixel format.
   */
  grab(screen: Screen): CapturedImage {
    if (this.#closed) throw new Error(CLOSED);
    if (!this.#allowed()) throw new Error(SCREEN_RECORDING_REASON);
    const api = this.#api;
    const display = this.#display(screen);
    const image = api.CGDisplayCreateImage(display);
    if (!image) throw new Error(REFUSED);
    let picture: CapturedImage;
    try {
      picture = this.#copy(image);
    } finally {
      api.CGImageRelease(image);
    }
    this.#drawPointer(display, picture);
    return picture;
  }

  /** Drops the buffer (nothing native is held between grabs). Idempotent. */
  close(): void {
    this.#closed = true;
    this.#picture = null;
  }

  #allowed(): boolean {
    const now = this.#now();
    if (!this.#granted || now - this.#granted.at >= PERMISSION_RECHECK_MS) {
      this.#granted = { value: this.#api.CGPreflightScreenCaptureAccess(), at: now };
    }
    return this.#granted.value;
  }

  /** The active display `screen.id` names; throws when it is not (or no longer) connected. */
  #display(screen: Screen): number {
    const id = Number(screen.id);
    const displays: number[] = [];
    const count = [0];
    const listed =
      Number.isInteger(id) &&
      String(id) === screen.id &&
      this.#api.CGGetActiveDisplayList(MAX_DISPLAYS, displays, count) === 0 &&
      displays.slice(0, count[0]).includes(id);
    if (!listed) throw new Error(OUTSIDE);
    return id;
  }

  /** `image`'s pixels as BGRX in the reused buffer. */
  #copy(image: Ref): CapturedImage {
    const api = this.#api;
    const width = api.CGImageGetWidth(image);
    const height = api.CGImageGetHeight(image);
    const stride = api.CGImageGetBytesPerRow(image);
    const offsets = channelOffsets(api.CGImageGetBitsPerPixel(image), api.CGImageGetBitmapInfo(image));
    if (!offsets || width <= 0 || height <= 0 || stride < width * 4) throw new Error(FORMAT);
    const provider = api.CGImageGetDataProvider(image);
    const data = provider ? api.CGDataProviderCopyData(provider) : null;
    if (!data) throw new Error(REFUSED);
    try {
      const length = api.CFDataGetLength(data);
      const address = api.CFDataGetBytePtr(data);
      if (!address || length < stride * (height - 1) + width * 4) throw new Error(REFUSED);
      const source = api.view(address, Math.min(length, stride * height));
      const picture = this.#buffer(width, height, stride);
      const { b, g, r } = offsets;
      if (b === 0 && g === 1 && r === 2) picture.data.set(source);
      else {
        const target = picture.data;
        for (let row = 0; row < height; row++) {
          for (let offset = row * stride, end = offset + width * 4; offset < end; offset += 4) {
            const blue = source[offset + b]!;
            const green = source[offset + g]!;
            const red = source[offset + r]!;
            target[offset] = blue;
            target[offset + 1] = green;
            target[offset + 2] = red;
            target[offset + 3] = 0xff;
          }
        }
      }
      return picture;
    } finally {
      api.CFRelease(data);
    }
  }

  #buffer(width: number, height: number, stride: number): CapturedImage {
    const current = this.#picture;
    if (current && current.width === width && current.height === height && current.stride === stride) return current;
    this.#picture = { width, height, stride, data: new Uint8Array(stride * height) };
    return this.#picture;
  }

  /** Draws an arrow where the pointer is, when it is on `display`. */
  #drawPointer(display: number, picture: CapturedImage): void {
    const api = this.#api;
    const event = api.CGEventCreate(null);
    if (!event) return;
    let location: { x: number; y: number };
    try {
      location = api.CGEventGetLocation(event);
    } finally {
      api.CFRelease(event);
    }
    const { origin, size } = api.CGDisplayBounds(display);
    const inside =
      size.width > 0 &&
      size.height > 0 &&
      location.x >= origin.x &&
      location.y >= origin.y &&
      location.x < origin.x + size.width &&
      location.y < origin.y + size.height;
    if (!inside) return;
    // Points → the picture's device pixels (2 per point on Retina).
    const scaleX = picture.width / size.width;
    const scaleY = picture.height / size.height;
    const x = Math.floor((location.x - origin.x) * scaleX);
    const y = Math.floor((location.y - origin.y) * scaleY);
    drawCursor(picture, { ...arrowCursor(scaleX), x, y }, 0, 0);
  }
}

/** Options of `createMacCapturer`; `open` replaces the real frameworks in tests. */
export type MacCapturerCreateOptions = MacCapturerOptions & { open?: () => Promise<MacCaptureOpenResult> };

/**
 * The macOS capturer (issue 26). Never throws: when koffi, the frameworks or
 * `CGDisplayCreateImage` are missing, its status says why (French) and
 * `grab` throws it. Without the Screen Recording permission it asks macOS
 * once (`CGRequestScreenCaptureAccess`: the system prompt, and the app in
 * the settings' list) and its status gives the steps.
 */
export async function createMacCapturer(options: MacCapturerCreateOptions = {}): Promise<ScreenCapturer> {
  const open = options.open ?? (async () => (await import("./macos-capture-native.ts")).openMacCapture());
  const opened = await open();
  if ("reason" in opened) return unavailableCapturer(opened.reason);
  if (!opened.api.CGPreflightScreenCaptureAccess()) opened.api.CGRequestScreenCaptureAccess();
  return new MacCapturer(opened.api, { now: options.now });
}
