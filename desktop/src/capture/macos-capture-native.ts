/**
 * The macOS capture FFI boundary (issue 26, "the app sees the screen"):
 * CoreGraphics and CoreFoundation through koffi, exposed as a table of the C
 * functions (`MacCaptureApi`) so `macos-capture.ts` is unit-tested on Linux
 * with a fake table recording every call, as `../input/macos-native.ts` is.
 * References (CGImageRef, CFDataRef…) are opaque values.
 */
import type { CGPoint, CGRect } from "../input/macos-native.ts";
import type { Koffi } from "../input/koffi.ts";
import { loadKoffi } from "../input/koffi.ts";
import { CAPTURE_KOFFI_MISSING } from "./unavailable.ts";

/** A CGImageRef, CGDataProviderRef, CFDataRef or CGEventRef (opaque), null when a call failed. */
export type Ref = unknown;

/** The functions the macOS capturer calls, by their C names (source arguments are always NULL). */
export interface MacCaptureApi {
  /** Whether the Screen Recording permission is granted (macOS 10.15+; true before, where none exists). */
  CGPreflightScreenCaptureAccess(): boolean;
  /** Asks for it: the first time, macOS shows its prompt and lists the app in the settings. Returns the grant. */
  CGRequestScreenCaptureAccess(): boolean;
  /** Fills `displays` and `count` (single-element array) in place; returns a CGError (0 = success). */
  CGGetActiveDisplayList(max: number, displays: number[], count: number[]): number;
  /** The display's rectangle in the global space, points (what the injector's `Screen`s are). */
  CGDisplayBounds(display: number): CGRect;
  /** The display's picture, device pixels (Retina: 2 per point); null when refused. Owned: `CGImageRelease`. */
  CGDisplayCreateImage(display: number): Ref;
  CGImageGetWidth(image: Ref): number;
  CGImageGetHeight(image: Ref): number;
  CGImageGetBitsPerPixel(image: Ref): number;
  CGImageGetBytesPerRow(image: Ref): number;
  /** CGBitmapInfo: alpha info in bits 0–4, byte order in bits 12–14. */
  CGImageGetBitmapInfo(image: Ref): number;
  /** Not owned (Get rule). */
  CGImageGetDataProvider(image: Ref): Ref;
  /** The pixels as a CFData; owned: `CFRelease`. */
  CGDataProviderCopyData(provider: Ref): Ref;
  CFDataGetBytePtr(data: Ref): unknown;
  CFDataGetLength(data: Ref): number;
  CFRelease(ref: Ref): void;
  CGImageRelease(image: Ref): void;
  /** An event at the pointer's current place (owned: `CFRelease`). */
  CGEventCreate(source: null): Ref;
  /** Global space, points. */
  CGEventGetLocation(event: Ref): CGPoint;
  /** Not a C function: `bytes` bytes at `pointer` as a Uint8Array, without copy (koffi.view). */
  view(pointer: unknown, bytes: number): Uint8Array;
}

export type MacCaptureOpenResult = { api: MacCaptureApi } | { reason: string };

const FRAMEWORKS = "/System/Library/Frameworks";

/** CoreGraphics functions every supported macOS has, as koffi declarations. */
export const CORE_GRAPHICS_CAPTURE = {
  CGGetActiveDisplayList:
    "int32_t CGGetActiveDisplayList(uint32_t max, _Out_ uint32_t *displays, _Out_ uint32_t *count)",
  CGDisplayBounds: "AtelierCGRect CGDisplayBounds(uint32_t display)",
  CGImageGetWidth: "size_t CGImageGetWidth(void *image)",
  CGImageGetHeight: "size_t CGImageGetHeight(void *image)",
  CGImageGetBitsPerPixel: "size_t CGImageGetBitsPerPixel(void *image)",
  CGImageGetBytesPerRow: "size_t CGImageGetBytesPerRow(void *image)",
  CGImageGetBitmapInfo: "uint32_t CGImageGetBitmapInfo(void *image)",
  CGImageGetDataProvider: "void *CGImageGetDataProvider(void *image)",
  CGDataProviderCopyData: "void *CGDataProviderCopyData(void *provider)",
  CGImageRelease: "void CGImageRelease(void *image)",
  CGEventCreate: "void *CGEventCreate(void *source)",
  CGEventGetLocation: "AtelierCGPoint CGEventGetLocation(void *event)",
} as const;
/** CoreFoundation functions, as koffi declarations (CFIndex is a signed long). */
export const CORE_FOUNDATION_CAPTURE = {
  CFDataGetBytePtr: "void *CFDataGetBytePtr(void *data)",
  CFDataGetLength: "intptr_t CFDataGetLength(void *data)",
  CFRelease: "void CFRelease(void *ref)",
} as const;
/** Present only on some versions: bound one by one. */
export const OPTIONAL_CAPTURE = {
  CGDisplayCreateImage: "void *CGDisplayCreateImage(uint32_t display)",
  CGPreflightScreenCaptureAccess: "bool CGPreflightScreenCaptureAccess()",
  CGRequestScreenCaptureAccess: "bool CGRequestScreenCaptureAccess()",
} as const;

/** Declares CGPoint, CGSize, CGRect as `../input/macos-native.ts` does (type names are global to koffi). */
export function declareCGGeometry(koffi: Koffi): void {
  try {
    koffi.struct("AtelierCGPoint", { x: "double", y: "double" });
    koffi.struct("AtelierCGSize", { width: "double", height: "double" });
    koffi.struct("AtelierCGRect", { origin: "AtelierCGPoint", size: "AtelierCGSize" });
  } catch {
    // Declared already (by the injector, or an earlier open).
  }
}

const NO_FRAMEWORKS =
  "Les bibliothèques de macOS (CoreGraphics, CoreFoundation) n'ont pas pu être chargées : " +
  "l'écran ne peut pas être montré au technicien.";
/** Why capture is impossible when the function is gone (a macOS after 15 may drop it). */
export const NO_DISPLAY_IMAGE =
  "Cette version de macOS ne permet plus la capture de l'écran par CGDisplayCreateImage : l'écran ne peut pas " +
  "être montré au technicien (une prochaine version de ce logiciel utilisera ScreenCaptureKit).";

type Fn = (...args: unknown[]) => unknown;

/** Binds CoreGraphics and CoreFoundation for capture (issue 26). Never throws: `{ reason }` in French. */
export async function openMacCapture(): Promise<MacCaptureOpenResult> {
  let koffi: Koffi;
  try {
    koffi = await loadKoffi();
  } catch {
    return { reason: CAPTURE_KOFFI_MISSING };
  }
  let cg: Record<keyof typeof CORE_GRAPHICS_CAPTURE, Fn>;
  let cf: Record<keyof typeof CORE_FOUNDATION_CAPTURE, Fn>;
  let optional: Partial<Record<keyof typeof OPTIONAL_CAPTURE, Fn>>;
  try {
    // dlopen finds these in the dyld shared cache even though the files are not on disk (macOS 11+).
    const graphics = koffi.load(`${FRAMEWORKS}/CoreGraphics.framework/CoreGraphics`);
    const foundation = koffi.load(`${FRAMEWORKS}/CoreFoundation.framework/CoreFoundation`);
    declareCGGeometry(koffi);
    const bind = <Names extends string>(library: typeof graphics, table: Record<Names, string>) => {
      const bound = {} as Record<Names, Fn>;
      for (const name of Object.keys(table) as Names[]) bound[name] = library.func(table[name]);
      return bound;
    };
    cg = bind(graphics, CORE_GRAPHICS_CAPTURE);
    cf = bind(foundation, CORE_FOUNDATION_CAPTURE);
    optional = {};
    for (const [name, declaration] of Object.entries(OPTIONAL_CAPTURE)) {
      try {
        optional[name as keyof typeof OPTIONAL_CAPTURE] = graphics.func(declaration);
      } catch {
        // Absent on this version.
      }
    }
  } catch {
    return { reason: NO_FRAMEWORKS };
  }
  const createImage = optional.CGDisplayCreateImage;
  if (!createImage) return { reason: NO_DISPLAY_IMAGE };
  const { CGPreflightScreenCaptureAccess: preflight, CGRequestScreenCaptureAccess: request } = optional;
  const size = (value: unknown) => Number(value);
  const api: MacCaptureApi = {
    // Before 10.15 there is no permission to ask for.
    CGPreflightScreenCaptureAccess: () => (preflight ? Boolean(preflight()) : true),
    CGRequestScreenCaptureAccess: () => (request ? Boolean(request()) : true),
    CGGetActiveDisplayList(max, displays, count) {
      // koffi writes _Out_ arrays back into the JS arrays given.
      const list = new Array<number>(max).fill(0);
      const error = cg.CGGetActiveDisplayList(max, list, count) as number;
      displays.splice(0, displays.length, ...list);
      return error;
    },
    CGDisplayBounds: (display) => cg.CGDisplayBounds(display) as CGRect,
    CGDisplayCreateImage: (display) => createImage(display),
    CGImageGetWidth: (image) => size(cg.CGImageGetWidth(image)),
    CGImageGetHeight: (image) => size(cg.CGImageGetHeight(image)),
    CGImageGetBitsPerPixel: (image) => size(cg.CGImageGetBitsPerPixel(image)),
    CGImageGetBytesPerRow: (image) => size(cg.CGImageGetBytesPerRow(image)),
    CGImageGetBitmapInfo: (image) => cg.CGImageGetBitmapInfo(image) as number,
    CGImageGetDataProvider: (image) => cg.CGImageGetDataProvider(image),
    CGDataProviderCopyData: (provider) => cg.CGDataProviderCopyData(provider),
    CFDataGetBytePtr: (data) => cf.CFDataGetBytePtr(data),
    CFDataGetLength: (data) => size(cf.CFDataGetLength(data)),
    CFRelease: (ref) => void cf.CFRelease(ref),
    CGImageRelease: (image) => void cg.CGImageRelease(image),
    CGEventCreate: (source) => cg.CGEventCreate(source),
    CGEventGetLocation: (event) => cg.CGEventGetLocation(event) as CGPoint,
    view: (pointer, bytes) => new Uint8Array(koffi.view(pointer, bytes)),
  };
  return { api };
}
