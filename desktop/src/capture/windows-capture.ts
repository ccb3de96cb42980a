/**
 * Windows capture (issue 26, "the app sees the screen"): GDI, through
 * `GdiCaptureApi` (`windows-capture-native.ts`).
 *
 * - Each grab copies the monitor's rectangle of the virtual screen from the
 *   screen DC (`GetDC(NULL)`) into a top-down 32-bit DIB section selected in
 *   a memory DC, with `BitBlt(SRCCOPY | CAPTUREBLT)` (CAPTUREBLT: layered
 *   windows too, as WebRTC's GDI capturer does; on some systems it makes the
 *   pointer flicker during the copy). The DIB section's memory is read in
 *   place (a koffi view, BGRX, stride = width × 4): no `GetDIBits` copy. The
 *   DC and the section are kept between grabs and remade when the size changes.
 * - The pointer is not in the copied pixels: it is drawn in with
 *   `GetCursorInfo` + `DrawIconEx`, its hot spot from `GetIconInfo` (whose two
 *   bitmaps are deleted at once).
 * - Coordinates: the process is per-monitor DPI aware (v2), as the injector
 *   makes it (`../input/windows.ts`, declared here too in case capture starts
 *   first), so the injector's monitor rectangles, `BitBlt`'s source
 *   coordinates and the pointer's position are all physical pixels of the
 *   virtual screen (negative left of or above the primary monitor).
 * - When the secure desktop is shown (a UAC prompt, Ctrl+Alt+Suppr, the lock
 *   screen), Windows refuses the copy: `grab` throws a French error, the
 *   stream reports it and tries again at its next capture.
 *
 * Why GDI and not DXGI Desktop Duplication: duplication (`IDXGIOutput1::
 * DuplicateOutput`, `AcquireNextFrame`, `GetFrameDirtyRects`) gives the
 * changed rectangles for free and costs less CPU on a busy 4K screen, but it
 * is a chain of a dozen COM interfaces (D3D11 device, DXGI adapter and
 * output, staging texture, `Map`) called through vtable slots that no test
 * here can check against real Windows: one wrong slot is a crash, not an
 * error. It is also lost on every desktop switch (UAC, Ctrl+Alt+Suppr) and
 * must then be recreated, with GDI kept as the fallback anyway (STACK-NOTES).
 * GDI needs no permission and works from Windows 7 on; the tile comparison
 * in `tiles.ts` already finds what changed. DXGI would add: dirty and moved
 * rectangles without comparing pixels, a lower cost per frame, the pointer's
 * shape apart from the picture — worth it once a real Windows machine can
 * run the tests.
 */
import type { Screen } from "#app/remote-support/device-protocol.ts";
import type { Capture } from "#app/remote-support/screen-protocol.ts";
import type { CapturedImage, ScreenCapturer } from "./capturer.ts";
import { unavailableCapturer } from "./unavailable.ts";
import type { CursorInfo, GdiCaptureApi, GdiCaptureOpenResult, Handle, IconInfo } from "./windows-capture-native.ts";
import { SIZEOF_CURSORINFO } from "./windows-capture-native.ts";

/** `BitBlt` raster operations: plain copy, plus layered windows. */
export const SRCCOPY = 0x00cc0020;
export const CAPTUREBLT = 0x40000000;
const DIB_RGB_COLORS = 0;
const BI_RGB = 0;
const CURSOR_SHOWING = 0x1;
const DI_NORMAL = 0x3;
const SM = { XVIRTUALSCREEN: 76, YVIRTUALSCREEN: 77, CXVIRTUALSCREEN: 78, CYVIRTUALSCREEN: 79 } as const;
const DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2 = -4;

/** Why a grab failed while a secure desktop is shown (French, a notice to the customer and the technician). */
export const SECURE_DESKTOP_REASON =
  "Windows refuse pour l'instant la lecture de l'écran : une fenêtre de sécurité est sans doute affichée " +
  "(contrôle du compte d'utilisateur, Ctrl+Alt+Suppr ou écran de verrouillage). Le client y répond lui-même ; " +
  "l'image reprend ensuite.";
const NO_DESKTOP =
  "Windows ne donne pas accès à l'écran (aucun bureau accessible : session verrouillée ou déconnectée ?).";
const OUTSIDE = "Cet écran est en dehors du bureau de Windows (la disposition des écrans a peut-être changé).";
const CLOSED = "La capture de l'écran est fermée.";

/** A rectangle of the virtual screen, physical px. */
type Area = { x: number; y: number; width: number; height: number };

/** The part of `screen` inside the virtual screen `desktop`; null when none. */
function clip(screen: Screen, desktop: Area): Area | null {
  const x = Math.max(desktop.x, screen.x);
  const y = Math.max(desktop.y, screen.y);
  const right = Math.min(desktop.x + desktop.width, screen.x + screen.width);
  const bottom = Math.min(desktop.y + desktop.height, screen.y + screen.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : null;
}

/**
 * Declares per-monitor DPI awareness v2 as the injector does, or system
 * awareness on Windows before 10 (1703). The injector usually declared it
 * already (the v2 call then fails: a process declares once): system
 * awareness is asked only when the process is not DPI aware at all, so that
 * v2 is never asked to give way.
 */
export function declareDpiAwareness(
  api: Pick<GdiCaptureApi, "SetProcessDpiAwarenessContext" | "SetProcessDPIAware" | "IsProcessDPIAware">,
): void {
  if (api.SetProcessDpiAwarenessContext(DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2)) return;
  if (!api.IsProcessDPIAware()) api.SetProcessDPIAware();
}

/** The GDI capturer over a `GdiCaptureApi` (real or fake), issue 26. */
export class GdiCapturer implements ScreenCapturer {
  readonly #api: GdiCaptureApi;
  #memoryDc: Handle = null;
  /** The bitmap the memory DC came with, put back before the DC is deleted. */
  #original: Handle = null;
  /** The DIB section selected in the memory DC, and its pixels. */
  #section: { bitmap: Handle; image: CapturedImage } | null = null;
  #closed = false;

  constructor(api: GdiCaptureApi) {
    this.#api = api;
  }

  /** Always ok: GDI needs no permission; a refused copy is reported by `grab`. */
  status(): Capture {
    return { ok: true };
  }

  /**
   * The pixels of `screen` (the injector's rectangle, physical px of the
   * virtual screen), clipped to the virtual screen, pointer included: BGRX,
   * stride = width × 4, in the DIB section's memory (valid until the next
   * grab or `close`). Throws (French) when the capturer is closed, the
   * rectangle lies outside the desktop, GDI cannot allocate the picture, or
   * Windows refuses the copy (secure desktop: `SECURE_DESKTOP_REASON`).
   */
  grab(screen: Screen): CapturedImage {
    if (this.#closed) throw new Error(CLOSED);
    const api = this.#api;
    const desktop = {
      x: api.GetSystemMetrics(SM.XVIRTUALSCREEN),
      y: api.GetSystemMetrics(SM.YVIRTUALSCREEN),
      width: api.GetSystemMetrics(SM.CXVIRTUALSCREEN),
      height: api.GetSystemMetrics(SM.CYVIRTUALSCREEN),
    };
    // No answer (0 × 0): trust the injector's rectangle.
    const area = desktop.width > 0 && desktop.height > 0 ? clip(screen, desktop) : screen;
    if (!area) throw new Error(OUTSIDE);
    const screenDc = api.GetDC(null);
    if (!screenDc) throw new Error(NO_DESKTOP);
    try {
      const image = this.#buffer(screenDc, area.width, area.height);
      const copied = api.BitBlt(
        this.#memoryDc,
        0,
        0,
        area.width,
        area.height,
        screenDc,
        area.x,
        area.y,
        SRCCOPY | CAPTUREBLT,
      );
      if (!copied) throw new Error(SECURE_DESKTOP_REASON);
      this.#drawPointer(area);
      // GDI batches drawing: flush before the section's memory is read.
      api.GdiFlush();
      return image;
    } finally {
      api.ReleaseDC(null, screenDc);
    }
  }

  /** Frees the DIB section and the memory DC. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    const api = this.#api;
    if (this.#section) {
      if (this.#original) api.SelectObject(this.#memoryDc, this.#original);
      api.DeleteObject(this.#section.bitmap);
      this.#section = null;
    }
    if (this.#memoryDc) api.DeleteDC(this.#memoryDc);
    this.#memoryDc = null;
  }

  /** The DIB section of `width` × `height` selected in the memory DC, made on the first grab or a new size. */
  #buffer(screenDc: Handle, width: number, height: number): CapturedImage {
    const api = this.#api;
    this.#memoryDc ??= api.CreateCompatibleDC(screenDc) || null;
    if (!this.#memoryDc) throw new Error(`Windows n'a pas pu préparer la copie de l'écran (${width} × ${height} px).`);
    const current = this.#section;
    if (current && current.image.width === width && current.image.height === height) return current.image;
    const bits: unknown[] = [null];
    const info = {
      bmiHeader: {
        biSize: 40,
        biWidth: width,
        biHeight: -height, // top-down: row 0 is the top of the screen
        biPlanes: 1,
        biBitCount: 32,
        biCompression: BI_RGB,
        biSizeImage: 0,
        biXPelsPerMeter: 0,
        biYPelsPerMeter: 0,
        biClrUsed: 0,
        biClrImportant: 0,
      },
      bmiColors: [0],
    };
    const bitmap = api.CreateDIBSection(this.#memoryDc, info, DIB_RGB_COLORS, bits, null, 0);
    if (!bitmap || !bits[0]) {
      if (bitmap) api.DeleteObject(bitmap);
      throw new Error(`Windows n'a pas pu réserver la mémoire de l'image de l'écran (${width} × ${height} px).`);
    }
    const replaced = api.SelectObject(this.#memoryDc, bitmap);
    if (current) api.DeleteObject(current.bitmap);
    else this.#original = replaced;
    const stride = width * 4;
    const image = { width, height, stride, data: api.view(bits[0], stride * height) };
    this.#section = { bitmap, image };
    return image;
  }

  /** Draws the pointer when it is shown and its hot spot lies on `area`; failures leave the picture as is. */
  #drawPointer(area: Area): void {
    const api = this.#api;
    const cursor: CursorInfo = { cbSize: SIZEOF_CURSORINFO, flags: 0, hCursor: null, ptScreenPos: { x: 0, y: 0 } };
    if (!api.GetCursorInfo(cursor) || !(cursor.flags & CURSOR_SHOWING) || !cursor.hCursor) return;
    const { x, y } = cursor.ptScreenPos;
    if (x < area.x || y < area.y || x >= area.x + area.width || y >= area.y + area.height) return;
    const icon: IconInfo = { fIcon: 0, xHotspot: 0, yHotspot: 0, hbmMask: null, hbmColor: null };
    if (!api.GetIconInfo(cursor.hCursor, icon)) return;
    // GetIconInfo made copies of the cursor's bitmaps for us: delete them whatever happens.
    if (icon.hbmMask) api.DeleteObject(icon.hbmMask);
    if (icon.hbmColor) api.DeleteObject(icon.hbmColor);
    const left = x - icon.xHotspot - area.x;
    const top = y - icon.yHotspot - area.y;
    api.DrawIconEx(this.#memoryDc, left, top, cursor.hCursor, 0, 0, 0, null, DI_NORMAL);
  }
}

/** Options of `createWindowsCapturer`; `open` replaces the real user32/gdi32 in tests. */
export type WindowsCapturerOptions = { open?: () => Promise<GdiCaptureOpenResult> };

/**
 * The Windows capturer (issue 26). Never throws: when koffi or the system
 * libraries cannot load, its status says why (French) and `grab` throws it.
 * Declares per-monitor DPI awareness first (see `declareDpiAwareness`).
 */
export async function createWindowsCapturer(options: WindowsCapturerOptions = {}): Promise<ScreenCapturer> {
  const open = options.open ?? (async () => (await import("./windows-capture-native.ts")).openGdiCapture());
  const opened = await open();
  if ("reason" in opened) return unavailableCapturer(opened.reason);
  declareDpiAwareness(opened.api);
  return new GdiCapturer(opened.api);
}
