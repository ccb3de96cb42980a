/**
 * Linux X11 backend (issue 15, "Injection"): XTest through `X11Api`.
 *
 * - Keys by physical position: X keycode = evdev code + 8, so `KeyA` is the
 *   key right of Caps Lock whatever the layout (shortcuts follow the key).
 * - Text: each character's keysym (Latin-1 = code point, else 0x01000000 +
 *   code point) is looked up in the current keymap, levels 1–2 of group 1
 *   (Shift added or lifted as needed). A character the keymap lacks ("é" on a
 *   US keymap) gets a spare keycode (one with no keysym) remapped to it, as
 *   xdotool does. Remapped keycodes stay mapped until `close()`: restoring at
 *   once races the client, which may read the keymap after the restore and
 *   type the wrong character.
 * - Wayland sessions: XTest would reach only XWayland windows, so injection
 *   is reported impossible, in French.
 */
import type { Injection, Screen } from "#app/remote-support/device-protocol.ts";
import type { Backend, HeldInput, MouseButton, WarningListener } from "./injector.ts";
import { TrackedInjector, UNKNOWN_SCREEN, unavailableBackend } from "./injector.ts";
import { keyNumbers, SHIFT_CODES } from "./keycodes.ts";
import type { X11Api, X11OpenResult } from "./x11-native.ts";

export const WAYLAND_REASON =
  "Wayland : la prise de contrôle n'est pas possible sur une session Wayland. Pour être aidé à distance, " +
  "fermez votre session, choisissez « GNOME sur Xorg » (ou une autre session X11) sur l'écran de connexion, " +
  "puis relancez ce logiciel.";

const KEYSYM_SHIFT_L = 0xffe1;
/** Evdev LEFTSHIFT + 8, when the keymap has no Shift_L at all. */
const DEFAULT_SHIFT_KEYCODE = 50;
/** Wait after remapping a keycode that was just used for another character (ms): lets clients read the keymap. */
const EVICT_SETTLE_MS = 50;
/** Wait after any remap before typing on the remapped keycode (ms): lets clients read the new keymap. */
const REMAP_SETTLE_MS = 40;

/** `XDG_SESSION_TYPE=wayland`, or a Wayland socket with no X display beside it. */
export function isWaylandSession(env: NodeJS.ProcessEnv): boolean {
  return env.XDG_SESSION_TYPE === "wayland" || (Boolean(env.WAYLAND_DISPLAY) && !env.DISPLAY);
}

/**
 * The X keysym typing `character` gives (one code point), or null for
 * control characters other than Enter, Tab and Backspace.
 */
export function keysymForCharacter(character: string): number | null {
  const cp = character.codePointAt(0);
  if (cp === undefined) return null;
  if (cp === 0x0a || cp === 0x0d) return 0xff0d; // Return
  if (cp === 0x09) return 0xff09; // Tab
  if (cp === 0x08) return 0xff08; // BackSpace
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return null;
  if (cp <= 0xff) return cp;
  return 0x01000000 + cp;
}

/** Where a keysym is in the keymap: keycode and level (0 plain, 1 with Shift, "any" for our remapped keycodes). */
type KeyLocation = { keycode: number; level: 0 | 1 | "any" };

/** The X11 backend over an open `X11Api`. */
export class X11Backend implements Backend {
  readonly #api: X11Api;
  readonly #held: HeldInput;
  readonly #wayland: boolean;
  readonly #range: { min: number; max: number };
  #perKeycode = 0;
  #keysyms: number[] = [];
  /** Keycodes that had no keysym at start, free for remapping (highest first: the least likely to be in use). */
  readonly #spare: number[];
  /** Our remapped keycodes: keysym → keycode, least recently used first. */
  readonly #remapped = new Map<number, number>();
  #lastRemapAt = 0;
  #closed = false;

  constructor(api: X11Api, held: HeldInput, wayland: boolean) {
    this.#api = api;
    this.#held = held;
    this.#wayland = wayland;
    this.#range = api.keycodeRange();
    this.#readKeymap();
    this.#spare = [];
    for (let keycode = this.#range.max; keycode >= this.#range.min; keycode--) {
      if (this.#row(keycode).every((keysym) => keysym === 0)) this.#spare.push(keycode);
    }
  }

  status(): Injection {
    return this.#wayland ? { ok: false, reason: WAYLAND_REASON } : { ok: true };
  }

  screens(): Screen[] {
    const monitors = this.#api.monitors();
    if (monitors.length === 0) {
      const { width, height } = this.#api.displaySize();
      return [{ id: "0", x: 0, y: 0, width, height, scale: 1, primary: true }];
    }
    const anyPrimary = monitors.some((monitor) => monitor.primary);
    return monitors.map((monitor, index) => ({
      id: monitor.name || String(index),
      x: monitor.x,
      y: monitor.y,
      width: monitor.width,
      height: monitor.height,
      scale: 1,
      primary: monitor.primary || (!anyPrimary && index === 0),
    }));
  }

  movePixel(x: number, y: number): void {
    this.#api.fakeMotion(x, y);
    this.#api.sync();
  }

  button(button: MouseButton, down: boolean): void {
    // X buttons: 1 left, 2 middle, 3 right.
    this.#api.fakeButton(button + 1, down);
    this.#api.sync();
  }

  wheel(dx: number, dy: number): void {
    // One press+release per notch: 4 up, 5 down, 6 left, 7 right.
    const clicks = (button: number, count: number) => {
      for (let i = 0; i < count; i++) {
        this.#api.fakeButton(button, true);
        this.#api.fakeButton(button, false);
      }
    };
    clicks(dy < 0 ? 4 : 5, Math.abs(dy));
    clicks(dx < 0 ? 6 : 7, Math.abs(dx));
    this.#api.sync();
  }

  key(code: string, down: boolean): boolean {
    const numbers = keyNumbers(code);
    const keycode = numbers ? numbers.evdev + 8 : -1;
    if (keycode < this.#range.min || keycode > this.#range.max) return false;
    this.#api.fakeKey(keycode, down);
    this.#api.sync();
    return true;
  }

  async text(text: string): Promise<void> {
    // The customer may have switched layouts since the last text: read the keymap each time (one round trip).
    this.#readKeymap();
    for (const character of text) {
      // A remap may have waited: the app may have stopped meanwhile, and the display is then closed.
      if (this.#closed) return;
      const keysym = keysymForCharacter(character);
      if (keysym === null) continue;
      const location = this.#find(keysym) ?? (await this.#remap(keysym));
      if (location) this.#type(location);
    }
    this.#api.sync();
  }

  sas(): Injection {
    // Ctrl+Alt+Suppr on a Linux desktop opens the session menu (GNOME, KDE) when the desktop binds it.
    const keycodes = ["ControlLeft", "AltLeft", "Delete"].map((code) => (keyNumbers(code)?.evdev ?? 0) + 8);
    for (const keycode of keycodes) this.#api.fakeKey(keycode, true);
    for (const keycode of keycodes.toReversed()) this.#api.fakeKey(keycode, false);
    this.#api.sync();
    return { ok: true };
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      // Give the spare keycodes back their empty mapping.
      for (const keycode of this.#remapped.values()) {
        this.#api.changeKeyboardMapping(keycode, this.#perKeycode, new Array<number>(this.#perKeycode).fill(0));
      }
      this.#remapped.clear();
      this.#api.sync();
    } finally {
      this.#api.close();
    }
  }

  #readKeymap(): void {
    const { perKeycode, keysyms } = this.#api.getKeyboardMapping(
      this.#range.min,
      this.#range.max - this.#range.min + 1,
    );
    this.#perKeycode = perKeycode;
    this.#keysyms = keysyms;
  }

  #row(keycode: number): number[] {
    const start = (keycode - this.#range.min) * this.#perKeycode;
    return this.#keysyms.slice(start, start + this.#perKeycode);
  }

  /** The keysym at level 1 or 2 of group 1, plain level first, lowest keycode first. */
  #find(keysym: number): KeyLocation | undefined {
    const remapped = this.#remapped.get(keysym);
    if (remapped !== undefined) {
      // Mark as recently used (Map order is insertion order).
      this.#remapped.delete(keysym);
      this.#remapped.set(keysym, remapped);
      return { keycode: remapped, level: "any" };
    }
    for (const level of [0, 1] as const) {
      for (let keycode = this.#range.min; keycode <= this.#range.max; keycode++) {
        if (level >= this.#perKeycode) break;
        if (this.#keysyms[(keycode - this.#range.min) * this.#perKeycode + level] === keysym) {
          return { keycode, level };
        }
      }
    }
    return undefined;
  }

  /** Maps a spare keycode to `keysym` on every level; undefined when the keymap has no spare keycode. */
  async #remap(keysym: number): Promise<KeyLocation | undefined> {
    const used = new Set(this.#remapped.values());
    let keycode = this.#spare.find((candidate) => !used.has(candidate));
    if (keycode === undefined) {
      // All spares in use: take the least recently used one, once clients had time to read its mapping.
      const oldest = this.#remapped.entries().next().value;
      if (!oldest) return undefined;
      this.#remapped.delete(oldest[0]);
      keycode = oldest[1];
      const wait = this.#lastRemapAt + EVICT_SETTLE_MS - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    this.#api.changeKeyboardMapping(keycode, this.#perKeycode, new Array<number>(this.#perKeycode).fill(keysym));
    this.#api.sync();
    // Clients reload their keymap when told it changed (MappingNotify, XKB), asynchronously: a key typed at once
    // may be read with the old, empty mapping and lost (seen with Chromium under Xvfb). Only the first use of a
    // character waits: the mapping then stays.
    await new Promise((resolve) => setTimeout(resolve, REMAP_SETTLE_MS));
    this.#lastRemapAt = Date.now();
    this.#remapped.set(keysym, keycode);
    const start = (keycode - this.#range.min) * this.#perKeycode;
    this.#keysyms.fill(keysym, start, start + this.#perKeycode);
    return { keycode, level: "any" };
  }

  /** Types one key at `location`, pressing Shift for level 2 and lifting a held Shift for level 1. */
  #type({ keycode, level }: KeyLocation): void {
    const heldShifts = SHIFT_CODES.filter((code) => this.#held.hasKey(code)).map(
      (code) => (keyNumbers(code)?.evdev ?? 0) + 8,
    );
    const pressShift = level === 1 && heldShifts.length === 0;
    const liftShift = level === 0 && heldShifts.length > 0;
    const shift = this.#shiftKeycode();
    if (pressShift) this.#api.fakeKey(shift, true);
    if (liftShift) for (const held of heldShifts) this.#api.fakeKey(held, false);
    this.#api.fakeKey(keycode, true);
    this.#api.fakeKey(keycode, false);
    if (liftShift) for (const held of heldShifts) this.#api.fakeKey(held, true);
    if (pressShift) this.#api.fakeKey(shift, false);
  }

  #shiftKeycode(): number {
    for (let keycode = this.#range.min; keycode <= this.#range.max; keycode++) {
      if (this.#keysyms[(keycode - this.#range.min) * this.#perKeycode] === KEYSYM_SHIFT_L) return keycode;
    }
    return DEFAULT_SHIFT_KEYCODE;
  }
}

/** Options of `createX11Injector`; `open` replaces the real Xlib in tests. */
export type X11InjectorOptions = {
  env?: NodeJS.ProcessEnv;
  open?: (display: string | null) => Promise<X11OpenResult>;
  onWarning?: WarningListener;
};

/**
 * The Linux injector. Never throws: without Xlib, display or XTest, or under
 * Wayland, the injector's status says why (French) and input is dropped.
 */
export async function createX11Injector(options: X11InjectorOptions = {}): Promise<TrackedInjector> {
  const env = options.env ?? process.env;
  const open = options.open ?? (async (display) => (await import("./x11-native.ts")).openX11(display));
  const wayland = isWaylandSession(env);
  const opened = env.DISPLAY ? await open(env.DISPLAY) : { reason: wayland ? WAYLAND_REASON : noDisplayReason() };
  if ("api" in opened) {
    const api = opened.api;
    return new TrackedInjector((held) => new X11Backend(api, held, wayland), options.onWarning);
  }
  const reason = wayland ? WAYLAND_REASON : opened.reason;
  return new TrackedInjector(() => unavailableBackend(reason, [UNKNOWN_SCREEN]), options.onWarning);
}

function noDisplayReason(): string {
  return "Aucun affichage X11 n'est accessible (variable DISPLAY vide) : la prise de contrôle n'est pas possible.";
}
