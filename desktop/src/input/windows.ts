/**
 * Windows backend (issue 15, "Injection"): `SendInput` through `Win32Api`.
 * - Pointer: absolute coordinates normalized 0–65535 over the virtual desktop
 *   (`MOUSEEVENTF_ABSOLUTE | MOUSEEVENTF_VIRTUALDESK`), so every monitor,
 *   including those left of or above the primary one, is reachable. The
 *   process is made per-monitor DPI aware first, so pixels are physical.
 * - Keys: scan codes (`KEYEVENTF_SCANCODE`, + `EXTENDEDKEY` for E0 keys):
 *   the physical key, interpreted with the customer's layout. The virtual key
 *   is filled in too (`MapVirtualKeyW` in the customer's layout; a fixed table
 *   for E0 keys, whose virtual keys no layout changes): Windows ignores it when
 *   `KEYEVENTF_SCANCODE` is set, but Wine 8 reads only it (issue 36: Entrée,
 *   Ctrl+A and the arrows did nothing under Wine with the scan code alone).
 * - Text: `KEYEVENTF_UNICODE`, one UTF-16 unit per event: any character,
 *   whatever the layout.
 * - Ctrl+Alt+Suppr cannot be sent by an app (Windows reserves it).
 */
import { type Injection, SAS_REASON_WINDOWS, type Screen } from "#app/remote-support/device-protocol.ts";
import type { Backend, HeldInput, MouseButton, WarningListener } from "./injector.ts";
import { TrackedInjector, UNKNOWN_SCREEN, unavailableBackend } from "./injector.ts";
import { KOFFI_MISSING } from "./koffi.ts";
import { keyNumbers } from "./keycodes.ts";
import type { KeybdInput, MouseInput, Win32Api, WinInput } from "./windows-native.ts";
import { SIZEOF_INPUT_X64, SIZEOF_MONITORINFOEXW } from "./windows-native.ts";

export const MOUSEEVENTF = {
  MOVE: 0x0001,
  LEFTDOWN: 0x0002,
  LEFTUP: 0x0004,
  RIGHTDOWN: 0x0008,
  RIGHTUP: 0x0010,
  MIDDLEDOWN: 0x0020,
  MIDDLEUP: 0x0040,
  WHEEL: 0x0800,
  HWHEEL: 0x1000,
  VIRTUALDESK: 0x4000,
  ABSOLUTE: 0x8000,
} as const;
export const KEYEVENTF = { EXTENDEDKEY: 0x0001, KEYUP: 0x0002, UNICODE: 0x0004, SCANCODE: 0x0008 } as const;
export const WHEEL_DELTA = 120;
const SM = {
  CXSCREEN: 0,
  CYSCREEN: 1,
  XVIRTUALSCREEN: 76,
  YVIRTUALSCREEN: 77,
  CXVIRTUALSCREEN: 78,
  CYVIRTUALSCREEN: 79,
};
const DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2 = -4;
const MONITORINFOF_PRIMARY = 1;
const VK_PAUSE = 0x13;
const MAPVK_VSC_TO_VK_EX = 3;
/** Virtual keys of the E0 (extended) scan codes of set 1: the same on every layout. */
const EXTENDED_VK: Readonly<Record<number, number>> = {
  0x1c: 0x0d, // numpad Entrée → VK_RETURN
  0x1d: 0xa3, // right Ctrl → VK_RCONTROL
  0x35: 0x6f, // numpad / → VK_DIVIDE
  0x37: 0x2c, // Impr. écran → VK_SNAPSHOT
  0x38: 0xa5, // Alt Gr → VK_RMENU
  0x47: 0x24, // Origine → VK_HOME
  0x48: 0x26, // ↑ → VK_UP
  0x49: 0x21, // Page préc. → VK_PRIOR
  0x4b: 0x25, // ← → VK_LEFT
  0x4d: 0x27, // → → VK_RIGHT
  0x4f: 0x23, // Fin → VK_END
  0x50: 0x28, // ↓ → VK_DOWN
  0x51: 0x22, // Page suiv. → VK_NEXT
  0x52: 0x2d, // Inser → VK_INSERT
  0x53: 0x2e, // Suppr → VK_DELETE
  0x5b: 0x5b, // Windows gauche → VK_LWIN
  0x5c: 0x5c, // Windows droite → VK_RWIN
  0x5d: 0x5d, // Menu → VK_APPS
};
/** Warn at most this often (ms) that Windows blocked input. */
const BLOCKED_WARNING_EVERY_MS = 10_000;

/** Why Ctrl+Alt+Suppr is refused, the text the technician's view also shows (`device-protocol.ts`). */
export { SAS_REASON_WINDOWS };
const BLOCKED_WARNING =
  "Windows a bloqué une saisie : la fenêtre active appartient sans doute à un programme lancé en administrateur " +
  "(ou c'est l'écran de contrôle du compte d'utilisateur). Le client doit répondre lui-même à cette fenêtre.";

const BUTTON_FLAGS: Record<MouseButton, { down: number; up: number }> = {
  0: { down: MOUSEEVENTF.LEFTDOWN, up: MOUSEEVENTF.LEFTUP },
  1: { down: MOUSEEVENTF.MIDDLEDOWN, up: MOUSEEVENTF.MIDDLEUP },
  2: { down: MOUSEEVENTF.RIGHTDOWN, up: MOUSEEVENTF.RIGHTUP },
};

function mouse(fields: Partial<MouseInput>): WinInput {
  return { type: 0, u: { mi: { dx: 0, dy: 0, mouseData: 0, dwFlags: 0, time: 0, dwExtraInfo: 0, ...fields } } };
}
function keyboard(fields: Partial<KeybdInput>): WinInput {
  return { type: 1, u: { ki: { wVk: 0, wScan: 0, dwFlags: 0, time: 0, dwExtraInfo: 0, ...fields } } };
}

/**
 * Pixel → SendInput's absolute unit on one axis: 0 at the virtual desktop's
 * first pixel, 65535 at its last one.
 */
export function normalizeAbsolute(pixel: number, origin: number, size: number): number {
  const span = Math.max(1, size - 1);
  return Math.min(65535, Math.max(0, Math.round(((pixel - origin) * 65535) / span)));
}

/** The Windows backend over a `Win32Api` (real or fake). */
export class WindowsBackend implements Backend {
  readonly #api: Win32Api;
  readonly #onWarning: WarningListener;
  #lastWarning = 0;

  constructor(api: Win32Api, _held: HeldInput, onWarning: WarningListener) {
    this.#api = api;
    this.#onWarning = onWarning;
  }

  status(): Injection {
    return { ok: true };
  }

  screens(): Screen[] {
    const screens: Screen[] = [];
    this.#api.EnumDisplayMonitors(
      null,
      null,
      (monitor) => {
        const info = {
          cbSize: SIZEOF_MONITORINFOEXW,
          rcMonitor: { left: 0, top: 0, right: 0, bottom: 0 },
          rcWork: { left: 0, top: 0, right: 0, bottom: 0 },
          dwFlags: 0,
          szDevice: "",
        };
        if (this.#api.GetMonitorInfoW(monitor, info)) {
          const { left, top, right, bottom } = info.rcMonitor;
          screens.push({
            // "\\.\DISPLAY1": stable while the session lasts, and what Windows' display settings call it.
            id: info.szDevice.replace(/\0.*$/, "").slice(0, 64) || String(screens.length),
            x: left,
            y: top,
            width: Math.max(1, right - left),
            height: Math.max(1, bottom - top),
            scale: 1,
            primary: (info.dwFlags & MONITORINFOF_PRIMARY) !== 0,
          });
        }
        return screens.length < 16;
      },
      0,
    );
    if (screens.length > 0) return screens;
    const width = this.#api.GetSystemMetrics(SM.CXSCREEN);
    const height = this.#api.GetSystemMetrics(SM.CYSCREEN);
    return width > 0 && height > 0
      ? [{ id: "0", x: 0, y: 0, width, height, scale: 1, primary: true }]
      : [UNKNOWN_SCREEN];
  }

  movePixel(x: number, y: number): void {
    const vx = this.#api.GetSystemMetrics(SM.XVIRTUALSCREEN);
    const vy = this.#api.GetSystemMetrics(SM.YVIRTUALSCREEN);
    const vw = this.#api.GetSystemMetrics(SM.CXVIRTUALSCREEN);
    const vh = this.#api.GetSystemMetrics(SM.CYVIRTUALSCREEN);
    this.#send([
      mouse({
        dx: normalizeAbsolute(x, vx, vw),
        dy: normalizeAbsolute(y, vy, vh),
        dwFlags: MOUSEEVENTF.MOVE | MOUSEEVENTF.ABSOLUTE | MOUSEEVENTF.VIRTUALDESK,
      }),
    ]);
  }

  button(button: MouseButton, down: boolean): void {
    this.#send([mouse({ dwFlags: down ? BUTTON_FLAGS[button].down : BUTTON_FLAGS[button].up })]);
  }

  wheel(dx: number, dy: number): void {
    const inputs: WinInput[] = [];
    // WHEEL: positive = away from the user (up); the protocol's dy > 0 scrolls down. HWHEEL: positive = right.
    if (dy !== 0) inputs.push(mouse({ mouseData: -dy * WHEEL_DELTA, dwFlags: MOUSEEVENTF.WHEEL }));
    if (dx !== 0) inputs.push(mouse({ mouseData: dx * WHEEL_DELTA, dwFlags: MOUSEEVENTF.HWHEEL }));
    if (inputs.length > 0) this.#send(inputs);
  }

  key(code: string, down: boolean): boolean {
    const up = down ? 0 : KEYEVENTF.KEYUP;
    if (code === "Pause") {
      this.#send([keyboard({ wVk: VK_PAUSE, dwFlags: up })]);
      return true;
    }
    const scan = keyNumbers(code)?.win ?? -1;
    if (scan < 0) return false;
    const extended = scan > 0xff ? KEYEVENTF.EXTENDEDKEY : 0;
    this.#send([
      keyboard({ wVk: this.#virtualKey(scan), wScan: scan & 0xff, dwFlags: KEYEVENTF.SCANCODE | extended | up }),
    ]);
    return true;
  }

  /** The virtual key of a scan code (`0xE0xx` for extended keys), for Wine (see the module comment); 0 if none. */
  #virtualKey(scan: number): number {
    if (scan > 0xff) return EXTENDED_VK[scan & 0xff] ?? 0;
    try {
      return this.#api.MapVirtualKeyW(scan, MAPVK_VSC_TO_VK_EX) & 0xffff;
    } catch {
      return 0;
    }
  }

  text(text: string): void {
    const inputs: WinInput[] = [];
    const scanKey = (scan: number) => {
      const wVk = this.#virtualKey(scan);
      inputs.push(keyboard({ wVk, wScan: scan, dwFlags: KEYEVENTF.SCANCODE }));
      inputs.push(keyboard({ wVk, wScan: scan, dwFlags: KEYEVENTF.SCANCODE | KEYEVENTF.KEYUP }));
    };
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      // Enter and Tab as keys: some programs ignore them as Unicode characters.
      if (unit === 0x0d || unit === 0x0a) {
        if (unit === 0x0a && text.charCodeAt(i - 1) === 0x0d) continue;
        scanKey(0x1c);
      } else if (unit === 0x09) scanKey(0x0f);
      else if (unit >= 0x20 && unit !== 0x7f) {
        // One unit per event, surrogate halves included: Windows joins them into one character.
        inputs.push(keyboard({ wScan: unit, dwFlags: KEYEVENTF.UNICODE }));
        inputs.push(keyboard({ wScan: unit, dwFlags: KEYEVENTF.UNICODE | KEYEVENTF.KEYUP }));
      }
    }
    if (inputs.length > 0) this.#send(inputs);
  }

  sas(): Injection {
    return { ok: false, reason: SAS_REASON_WINDOWS };
  }

  close(): void {}

  #send(inputs: WinInput[]): void {
    const sent = this.#api.SendInput(inputs.length, inputs, SIZEOF_INPUT_X64);
    // UIPI drops input aimed at an elevated window without an error we could fix: tell the customer why.
    if (sent < inputs.length && Date.now() - this.#lastWarning > BLOCKED_WARNING_EVERY_MS) {
      this.#lastWarning = Date.now();
      this.#onWarning(BLOCKED_WARNING);
    }
  }
}

export type WindowsInjectorOptions = { load?: () => Promise<Win32Api>; onWarning?: WarningListener };

/** The Windows injector; never throws (no koffi or user32: status says why, in French). */
export async function createWindowsInjector(options: WindowsInjectorOptions = {}): Promise<TrackedInjector> {
  const onWarning = options.onWarning ?? (() => {});
  let api: Win32Api;
  try {
    api = await (options.load ?? (async () => (await import("./windows-native.ts")).loadWin32()))();
  } catch {
    return new TrackedInjector(() => unavailableBackend(KOFFI_MISSING, [UNKNOWN_SCREEN]), onWarning);
  }
  // Before any coordinate is read: otherwise Windows scales them for a DPI-unaware process.
  if (!api.SetProcessDpiAwarenessContext(DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2)) api.SetProcessDPIAware();
  return new TrackedInjector((held) => new WindowsBackend(api, held, onWarning), onWarning);
}
