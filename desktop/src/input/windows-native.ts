/**
 * The Windows FFI boundary (issue 15, "Injection" on Windows): user32.dll
 * through koffi, exposed as a table of the C functions (`Win32Api`) so
 * `windows.ts` is unit-tested on Linux with a fake table that records the
 * INPUT structures it receives. The structs are x64 Win32 layouts
 * (`win32Types`, checked by a test: sizeof(INPUT) = 40).
 */
import type { Koffi } from "./koffi.ts";
import { loadKoffi } from "./koffi.ts";

/** MOUSEINPUT; `mouseData` is a DWORD in C, declared signed here so wheel deltas can be negative. */
export type MouseInput = {
  dx: number;
  dy: number;
  mouseData: number;
  dwFlags: number;
  time: number;
  dwExtraInfo: number;
};
export type KeybdInput = { wVk: number; wScan: number; dwFlags: number; time: number; dwExtraInfo: number };
/** INPUT as koffi encodes it: `type` 0 mouse, 1 keyboard; the union member by name. */
export type WinInput = { type: 0; u: { mi: MouseInput } } | { type: 1; u: { ki: KeybdInput } };
export type WinRect = { left: number; top: number; right: number; bottom: number };
/** MONITORINFOEXW (`cbSize` 104 on input; the rest filled by GetMonitorInfoW). */
export type MonitorInfoEx = { cbSize: number; rcMonitor: WinRect; rcWork: WinRect; dwFlags: number; szDevice: string };

/** The user32 functions the Windows backend calls, by their C names. */
export interface Win32Api {
  /** `cbSize` must be sizeof(INPUT) (40 on x64). Returns how many inputs were inserted (fewer: blocked by UIPI). */
  SendInput(count: number, inputs: WinInput[], cbSize: number): number;
  GetSystemMetrics(index: number): number;
  /** Calls `proc` for each monitor, synchronously; `proc` returns true to continue. */
  EnumDisplayMonitors(
    hdc: null,
    clip: null,
    proc: (monitor: unknown, hdc: unknown, rect: unknown, data: number) => boolean,
    data: number,
  ): boolean;
  /** Fills `info` in place; false on failure. */
  GetMonitorInfoW(monitor: unknown, info: MonitorInfoEx): boolean;
  /** Per-monitor DPI awareness v2 (context -4): SendInput and the monitor rectangles then use physical pixels. */
  SetProcessDpiAwarenessContext(context: number): boolean;
  /** Older fallback (Windows 7/8): system DPI aware. */
  SetProcessDPIAware(): boolean;
  /** `MapVirtualKeyW(code, MAPVK_VSC_TO_VK_EX = 3)`: a scan code's virtual key in the current layout (0: none). */
  MapVirtualKeyW(code: number, mapType: number): number;
}

export const SIZEOF_INPUT_X64 = 40;
export const SIZEOF_MONITORINFOEXW = 104;

type TypeObject = ReturnType<Koffi["struct"]>;
/** The koffi types of the Win32 structs used here. */
export type Win32Types = Record<
  "MOUSEINPUT" | "KEYBDINPUT" | "INPUT" | "RECT" | "MONITORINFOEXW" | "MonitorEnumProc",
  TypeObject
>;

/** Declares the Win32 structs in `koffi` (once per koffi instance; type names are global to it). */
export function win32Types(koffi: Koffi): Win32Types {
  const known = typesByKoffi.get(koffi);
  if (known) return known;
  const MOUSEINPUT = koffi.struct("AtelierMOUSEINPUT", {
    dx: "int32_t",
    dy: "int32_t",
    mouseData: "int32_t",
    dwFlags: "uint32_t",
    time: "uint32_t",
    dwExtraInfo: "uintptr_t",
  });
  const KEYBDINPUT = koffi.struct("AtelierKEYBDINPUT", {
    wVk: "uint16_t",
    wScan: "uint16_t",
    dwFlags: "uint32_t",
    time: "uint32_t",
    dwExtraInfo: "uintptr_t",
  });
  const HARDWAREINPUT = koffi.struct("AtelierHARDWAREINPUT", {
    uMsg: "uint32_t",
    wParamL: "uint16_t",
    wParamH: "uint16_t",
  });
  const INPUT = koffi.struct("AtelierINPUT", {
    type: "uint32_t",
    u: koffi.union("AtelierINPUT_U", { mi: MOUSEINPUT, ki: KEYBDINPUT, hi: HARDWAREINPUT }),
  });
  const RECT = koffi.struct("AtelierRECT", { left: "int32_t", top: "int32_t", right: "int32_t", bottom: "int32_t" });
  const MONITORINFOEXW = koffi.struct("AtelierMONITORINFOEXW", {
    cbSize: "uint32_t",
    rcMonitor: RECT,
    rcWork: RECT,
    dwFlags: "uint32_t",
    szDevice: koffi.array("char16_t", 32, "String"),
  });
  const MonitorEnumProc = koffi.proto(
    "bool __stdcall AtelierMonitorEnumProc(void *monitor, void *hdc, AtelierRECT *rect, intptr_t data)",
  );
  const types = { MOUSEINPUT, KEYBDINPUT, INPUT, RECT, MONITORINFOEXW, MonitorEnumProc };
  typesByKoffi.set(koffi, types);
  return types;
}
const typesByKoffi = new WeakMap<object, Win32Types>();

/** Binds user32.dll. Throws (caught by the caller) when koffi or user32 cannot be loaded. */
export async function loadWin32(): Promise<Win32Api> {
  const koffi = await loadKoffi();
  const user32 = koffi.load("user32.dll");
  const t = win32Types(koffi);
  const sendInput = user32.func("__stdcall", "SendInput", "uint32_t", ["uint32_t", koffi.pointer(t.INPUT), "int"]);
  const getSystemMetrics = user32.func("__stdcall", "GetSystemMetrics", "int", ["int"]);
  const enumDisplayMonitors = user32.func("__stdcall", "EnumDisplayMonitors", "bool", [
    "void *",
    "void *",
    koffi.pointer(t.MonitorEnumProc),
    "intptr_t",
  ]);
  const getMonitorInfoW = user32.func("__stdcall", "GetMonitorInfoW", "bool", [
    "void *",
    koffi.inout(koffi.pointer(t.MONITORINFOEXW)),
  ]);
  const optional = (name: string, result: string, args: string[]) => {
    try {
      return user32.func("__stdcall", name, result, args);
    } catch {
      return null; // Missing on older Windows.
    }
  };
  const mapVirtualKeyW = user32.func("__stdcall", "MapVirtualKeyW", "uint32_t", ["uint32_t", "uint32_t"]);
  const setContext = optional("SetProcessDpiAwarenessContext", "bool", ["intptr_t"]);
  const setAware = optional("SetProcessDPIAware", "bool", []);
  return {
    SendInput: (count, inputs, cbSize) => sendInput(count, inputs, cbSize),
    GetSystemMetrics: (index) => getSystemMetrics(index),
    EnumDisplayMonitors: (hdc, clip, proc, data) => enumDisplayMonitors(hdc, clip, proc, data),
    GetMonitorInfoW: (monitor, info) => getMonitorInfoW(monitor, info),
    SetProcessDpiAwarenessContext: (context) => (setContext ? Boolean(setContext(context)) : false),
    SetProcessDPIAware: () => (setAware ? Boolean(setAware()) : false),
    MapVirtualKeyW: (code, mapType) => mapVirtualKeyW(code, mapType),
  };
}
