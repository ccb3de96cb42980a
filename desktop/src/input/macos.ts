/**
 * macOS backend (issue 15, "Injection"): Quartz events through `MacApi`,
 * posted at the HID level (`CGEventPost(kCGHIDEventTap)`), which macOS lets
 * through only when the app has the Accessibility permission
 * (`AXIsProcessTrusted`): without it the status explains, in French, how to
 * grant it. Coordinates are points in the global display space (origin at
 * the main display's top-left), as `CGDisplayBounds` gives them.
 * - Moves while a button is held are "dragged" events (else drags fail).
 * - Double clicks carry the click count (`kCGMouseEventClickState`).
 * - Every event carries the held modifiers' flags (Cmd+click, Shift+arrow).
 * - Text: `CGEventKeyboardSetUnicodeString`, one character per event.
 */
import { spawn } from "node:child_process";
import type { Injection, Screen } from "#app/remote-support/device-protocol.ts";
import type { Backend, HeldInput, MouseButton, WarningListener } from "./injector.ts";
import { TrackedInjector, UNKNOWN_SCREEN, unavailableBackend } from "./injector.ts";
import { KOFFI_MISSING } from "./koffi.ts";
import { keyNumbers } from "./keycodes.ts";
import type { CGPoint, EventRef, MacApi } from "./macos-native.ts";

export const ACCESSIBILITY_REASON =
  "macOS : ce logiciel n'a pas encore l'autorisation « Accessibilité », nécessaire pour que le technicien " +
  "utilise la souris et le clavier. Ouvrez Réglages Système › Confidentialité et sécurité › Accessibilité, " +
  "activez « Terminal » (ou le nom de ce logiciel s'il apparaît dans la liste ; sinon ajoutez-le avec le bouton +), " +
  "puis quittez ce logiciel et relancez-le.";
export const SAS_REASON_MAC =
  "macOS n'a pas de Ctrl+Alt+Suppr. Pour forcer à quitter une application, le technicien peut envoyer Cmd+Option+Échap.";
const ACCESSIBILITY_SETTINGS_URL = "x-apple.systempreferences:com.apple.preference.security?Privacy_Accessibility";

/** CGEventType values (CGEventTypes.h). */
export const CG = {
  LeftMouseDown: 1,
  LeftMouseUp: 2,
  RightMouseDown: 3,
  RightMouseUp: 4,
  MouseMoved: 5,
  LeftMouseDragged: 6,
  RightMouseDragged: 7,
  OtherMouseDown: 25,
  OtherMouseUp: 26,
  OtherMouseDragged: 27,
} as const;
export const HID_EVENT_TAP = 0;
export const SCROLL_UNIT_LINE = 1;
export const FIELD_MOUSE_CLICK_STATE = 1;
export const FLAGS = { Shift: 0x20000, Control: 0x40000, Alternate: 0x80000, Command: 0x100000 } as const;
/** Two presses of the same button closer than this (ms and points) make a double click, as macOS' default. */
const DOUBLE_CLICK_MS = 500;
const DOUBLE_CLICK_DISTANCE = 4;

/** Protocol button → CGMouseButton (0 left, 1 right, 2 center) and its event types. */
const BUTTONS: Record<MouseButton, { cg: number; down: number; up: number; dragged: number }> = {
  0: { cg: 0, down: CG.LeftMouseDown, up: CG.LeftMouseUp, dragged: CG.LeftMouseDragged },
  1: { cg: 2, down: CG.OtherMouseDown, up: CG.OtherMouseUp, dragged: CG.OtherMouseDragged },
  2: { cg: 1, down: CG.RightMouseDown, up: CG.RightMouseUp, dragged: CG.RightMouseDragged },
};

/** Quartz flags of the held modifier keys. */
export function modifierFlags(held: HeldInput): number {
  let flags = 0;
  for (const code of held.keys()) {
    if (code.startsWith("Shift")) flags |= FLAGS.Shift;
    else if (code.startsWith("Control")) flags |= FLAGS.Control;
    else if (code.startsWith("Alt")) flags |= FLAGS.Alternate;
    else if (code.startsWith("Meta")) flags |= FLAGS.Command;
  }
  return flags;
}

/** The macOS backend over a `MacApi` (real or fake). */
export class MacBackend implements Backend {
  readonly #api: MacApi;
  readonly #held: HeldInput;
  #position: CGPoint | undefined;
  #lastDown: { button: MouseButton; at: number; position: CGPoint; count: number } | undefined;

  constructor(api: MacApi, held: HeldInput) {
    this.#api = api;
    this.#held = held;
  }

  status(): Injection {
    // Read each time: the permission may be granted while the app runs (the status poll then tells the page).
    return this.#api.AXIsProcessTrusted() ? { ok: true } : { ok: false, reason: ACCESSIBILITY_REASON };
  }

  screens(): Screen[] {
    const displays: number[] = [];
    const count = [0];
    if (this.#api.CGGetActiveDisplayList(16, displays, count) !== 0 || !count[0]) return [UNKNOWN_SCREEN];
    const main = this.#api.CGMainDisplayID();
    return displays.slice(0, count[0]).map((display) => {
      const { origin, size } = this.#api.CGDisplayBounds(display);
      const width = Math.max(1, Math.round(size.width));
      return {
        id: String(display),
        x: Math.round(origin.x),
        y: Math.round(origin.y),
        width,
        height: Math.max(1, Math.round(size.height)),
        // Retina: 2 device pixels per point. Clamped to the protocol's range.
        scale: Math.min(10, Math.max(0.1, this.#api.CGDisplayPixelsWide(display) / width)),
        primary: display === main,
      };
    });
  }

  movePixel(x: number, y: number): void {
    this.#position = { x, y };
    const dragging = ([0, 2, 1] as const).find((button) => this.#held.hasButton(button));
    const type = dragging === undefined ? CG.MouseMoved : BUTTONS[dragging].dragged;
    const cgButton = dragging === undefined ? 0 : BUTTONS[dragging].cg;
    this.#post(this.#api.CGEventCreateMouseEvent(null, type, this.#position, cgButton));
  }

  button(button: MouseButton, down: boolean): void {
    const position = this.#currentPosition();
    const spec = BUTTONS[button];
    if (down) {
      const last = this.#lastDown;
      const again =
        last &&
        last.button === button &&
        Date.now() - last.at < DOUBLE_CLICK_MS &&
        Math.hypot(last.position.x - position.x, last.position.y - position.y) <= DOUBLE_CLICK_DISTANCE;
      this.#lastDown = { button, at: Date.now(), position, count: again ? last.count + 1 : 1 };
    }
    const clicks = this.#lastDown?.button === button ? this.#lastDown.count : 1;
    const event = this.#api.CGEventCreateMouseEvent(null, down ? spec.down : spec.up, position, spec.cg);
    // NULL when Quartz cannot make the event: touching it would crash the app, not just lose the click.
    if (!event) return;
    this.#api.CGEventSetIntegerValueField(event, FIELD_MOUSE_CLICK_STATE, clicks);
    this.#post(event);
  }

  wheel(dx: number, dy: number): void {
    // Quartz: wheel1 > 0 scrolls up, wheel2 > 0 scrolls left; the protocol's dy > 0 is down, dx > 0 right.
    this.#post(this.#api.CGEventCreateScrollWheelEvent2(null, SCROLL_UNIT_LINE, 2, -dy, -dx, 0));
  }

  key(code: string, down: boolean): boolean {
    const keycode = keyNumbers(code)?.mac ?? -1;
    if (keycode < 0) return false;
    this.#post(this.#api.CGEventCreateKeyboardEvent(null, keycode, down));
    return true;
  }

  text(text: string): void {
    for (const character of text) {
      if (character === "\n" || character === "\r") {
        this.#tap(0x24, null); // Return
      } else if (character === "\t") {
        this.#tap(0x30, null); // Tab
      } else if (character >= " " && character !== "\u007f") {
        // UTF-16 units: two for a character beyond U+FFFF (emoji), which Quartz accepts in one event.
        const units = Array.from({ length: character.length }, (_, i) => character.charCodeAt(i));
        this.#tap(0, units);
      }
    }
  }

  sas(): Injection {
    return { ok: false, reason: SAS_REASON_MAC };
  }

  close(): void {}

  /** A key press and release; with `units`, the events carry these characters and no modifier. */
  #tap(keycode: number, units: number[] | null): void {
    for (const down of [true, false]) {
      const event = this.#api.CGEventCreateKeyboardEvent(null, keycode, down);
      if (!event) continue;
      if (units) {
        this.#api.CGEventKeyboardSetUnicodeString(event, units.length, units);
        // No flags: a held Shift or Cmd must not turn typed text into a shortcut.
        this.#api.CGEventSetFlags(event, 0);
        this.#api.CGEventPost(HID_EVENT_TAP, event);
        this.#api.CFRelease(event);
      } else this.#post(event);
    }
  }

  /** Posts with the held modifiers' flags, then releases the event (Create rule: we own it). */
  #post(event: EventRef): void {
    if (!event) return;
    this.#api.CGEventSetFlags(event, modifierFlags(this.#held));
    this.#api.CGEventPost(HID_EVENT_TAP, event);
    this.#api.CFRelease(event);
  }

  #currentPosition(): CGPoint {
    if (this.#position) return this.#position;
    // Not moved yet: click where the customer's pointer is.
    const probe = this.#api.CGEventCreate(null);
    const location = probe ? this.#api.CGEventGetLocation(probe) : { x: 0, y: 0 };
    if (probe) this.#api.CFRelease(probe);
    return { x: location.x, y: location.y };
  }
}

export type MacInjectorOptions = {
  load?: () => Promise<MacApi>;
  onWarning?: WarningListener;
  /** Opens the Accessibility settings pane when permission is missing (default: `open <url>`). */
  openSettings?: (url: string) => void;
};

/**
 * The macOS injector; never throws. Without the Accessibility permission,
 * its status gives the steps (French) and the settings pane is opened once.
 */
export async function createMacInjector(options: MacInjectorOptions = {}): Promise<TrackedInjector> {
  const onWarning = options.onWarning ?? (() => {});
  let api: MacApi;
  try {
    api = await (options.load ?? (async () => (await import("./macos-native.ts")).loadMacApi()))();
  } catch {
    return new TrackedInjector(() => unavailableBackend(KOFFI_MISSING, [UNKNOWN_SCREEN]), onWarning);
  }
  if (!api.AXIsProcessTrusted()) (options.openSettings ?? openUrl)(ACCESSIBILITY_SETTINGS_URL);
  return new TrackedInjector((held) => new MacBackend(api, held), onWarning);
}

function openUrl(url: string): void {
  try {
    spawn("open", [url], { stdio: "ignore", detached: true })
      .on("error", () => {})
      .unref();
  } catch {
    // The steps are in the status text anyway.
  }
}
