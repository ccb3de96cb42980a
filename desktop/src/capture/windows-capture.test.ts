/**
 * The Windows GDI capturer (issue 26) over a fake user32/gdi32 that records
 * every call and copies from a synthetic virtual screen: the rectangle asked
 * of BitBlt (physical px, negative left of the primary monitor), the pointer
 * drawn at its hot spot, buffers reused and freed, a refused copy (secure
 * desktop) thrown in French while the stream goes on; struct layouts and
 * declarations checked with koffi.
 */
import { describe, expect, it } from "vitest";
import type { Screen } from "#app/remote-support/device-protocol.ts";
import type { ScreenFrame } from "#app/remote-support/screen-protocol.ts";
import { loadKoffi } from "../input/koffi.ts";
import { ScreenStream } from "./stream.ts";
import type { Rgb } from "./test-images.ts";
import { fillRect, makeImage, pixel } from "./test-images.ts";
import type { BitmapInfo, CursorInfo, GdiCaptureApi, IconInfo } from "./windows-capture-native.ts";
import {
  GDI32_CAPTURE,
  gdiCaptureTypes,
  SIZEOF_BITMAPINFO,
  SIZEOF_CURSORINFO,
  USER32_CAPTURE,
} from "./windows-capture-native.ts";
import { CAPTUREBLT, createWindowsCapturer, SECURE_DESKTOP_REASON, SRCCOPY } from "./windows-capture.ts";

const GREY: Rgb = [100, 100, 100];
const BLUE: Rgb = [0, 0, 255];
const RED: Rgb = [255, 0, 0];
const WHITE: Rgb = [255, 255, 255];
const PRIMARY: Screen = { id: "\\\\.\\DISPLAY1", x: 0, y: 0, width: 1920, height: 1080, scale: 1, primary: true };
const LEFT: Screen = { id: "\\\\.\\DISPLAY2", x: -1280, y: 56, width: 1280, height: 1024, scale: 1, primary: false };

/**
 * The virtual screen −1280…1919 × 0…1079: the primary monitor grey with a red
 * pixel at (10, 20), the left one blue. Handles are strings; a DIB's memory is
 * a Uint8Array, handed out by `view`; DrawIconEx paints a 4 × 4 white square.
 */
function fakeGdi(options: { cursor?: { x: number; y: number; shown?: boolean }; dpi?: "free" | "set" | "old" } = {}) {
  const desktop = makeImage(3200, 1080, [0, 0, 0]);
  fillRect(desktop, 1280, 0, 1920, 1080, GREY);
  fillRect(desktop, 0, 56, 1280, 1024, BLUE);
  fillRect(desktop, 1290, 20, 1, 1, RED);
  const calls: string[] = [];
  const memory = new Map<string, { width: number; height: number; data: Uint8Array }>();
  const selected = new Map<string, string>();
  let next = 1;
  let refuse = false;
  const api: GdiCaptureApi = {
    // "set": the injector declared it first; "old": Windows without per-monitor v2.
    SetProcessDpiAwarenessContext: (context) => (
      calls.push(`SetProcessDpiAwarenessContext(${context})`),
      (options.dpi ?? "free") === "free"
    ),
    SetProcessDPIAware: () => (calls.push("SetProcessDPIAware()"), true),
    IsProcessDPIAware: () => (calls.push("IsProcessDPIAware()"), options.dpi === "set"),
    GetSystemMetrics: (index) => ({ 76: -1280, 77: 0, 78: 3200, 79: 1080 })[index] ?? 0,
    GetDC: (window) => (calls.push(`GetDC(${window})`), "screen"),
    ReleaseDC: (_window, dc) => (calls.push(`ReleaseDC(${String(dc)})`), 1),
    CreateCompatibleDC: (dc) => (calls.push(`CreateCompatibleDC(${String(dc)})`), "memory-dc"),
    DeleteDC: (dc) => (calls.push(`DeleteDC(${String(dc)})`), true),
    CreateDIBSection(dc, info: BitmapInfo, usage, bits) {
      const { biWidth: width, biHeight, biBitCount, biSize } = info.bmiHeader;
      const name = `dib${next++}`;
      calls.push(`CreateDIBSection(${String(dc)}, ${width}x${biHeight}x${biBitCount}, size ${biSize}, ${usage})`);
      memory.set(name, { width, height: -biHeight, data: new Uint8Array(width * 4 * -biHeight) });
      bits[0] = `${name}-bits`;
      return name;
    },
    SelectObject(dc, object) {
      calls.push(`SelectObject(${String(dc)}, ${String(object)})`);
      const previous = selected.get(dc as string) ?? "stock-bitmap";
      selected.set(dc as string, object as string);
      return previous;
    },
    DeleteObject: (object) => (calls.push(`DeleteObject(${String(object)})`), true),
    BitBlt(target, x, y, width, height, source, sourceX, sourceY, rop) {
      calls.push(
        `BitBlt(${String(target)}, ${x}, ${y}, ${width}, ${height}, ${String(source)}, ${sourceX}, ${sourceY})`,
      );
      expect(rop).toBe(SRCCOPY | CAPTUREBLT);
      if (refuse) return false;
      const dib = memory.get(selected.get(target as string)!)!;
      for (let row = 0; row < height; row++) {
        const start = (sourceY + row) * desktop.stride + (sourceX + 1280) * 4;
        dib.data.set(desktop.data.subarray(start, start + width * 4), (y + row) * dib.width * 4);
      }
      return true;
    },
    GdiFlush: () => (calls.push("GdiFlush()"), true),
    GetCursorInfo(info: CursorInfo) {
      expect(info.cbSize).toBe(24);
      const cursor = options.cursor;
      if (!cursor) return false;
      Object.assign(info, { flags: cursor.shown === false ? 0 : 1, hCursor: "arrow", ptScreenPos: cursor });
      return true;
    },
    GetIconInfo(icon, info: IconInfo) {
      calls.push(`GetIconInfo(${String(icon)})`);
      Object.assign(info, { fIcon: 0, xHotspot: 2, yHotspot: 3, hbmMask: "mask", hbmColor: "colour" });
      return true;
    },
    DrawIconEx(dc, x, y, icon, width, height, step, brush, flags) {
      calls.push(
        `DrawIconEx(${String(dc)}, ${x}, ${y}, ${String(icon)}, ${width}, ${height}, ${step}, ${brush}, ${flags})`,
      );
      const dib = memory.get(selected.get(dc as string)!)!;
      fillRect({ ...dib, stride: dib.width * 4 }, x, y, 4, 4, WHITE);
      return true;
    },
    view(pointer, bytes) {
      const dib = memory.get(String(pointer).replace(/-bits$/, ""))!;
      expect(bytes).toBe(dib.data.byteLength);
      return dib.data;
    },
  };
  return { api, calls, setRefused: (value: boolean) => (refuse = value) };
}

describe("Windows GDI capturer (fake user32/gdi32)", () => {
  it("declares per-monitor DPI awareness, then copies the primary monitor from the screen DC", async () => {
    const { api, calls } = fakeGdi();
    const capturer = await createWindowsCapturer({ open: async () => ({ api }) });
    expect(calls).toEqual(["SetProcessDpiAwarenessContext(-4)"]);
    expect(capturer.status()).toEqual({ ok: true });
    const image = capturer.grab(PRIMARY);
    expect(image).toMatchObject({ width: 1920, height: 1080, stride: 1920 * 4 });
    expect(pixel(image, 10, 20)).toEqual(RED);
    expect(pixel(image, 1919, 1079)).toEqual(GREY);
    expect(calls.slice(1)).toEqual([
      "GetDC(null)",
      "CreateCompatibleDC(screen)",
      // Top-down (negative height), 32 bits a pixel, BITMAPINFOHEADER of 40 bytes, DIB_RGB_COLORS.
      "CreateDIBSection(memory-dc, 1920x-1080x32, size 40, 0)",
      "SelectObject(memory-dc, dib1)",
      "BitBlt(memory-dc, 0, 0, 1920, 1080, screen, 0, 0)",
      "GdiFlush()",
      "ReleaseDC(screen)",
    ]);
  });

  it("leaves the injector's per-monitor awareness alone, and asks system awareness only on older Windows", async () => {
    const injectorFirst = fakeGdi({ dpi: "set" });
    await createWindowsCapturer({ open: async () => ({ api: injectorFirst.api }) });
    expect(injectorFirst.calls).toEqual(["SetProcessDpiAwarenessContext(-4)", "IsProcessDPIAware()"]);
    const older = fakeGdi({ dpi: "old" });
    await createWindowsCapturer({ open: async () => ({ api: older.api }) });
    expect(older.calls).toEqual(["SetProcessDpiAwarenessContext(-4)", "IsProcessDPIAware()", "SetProcessDPIAware()"]);
  });

  it("reads a monitor left of the primary one from its negative coordinates", async () => {
    const { api, calls } = fakeGdi();
    const capturer = await createWindowsCapturer({ open: async () => ({ api }) });
    const image = capturer.grab(LEFT);
    expect(image).toMatchObject({ width: 1280, height: 1024 });
    expect(pixel(image, 0, 0)).toEqual(BLUE);
    expect(pixel(image, 1279, 1023)).toEqual(BLUE);
    expect(calls).toContain("BitBlt(memory-dc, 0, 0, 1280, 1024, screen, -1280, 56)");
  });

  it("reuses the DC and the DIB section while the size stays, remakes the section otherwise, frees all on close", async () => {
    const { api, calls } = fakeGdi();
    const capturer = await createWindowsCapturer({ open: async () => ({ api }) });
    const first = capturer.grab(PRIMARY);
    const second = capturer.grab(PRIMARY);
    expect(second.data).toBe(first.data);
    capturer.grab(LEFT);
    expect(calls.filter((call) => call.startsWith("CreateCompatibleDC"))).toHaveLength(1);
    expect(calls.filter((call) => call.startsWith("CreateDIBSection"))).toHaveLength(2);
    // The new section is selected before the old one is deleted (a selected bitmap cannot be).
    const select = calls.indexOf("SelectObject(memory-dc, dib2)");
    expect(calls.indexOf("DeleteObject(dib1)")).toBeGreaterThan(select);
    expect(calls.filter((call) => call === "GetDC(null)")).toHaveLength(3);
    expect(calls.filter((call) => call === "ReleaseDC(screen)")).toHaveLength(3);
    calls.length = 0;
    capturer.close();
    capturer.close();
    // The DC's own bitmap goes back in before the section and the DC are deleted.
    expect(calls).toEqual(["SelectObject(memory-dc, stock-bitmap)", "DeleteObject(dib2)", "DeleteDC(memory-dc)"]);
    expect(() => capturer.grab(PRIMARY)).toThrow(/fermée/);
  });

  it("draws the pointer at its position minus its hot spot, relative to the monitor, and deletes the icon's bitmaps", async () => {
    const { api, calls } = fakeGdi({ cursor: { x: -1000, y: 100 } });
    const capturer = await createWindowsCapturer({ open: async () => ({ api }) });
    const image = capturer.grab(LEFT);
    // (-1000 − 2 − (−1280), 100 − 3 − 56)
    expect(calls).toContain("DrawIconEx(memory-dc, 278, 41, arrow, 0, 0, 0, null, 3)");
    expect(pixel(image, 279, 42)).toEqual(WHITE);
    expect(calls.indexOf("GdiFlush()")).toBeGreaterThan(calls.findIndex((call) => call.startsWith("DrawIconEx")));
    expect(calls.filter((call) => /DeleteObject\((mask|colour)\)/.test(call))).toEqual([
      "DeleteObject(mask)",
      "DeleteObject(colour)",
    ]);
    // On another monitor: not drawn on this one.
    calls.length = 0;
    capturer.grab(PRIMARY);
    expect(calls.filter((call) => call.startsWith("GetIconInfo") || call.startsWith("DrawIconEx"))).toEqual([]);
  });

  it("leaves a hidden pointer out", async () => {
    const { api, calls } = fakeGdi({ cursor: { x: 100, y: 100, shown: false } });
    const capturer = await createWindowsCapturer({ open: async () => ({ api }) });
    capturer.grab(PRIMARY);
    expect(calls.some((call) => call.startsWith("DrawIconEx"))).toBe(false);
  });

  it("throws in French when Windows refuses the copy (secure desktop), releases the DC, and recovers", async () => {
    const { api, calls, setRefused } = fakeGdi();
    const capturer = await createWindowsCapturer({ open: async () => ({ api }) });
    setRefused(true);
    expect(() => capturer.grab(PRIMARY)).toThrow(SECURE_DESKTOP_REASON);
    expect(SECURE_DESKTOP_REASON).toMatch(/contrôle du compte d'utilisateur/);
    expect(calls.at(-1)).toBe("ReleaseDC(screen)");
    expect(capturer.status()).toEqual({ ok: true });
    setRefused(false);
    expect(pixel(capturer.grab(PRIMARY), 10, 20)).toEqual(RED);
  });

  it("keeps streaming after a refused copy: the error is reported, the next capture sends a full picture", async () => {
    const { api, setRefused } = fakeGdi();
    const capturer = await createWindowsCapturer({ open: async () => ({ api }) });
    const timers: (() => void)[] = [];
    const clock = { now: () => 0, setTimeout: (callback: () => void) => timers.push(callback), clearTimeout: () => {} };
    const frames: ScreenFrame[] = [];
    const errors: unknown[] = [];
    const encoder = { encode: () => new Uint8Array(100) };
    const stream = new ScreenStream(capturer, encoder, (frame) => frames.push(frame), {
      clock,
      onError: (error) => errors.push(error),
    });
    setRefused(true);
    stream.setDemand({ active: true, screen: null, refresh: 0 }, [PRIMARY, LEFT]);
    timers.shift()!();
    expect(errors).toEqual([new Error(SECURE_DESKTOP_REASON)]);
    expect(frames).toEqual([]);
    setRefused(false);
    timers.shift()!();
    expect(frames[0]).toMatchObject({ screen: PRIMARY.id, full: true, width: 1920, height: 1080 });
    stream.stop();
  });

  it("throws in French for a monitor outside the virtual screen or without a desktop", async () => {
    const { api, calls } = fakeGdi();
    const capturer = await createWindowsCapturer({ open: async () => ({ api }) });
    expect(() => capturer.grab({ ...PRIMARY, x: 5000 })).toThrow(/en dehors du bureau/);
    expect(calls).not.toContain("GetDC(null)");
    api.GetDC = () => null;
    expect(() => capturer.grab(PRIMARY)).toThrow(/bureau accessible/);
  });

  it("throws in French when the DIB section cannot be made", async () => {
    const { api } = fakeGdi();
    api.CreateDIBSection = () => null;
    const capturer = await createWindowsCapturer({ open: async () => ({ api }) });
    expect(() => capturer.grab(PRIMARY)).toThrow(/réserver la mémoire/);
  });

  it("reports a missing library in its status instead of throwing", async () => {
    const capturer = await createWindowsCapturer({ open: async () => ({ reason: "Pas de user32." }) });
    expect(capturer.status()).toEqual({ ok: false, reason: "Pas de user32." });
    expect(() => capturer.grab(PRIMARY)).toThrow("Pas de user32.");
  });
});

describe("Windows capture structs and declarations (koffi)", () => {
  it("lays the structs out as Win32 x64 does", async () => {
    const koffi = await loadKoffi();
    const t = gdiCaptureTypes(koffi);
    expect(koffi.sizeof(t.BITMAPINFOHEADER)).toBe(40);
    expect(koffi.sizeof(t.BITMAPINFO)).toBe(SIZEOF_BITMAPINFO);
    expect(koffi.sizeof(t.CURSORINFO)).toBe(SIZEOF_CURSORINFO);
    expect(koffi.offsetof(t.CURSORINFO, "hCursor")).toBe(8);
    expect(koffi.offsetof(t.CURSORINFO, "ptScreenPos")).toBe(16);
    expect(koffi.sizeof(t.ICONINFO)).toBe(32);
    expect(koffi.offsetof(t.ICONINFO, "hbmMask")).toBe(16);
    expect(koffi.offsetof(t.ICONINFO, "hbmColor")).toBe(24);
    // The bytes CreateDIBSection reads for a top-down 1920 × 1080, 32-bit picture.
    const buffer = Buffer.alloc(SIZEOF_BITMAPINFO);
    const header = { biSize: 40, biWidth: 1920, biHeight: -1080, biPlanes: 1, biBitCount: 32, biCompression: 0 };
    const zeros = { biSizeImage: 0, biXPelsPerMeter: 0, biYPelsPerMeter: 0, biClrUsed: 0, biClrImportant: 0 };
    koffi.encode(buffer, t.BITMAPINFO, { bmiHeader: { ...header, ...zeros }, bmiColors: [0] });
    expect([buffer.readUInt32LE(0), buffer.readInt32LE(4), buffer.readInt32LE(8)]).toEqual([40, 1920, -1080]);
    expect([buffer.readUInt16LE(12), buffer.readUInt16LE(14), buffer.readUInt32LE(16)]).toEqual([1, 32, 0]);
  });

  it("declares every function in a form koffi parses, with the structs above", async () => {
    const koffi = await loadKoffi();
    gdiCaptureTypes(koffi);
    for (const declaration of [...Object.values(USER32_CAPTURE), ...Object.values(GDI32_CAPTURE)]) {
      // Renamed: prototype names are global to koffi.
      const renamed = declaration.replace(/ (\w+)\(/, " AtelierCheck$1(");
      expect(() => koffi.proto(renamed), declaration).not.toThrow();
    }
  });
});
