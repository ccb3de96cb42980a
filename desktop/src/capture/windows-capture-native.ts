/**
 * The Windows capture FFI boundary (issue 26, "the app sees the screen"):
 * user32.dll and gdi32.dll through koffi, exposed as a table of the C
 * functions (`GdiCaptureApi`) so `windows-capture.ts` is unit-tested on Linux
 * with a fake table recording every call, as `../input/windows-native.ts` is.
 * Struct layouts are those of x64 Windows (`gdiCaptureTypes`, checked with
 * koffi by the tests): handles and pointers are 8 bytes, `LONG`/`DWORD`/`BOOL` 4.
 */
import type { Koffi } from "../input/koffi.ts";
import { loadKoffi } from "../input/koffi.ts";
import { CAPTURE_KOFFI_MISSING } from "./unavailable.ts";

/** An HDC, HBITMAP, HGDIOBJ or HCURSOR: opaque, null when a call failed. */
export type Handle = unknown;

/** BITMAPINFOHEADER (40 bytes); `biHeight` < 0 asks for top-down rows. */
export type BitmapInfoHeader = {
  biSize: number;
  biWidth: number;
  biHeight: number;
  biPlanes: number;
  biBitCount: number;
  biCompression: number;
  biSizeImage: number;
  biXPelsPerMeter: number;
  biYPelsPerMeter: number;
  biClrUsed: number;
  biClrImportant: number;
};
/** BITMAPINFO with its one (unused at 32 bits) colour entry: 44 bytes. */
export type BitmapInfo = { bmiHeader: BitmapInfoHeader; bmiColors: number[] };
/** CURSORINFO (24 bytes): `cbSize` on input; the position in physical px of the virtual screen. */
export type CursorInfo = { cbSize: number; flags: number; hCursor: Handle; ptScreenPos: { x: number; y: number } };
/** ICONINFO (32 bytes): the hot spot, px, and two bitmaps the caller must delete. */
export type IconInfo = { fIcon: number; xHotspot: number; yHotspot: number; hbmMask: Handle; hbmColor: Handle };

export const SIZEOF_BITMAPINFO = 44;
export const SIZEOF_CURSORINFO = 24;

/** The user32/gdi32 functions the GDI capturer calls, by their C names (BOOL results as booleans). */
export interface GdiCaptureApi {
  /** Per-monitor DPI awareness v2 (context -4), as the injector declares it; false when already set or missing. */
  SetProcessDpiAwarenessContext(context: number): boolean;
  /** Older fallback (Windows 7/8.1): system DPI aware. */
  SetProcessDPIAware(): boolean;
  /** Whether the process is DPI aware already (system or per monitor); false when missing. */
  IsProcessDPIAware(): boolean;
  GetSystemMetrics(index: number): number;
  /** `GetDC(NULL)`: the whole virtual screen; null when the thread has no desktop. */
  GetDC(window: null): Handle;
  ReleaseDC(window: null, dc: Handle): number;
  CreateCompatibleDC(dc: Handle): Handle;
  DeleteDC(dc: Handle): boolean;
  /** Writes the pixels' address into `bits[0]`; null on failure (out of memory). */
  CreateDIBSection(dc: Handle, info: BitmapInfo, usage: number, bits: unknown[], section: null, offset: number): Handle;
  /** Returns the object it replaces in `dc`. */
  SelectObject(dc: Handle, object: Handle): Handle;
  DeleteObject(object: Handle): boolean;
  /** Copies a rectangle of `source` (x, y: its px) to (x, y) of `target`; false when refused (secure desktop). */
  BitBlt(
    target: Handle,
    x: number,
    y: number,
    width: number,
    height: number,
    source: Handle,
    sourceX: number,
    sourceY: number,
    rop: number,
  ): boolean;
  /** Ends GDI's batched drawing, before the DIB section's memory is read. */
  GdiFlush(): boolean;
  /** Fills `info` in place (its `cbSize` must be 24). */
  GetCursorInfo(info: CursorInfo): boolean;
  /** Fills `info`; the caller deletes `hbmMask` and `hbmColor`. */
  GetIconInfo(icon: Handle, info: IconInfo): boolean;
  DrawIconEx(
    dc: Handle,
    x: number,
    y: number,
    icon: Handle,
    width: number,
    height: number,
    step: number,
    brush: null,
    flags: number,
  ): boolean;
  /** Not a Win32 function: `bytes` bytes at `pointer` as a Uint8Array, without copy (koffi.view). */
  view(pointer: unknown, bytes: number): Uint8Array;
}

export type GdiCaptureOpenResult = { api: GdiCaptureApi } | { reason: string };

type TypeObject = ReturnType<Koffi["struct"]>;
/** The koffi types of the structs used here. */
export type GdiCaptureTypes = Record<"BITMAPINFOHEADER" | "BITMAPINFO" | "CURSORINFO" | "ICONINFO", TypeObject>;
const typesByKoffi = new WeakMap<object, GdiCaptureTypes>();

/** Declares the structs in `koffi` (once per koffi instance: type names are global to it). */
export function gdiCaptureTypes(koffi: Koffi): GdiCaptureTypes {
  const known = typesByKoffi.get(koffi);
  if (known) return known;
  const BITMAPINFOHEADER = koffi.struct("AtelierBITMAPINFOHEADER", {
    biSize: "uint32_t",
    biWidth: "int32_t",
    biHeight: "int32_t",
    biPlanes: "uint16_t",
    biBitCount: "uint16_t",
    biCompression: "uint32_t",
    biSizeImage: "uint32_t",
    biXPelsPerMeter: "int32_t",
    biYPelsPerMeter: "int32_t",
    biClrUsed: "uint32_t",
    biClrImportant: "uint32_t",
  });
  const BITMAPINFO = koffi.struct("AtelierBITMAPINFO", {
    bmiHeader: BITMAPINFOHEADER,
    bmiColors: koffi.array("uint32_t", 1),
  });
  const POINT = koffi.struct("AtelierCapturePOINT", { x: "int32_t", y: "int32_t" });
  const CURSORINFO = koffi.struct("AtelierCURSORINFO", {
    cbSize: "uint32_t",
    flags: "uint32_t",
    hCursor: "void *",
    ptScreenPos: POINT,
  });
  const ICONINFO = koffi.struct("AtelierICONINFO", {
    fIcon: "int32_t",
    xHotspot: "uint32_t",
    yHotspot: "uint32_t",
    hbmMask: "void *",
    hbmColor: "void *",
  });
  const types = { BITMAPINFOHEADER, BITMAPINFO, CURSORINFO, ICONINFO };
  typesByKoffi.set(koffi, types);
  return types;
}

/** user32.dll's functions, as koffi declarations (BOOL is `int`: koffi's `bool` reads one byte). */
export const USER32_CAPTURE = {
  GetSystemMetrics: "int __stdcall GetSystemMetrics(int index)",
  GetDC: "void * __stdcall GetDC(void *window)",
  ReleaseDC: "int __stdcall ReleaseDC(void *window, void *dc)",
  GetCursorInfo: "int __stdcall GetCursorInfo(_Inout_ AtelierCURSORINFO *info)",
  GetIconInfo: "int __stdcall GetIconInfo(void *icon, _Out_ AtelierICONINFO *info)",
  DrawIconEx:
    "int __stdcall DrawIconEx(void *dc, int x, int y, void *icon, int width, int height, uint32_t step, " +
    "void *brush, uint32_t flags)",
} as const;

/** gdi32.dll's functions, as koffi declarations. */
export const GDI32_CAPTURE = {
  CreateCompatibleDC: "void * __stdcall CreateCompatibleDC(void *dc)",
  DeleteDC: "int __stdcall DeleteDC(void *dc)",
  CreateDIBSection:
    "void * __stdcall CreateDIBSection(void *dc, const AtelierBITMAPINFO *info, uint32_t usage, _Out_ void **bits, " +
    "void *section, uint32_t offset)",
  SelectObject: "void * __stdcall SelectObject(void *dc, void *object)",
  DeleteObject: "int __stdcall DeleteObject(void *object)",
  BitBlt:
    "int __stdcall BitBlt(void *target, int x, int y, int width, int height, void *source, int sourceX, " +
    "int sourceY, uint32_t rop)",
  GdiFlush: "int __stdcall GdiFlush()",
} as const;

const NO_LIBRARIES =
  "Les bibliothèques de Windows (user32.dll, gdi32.dll) n'ont pas pu être chargées : " +
  "l'écran ne peut pas être montré au technicien.";

/**
 * Binds user32.dll and gdi32.dll for capture (issue 26). Never throws:
 * koffi or a library missing gives `{ reason }` in French.
 */
export async function openGdiCapture(): Promise<GdiCaptureOpenResult> {
  let koffi: Koffi;
  try {
    koffi = await loadKoffi();
  } catch {
    return { reason: CAPTURE_KOFFI_MISSING };
  }
  try {
    const user32 = koffi.load("user32.dll");
    const gdi32 = koffi.load("gdi32.dll");
    gdiCaptureTypes(koffi);
    type Fn = (...args: unknown[]) => unknown;
    const u = {} as Record<keyof typeof USER32_CAPTURE, Fn>;
    for (const [name, declaration] of Object.entries(USER32_CAPTURE)) {
      u[name as keyof typeof USER32_CAPTURE] = user32.func(declaration);
    }
    const g = {} as Record<keyof typeof GDI32_CAPTURE, Fn>;
    for (const [name, declaration] of Object.entries(GDI32_CAPTURE)) {
      g[name as keyof typeof GDI32_CAPTURE] = gdi32.func(declaration);
    }
    const optional = (declaration: string): Fn | null => {
      try {
        return user32.func(declaration);
      } catch {
        return null; // Missing on older Windows.
      }
    };
    const setContext = optional("int __stdcall SetProcessDpiAwarenessContext(intptr_t context)");
    const setAware = optional("int __stdcall SetProcessDPIAware()");
    const isAware = optional("int __stdcall IsProcessDPIAware()");
    const api: GdiCaptureApi = {
      SetProcessDpiAwarenessContext: (context) => (setContext ? Boolean(setContext(context)) : false),
      SetProcessDPIAware: () => (setAware ? Boolean(setAware()) : false),
      IsProcessDPIAware: () => (isAware ? Boolean(isAware()) : false),
      GetSystemMetrics: (index) => u.GetSystemMetrics(index) as number,
      GetDC: (window) => u.GetDC(window),
      ReleaseDC: (window, dc) => u.ReleaseDC(window, dc) as number,
      CreateCompatibleDC: (dc) => g.CreateCompatibleDC(dc),
      DeleteDC: (dc) => Boolean(g.DeleteDC(dc)),
      CreateDIBSection: (dc, info, usage, bits, section, offset) =>
        g.CreateDIBSection(dc, info, usage, bits, section, offset),
      SelectObject: (dc, object) => g.SelectObject(dc, object),
      DeleteObject: (object) => Boolean(g.DeleteObject(object)),
      BitBlt: (target, x, y, width, height, source, sourceX, sourceY, rop) =>
        Boolean(g.BitBlt(target, x, y, width, height, source, sourceX, sourceY, rop)),
      GdiFlush: () => Boolean(g.GdiFlush()),
      GetCursorInfo: (info) => Boolean(u.GetCursorInfo(info)),
      GetIconInfo: (icon, info) => Boolean(u.GetIconInfo(icon, info)),
      DrawIconEx: (dc, x, y, icon, width, height, step, brush, flags) =>
        Boolean(u.DrawIconEx(dc, x, y, icon, width, height, step, brush, flags)),
      view: (pointer, bytes) => new Uint8Array(koffi.view(pointer, bytes)),
    };
    return { api };
  } catch {
    return { reason: NO_LIBRARIES };
  }
}
