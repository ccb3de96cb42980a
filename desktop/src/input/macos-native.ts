/**
 * The macOS FFI boundary (issue 15, "Injection" on macOS): CoreGraphics,
 * CoreFoundation and ApplicationServices through koffi, exposed as a table of
 * the C functions (`MacApi`) so `macos.ts` is unit-tested on Linux with a fake
 * table recording every call. Event references are opaque values.
 */
import { loadKoffi } from "./koffi.ts";

export type CGPoint = { x: number; y: number };
export type CGRect = { origin: CGPoint; size: { width: number; height: number } };
/** A CGEventRef (opaque). */
export type EventRef = unknown;

/** The functions the macOS backend calls, by their C names (source arguments are always NULL). */
export interface MacApi {
  AXIsProcessTrusted(): boolean;
  CGEventCreate(source: null): EventRef;
  CGEventGetLocation(event: EventRef): CGPoint;
  CGEventCreateMouseEvent(source: null, type: number, position: CGPoint, button: number): EventRef;
  CGEventCreateKeyboardEvent(source: null, keycode: number, down: boolean): EventRef;
  /** `units`: UTF-16 code units. */
  CGEventKeyboardSetUnicodeString(event: EventRef, length: number, units: number[]): void;
  /** The non-variadic form (macOS 10.13+): units 1 = lines; wheel1 vertical (> 0 up), wheel2 horizontal (> 0 left). */
  CGEventCreateScrollWheelEvent2(
    source: null,
    units: number,
    count: number,
    wheel1: number,
    wheel2: number,
    wheel3: number,
  ): EventRef;
  CGEventSetIntegerValueField(event: EventRef, field: number, value: number): void;
  CGEventSetFlags(event: EventRef, flags: number): void;
  /** `tap` 0 = kCGHIDEventTap. */
  CGEventPost(tap: number, event: EventRef): void;
  CFRelease(ref: EventRef): void;
  /** Fills `displays` and `count` (single-element array) in place; returns a CGError (0 = success). */
  CGGetActiveDisplayList(max: number, displays: number[], count: number[]): number;
  CGDisplayBounds(display: number): CGRect;
  CGDisplayPixelsWide(display: number): number;
  CGMainDisplayID(): number;
}

const FRAMEWORKS = "/System/Library/Frameworks";

/** Binds the frameworks. Throws (caught by the caller) when koffi or a framework cannot be loaded. */
export async function loadMacApi(): Promise<MacApi> {
  const koffi = await loadKoffi();
  // dlopen finds these in the dyld shared cache even though the files are not on disk (macOS 11+).
  const cg = koffi.load(`${FRAMEWORKS}/CoreGraphics.framework/CoreGraphics`);
  const cf = koffi.load(`${FRAMEWORKS}/CoreFoundation.framework/CoreFoundation`);
  const as = koffi.load(`${FRAMEWORKS}/ApplicationServices.framework/ApplicationServices`);
  try {
    koffi.struct("AtelierCGPoint", { x: "double", y: "double" });
    koffi.struct("AtelierCGSize", { width: "double", height: "double" });
    koffi.struct("AtelierCGRect", { origin: "AtelierCGPoint", size: "AtelierCGSize" });
  } catch {
    // Declared by an earlier load: koffi type names are global.
  }
  const f = {
    AXIsProcessTrusted: as.func("bool AXIsProcessTrusted()"),
    CGEventCreate: cg.func("void *CGEventCreate(void *source)"),
    CGEventGetLocation: cg.func("AtelierCGPoint CGEventGetLocation(void *event)"),
    CGEventCreateMouseEvent: cg.func(
      "void *CGEventCreateMouseEvent(void *source, uint32_t type, AtelierCGPoint position, uint32_t button)",
    ),
    CGEventCreateKeyboardEvent: cg.func("void *CGEventCreateKeyboardEvent(void *source, uint16_t keycode, bool down)"),
    CGEventKeyboardSetUnicodeString: cg.func(
      "void CGEventKeyboardSetUnicodeString(void *event, unsigned long length, const uint16_t *units)",
    ),
    CGEventCreateScrollWheelEvent2: cg.func(
      "void *CGEventCreateScrollWheelEvent2(void *source, uint32_t units, uint32_t count, int32_t w1, int32_t w2, int32_t w3)",
    ),
    CGEventSetIntegerValueField: cg.func(
      "void CGEventSetIntegerValueField(void *event, uint32_t field, int64_t value)",
    ),
    CGEventSetFlags: cg.func("void CGEventSetFlags(void *event, uint64_t flags)"),
    CGEventPost: cg.func("void CGEventPost(uint32_t tap, void *event)"),
    CFRelease: cf.func("void CFRelease(void *ref)"),
    CGGetActiveDisplayList: cg.func(
      "int32_t CGGetActiveDisplayList(uint32_t max, _Out_ uint32_t *displays, _Out_ uint32_t *count)",
    ),
    CGDisplayBounds: cg.func("AtelierCGRect CGDisplayBounds(uint32_t display)"),
    CGDisplayPixelsWide: cg.func("size_t CGDisplayPixelsWide(uint32_t display)"),
    CGMainDisplayID: cg.func("uint32_t CGMainDisplayID()"),
  };
  return {
    AXIsProcessTrusted: () => Boolean(f.AXIsProcessTrusted()),
    CGEventCreate: (source) => f.CGEventCreate(source),
    CGEventGetLocation: (event) => f.CGEventGetLocation(event),
    CGEventCreateMouseEvent: (source, type, position, button) =>
      f.CGEventCreateMouseEvent(source, type, position, button),
    CGEventCreateKeyboardEvent: (source, keycode, down) => f.CGEventCreateKeyboardEvent(source, keycode, down),
    CGEventKeyboardSetUnicodeString: (event, length, units) =>
      void f.CGEventKeyboardSetUnicodeString(event, length, Uint16Array.from(units)),
    CGEventCreateScrollWheelEvent2: (source, units, count, w1, w2, w3) =>
      f.CGEventCreateScrollWheelEvent2(source, units, count, w1, w2, w3),
    CGEventSetIntegerValueField: (event, field, value) => void f.CGEventSetIntegerValueField(event, field, value),
    CGEventSetFlags: (event, flags) => void f.CGEventSetFlags(event, flags),
    CGEventPost: (tap, event) => void f.CGEventPost(tap, event),
    CFRelease: (ref) => void f.CFRelease(ref),
    CGGetActiveDisplayList: (max, displays, count) => {
      // koffi writes _Out_ arrays back into the JS arrays given.
      const list = new Array<number>(max).fill(0);
      const error: number = f.CGGetActiveDisplayList(max, list, count);
      displays.splice(0, displays.length, ...list);
      return error;
    },
    CGDisplayBounds: (display) => f.CGDisplayBounds(display),
    CGDisplayPixelsWide: (display) => Number(f.CGDisplayPixelsWide(display)),
    CGMainDisplayID: () => f.CGMainDisplayID(),
  };
}
