import { describe, expect, it } from "vitest";
import { loadKoffi } from "./koffi.ts";
import type { MonitorInfoEx, Win32Api, WinInput } from "./windows-native.ts";
import { SIZEOF_INPUT_X64, SIZEOF_MONITORINFOEXW, win32Types } from "./windows-native.ts";
import { createWindowsInjector, KEYEVENTF, MOUSEEVENTF, normalizeAbsolute, SAS_REASON_WINDOWS } from "./windows.ts";

/** Two monitors: primary 1920×1080 at 0,0 and a 1280×1024 one on its left (virtual desktop −1280…1919). */
function fakeUser32(options: { blocked?: boolean } = {}) {
  const sent: WinInput[][] = [];
  const calls: string[] = [];
  const monitors: Record<string, MonitorInfoEx> = {
    m1: {
      cbSize: 0,
      rcMonitor: { left: 0, top: 0, right: 1920, bottom: 1080 },
      rcWork: { left: 0, top: 0, right: 1920, bottom: 1040 },
      dwFlags: 1,
      szDevice: "\\\\.\\DISPLAY1",
    },
    m2: {
      cbSize: 0,
      rcMonitor: { left: -1280, top: 56, right: 0, bottom: 1080 },
      rcWork: { left: -1280, top: 56, right: 0, bottom: 1080 },
      dwFlags: 0,
      szDevice: "\\\\.\\DISPLAY2",
    },
  };
  const metrics: Record<number, number> = { 0: 1920, 1: 1080, 76: -1280, 77: 0, 78: 3200, 79: 1080 };
  const api: Win32Api = {
    SendInput(count, inputs, cbSize) {
      expect(cbSize).toBe(40);
      expect(count).toBe(inputs.length);
      sent.push(structuredClone(inputs));
      return options.blocked ? 0 : count;
    },
    GetSystemMetrics: (index) => metrics[index] ?? 0,
    EnumDisplayMonitors(_hdc, _clip, proc, data) {
      for (const handle of Object.keys(monitors)) if (!proc(handle, null, null, data)) break;
      return true;
    },
    GetMonitorInfoW(monitor, info) {
      expect(info.cbSize).toBe(104);
      const source = monitors[monitor as string];
      if (!source) return false;
      Object.assign(info, structuredClone({ ...source, cbSize: info.cbSize }));
      return true;
    },
    SetProcessDpiAwarenessContext: (context) => {
      calls.push(`SetProcessDpiAwarenessContext(${context})`);
      return true;
    },
    SetProcessDPIAware: () => {
      calls.push("SetProcessDPIAware()");
      return true;
    },
    // A French AZERTY layout's virtual keys (MAPVK_VSC_TO_VK_EX): the key labelled A sits where QWERTY has Q.
    MapVirtualKeyW: (code, mapType) => {
      expect(mapType).toBe(3);
      return { 0x10: 0x41, 0x1c: 0x0d, 0x0f: 0x09, 0x1d: 0xa2, 0x2e: 0x43 }[code] ?? 0;
    },
  };
  return { api, sent, calls };
}

const key = (wScan: number, dwFlags: number, wVk = 0): WinInput => ({
  type: 1,
  u: { ki: { wVk, wScan, dwFlags, time: 0, dwExtraInfo: 0 } },
});
const mouse = (dx: number, dy: number, mouseData: number, dwFlags: number): WinInput => ({
  type: 0,
  u: { mi: { dx, dy, mouseData, dwFlags, time: 0, dwExtraInfo: 0 } },
});

describe("Windows backend (SendInput through a fake user32)", () => {
  it("declares per-monitor DPI awareness and lists the monitors with their offsets", async () => {
    const { api, calls } = fakeUser32();
    const injector = await createWindowsInjector({ load: async () => api });
    expect(calls).toEqual(["SetProcessDpiAwarenessContext(-4)"]);
    expect(injector.status()).toEqual({ ok: true });
    expect(injector.screens()).toEqual([
      { id: "\\\\.\\DISPLAY1", x: 0, y: 0, width: 1920, height: 1080, scale: 1, primary: true },
      { id: "\\\\.\\DISPLAY2", x: -1280, y: 56, width: 1280, height: 1024, scale: 1, primary: false },
    ]);
  });

  it("normalizes absolute coordinates over the virtual desktop (0–65535)", async () => {
    expect(normalizeAbsolute(-1280, -1280, 3200)).toBe(0);
    expect(normalizeAbsolute(1919, -1280, 3200)).toBe(65535);
    const { api, sent } = fakeUser32();
    const injector = await createWindowsInjector({ load: async () => api });
    const [primary, left] = injector.screens();
    injector.move(primary!, 0.5, 0.5); // pixel 960, 540
    injector.move(left!, 0, 0); // pixel -1280, 56
    const flags = MOUSEEVENTF.MOVE | MOUSEEVENTF.ABSOLUTE | MOUSEEVENTF.VIRTUALDESK;
    expect(sent).toEqual([
      [mouse(Math.round((2240 * 65535) / 3199), Math.round((540 * 65535) / 1079), 0, flags)],
      [mouse(0, Math.round((56 * 65535) / 1079), 0, flags)],
    ]);
  });

  it("sends buttons and wheel notches with the right flags and signs", async () => {
    const { api, sent } = fakeUser32();
    const injector = await createWindowsInjector({ load: async () => api });
    injector.button(0, true);
    injector.button(0, false);
    injector.button(2, true);
    injector.button(1, true);
    injector.wheel(1, 3);
    expect(sent).toEqual([
      [mouse(0, 0, 0, MOUSEEVENTF.LEFTDOWN)],
      [mouse(0, 0, 0, MOUSEEVENTF.LEFTUP)],
      [mouse(0, 0, 0, MOUSEEVENTF.RIGHTDOWN)],
      [mouse(0, 0, 0, MOUSEEVENTF.MIDDLEDOWN)],
      [mouse(0, 0, -360, MOUSEEVENTF.WHEEL), mouse(0, 0, 120, MOUSEEVENTF.HWHEEL)],
    ]);
  });

  it("sends keys by scan code with their virtual key (Wine reads only it), extended ones flagged, released in reverse order", async () => {
    const { api, sent } = fakeUser32();
    const injector = await createWindowsInjector({ load: async () => api });
    injector.key("ControlLeft", true);
    injector.key("AltRight", true);
    injector.key("KeyC", true);
    injector.key("Pause", true);
    sent.length = 0;
    injector.releaseAll();
    const S = KEYEVENTF.SCANCODE;
    const UP = KEYEVENTF.KEYUP;
    expect(sent).toEqual([
      [key(0, UP, 0x13)],
      [key(0x2e, S | UP, 0x43)],
      // Alt Gr: an E0 key, VK_RMENU from the fixed table.
      [key(0x38, S | KEYEVENTF.EXTENDEDKEY | UP, 0xa5)],
      [key(0x1d, S | UP, 0xa2)],
    ]);
  });

  it("gives each key the virtual key of the customer's layout: KeyQ is A on AZERTY; End and arrows from the E0 table", async () => {
    const { api, sent } = fakeUser32();
    const injector = await createWindowsInjector({ load: async () => api });
    injector.key("KeyQ", true);
    injector.key("End", true);
    injector.key("ArrowLeft", true);
    const S = KEYEVENTF.SCANCODE;
    const E = KEYEVENTF.EXTENDEDKEY;
    expect(sent).toEqual([[key(0x10, S, 0x41)], [key(0x4f, S | E, 0x23)], [key(0x4b, S | E, 0x25)]]);
  });

  it("types text as UTF-16 units, Enter and Tab as keys", async () => {
    const { api, sent } = fakeUser32();
    const injector = await createWindowsInjector({ load: async () => api });
    await injector.text("é😀\r\n\t");
    const U = KEYEVENTF.UNICODE;
    const UP = KEYEVENTF.KEYUP;
    const S = KEYEVENTF.SCANCODE;
    expect(sent).toEqual([
      [
        key(0xe9, U),
        key(0xe9, U | UP),
        key(0xd83d, U),
        key(0xd83d, U | UP),
        key(0xde00, U),
        key(0xde00, U | UP),
        key(0x1c, S, 0x0d),
        key(0x1c, S | UP, 0x0d),
        key(0x0f, S, 0x09),
        key(0x0f, S | UP, 0x09),
      ],
    ]);
  });

  it("refuses Ctrl+Alt+Suppr with a French reason, and warns when Windows blocks input", async () => {
    const warnings: string[] = [];
    const { api } = fakeUser32({ blocked: true });
    const injector = await createWindowsInjector({ load: async () => api, onWarning: (m) => warnings.push(m) });
    expect(injector.sas()).toEqual({ ok: false, reason: SAS_REASON_WINDOWS });
    injector.key("KeyA", true);
    injector.key("KeyA", false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/administrateur/);
  });

  it("reports koffi or user32 missing instead of throwing", async () => {
    const injector = await createWindowsInjector({ load: () => Promise.reject(new Error("no user32")) });
    expect(injector.status()).toMatchObject({ ok: false, reason: expect.stringMatching(/koffi/) });
  });

  it("lays the structs out as Win32 x64 does (checked with koffi here)", async () => {
    const koffi = await loadKoffi();
    const t = win32Types(koffi);
    expect(koffi.sizeof(t.MOUSEINPUT)).toBe(32);
    expect(koffi.sizeof(t.KEYBDINPUT)).toBe(24);
    expect(koffi.sizeof(t.INPUT)).toBe(SIZEOF_INPUT_X64);
    expect(koffi.offsetof(t.INPUT, "u")).toBe(8);
    expect(koffi.offsetof(t.MOUSEINPUT, "dwExtraInfo")).toBe(24);
    expect(koffi.sizeof(t.MONITORINFOEXW)).toBe(SIZEOF_MONITORINFOEXW);
    // The bytes SendInput reads for a key-up of the extended AltRight.
    const buffer = Buffer.alloc(40);
    koffi.encode(buffer, t.INPUT, key(0x38, KEYEVENTF.SCANCODE | KEYEVENTF.EXTENDEDKEY | KEYEVENTF.KEYUP));
    expect(buffer.readUInt32LE(0)).toBe(1);
    expect(buffer.readUInt16LE(8)).toBe(0);
    expect(buffer.readUInt16LE(10)).toBe(0x38);
    expect(buffer.readUInt32LE(12)).toBe(0x0b);
  });
});
