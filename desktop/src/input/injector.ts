/**
 * The input injector (issue 15, "Injection"): one interface over X11 (XTest),
 * Windows (`SendInput`) and macOS (`CGEventPost`), plus what every backend
 * shares: the tracker of held keys and buttons (so a release reaches exactly
 * what is down), and the mapping of picture fractions to a monitor's pixels.
 *
 * A backend only turns one action into OS calls (`Backend`); `TrackedInjector`
 * wraps it, keeps the held set and implements `releaseAll`.
 */
import type { Injection, Screen } from "#app/remote-support/device-protocol.ts";

/** Mouse buttons as `MouseEvent.button`: 0 left, 1 middle, 2 right. */
export type MouseButton = 0 | 1 | 2;

/** What the app asks of an injector. Every method may be async (text may wait for a keymap change). */
export interface Injector {
  /** Whether injection works here, or why not (French, shown to the customer and the technician). */
  status(): Injection;
  /** The monitors, in the OS's pixels (X11/Windows: device pixels; macOS: points, `scale` = pixels per point). */
  screens(): Screen[];
  /** Pointer to the fractions `x`, `y` (0–1) of `screen`. */
  move(screen: Screen, x: number, y: number): void | Promise<void>;
  button(button: MouseButton, down: boolean): void | Promise<void>;
  /** Wheel in notches: `dy` > 0 scrolls down, `dx` > 0 scrolls right. */
  wheel(dx: number, dy: number): void | Promise<void>;
  /** A physical key by `KeyboardEvent.code`; unknown codes are ignored (and reported through `onWarning`). */
  key(code: string, down: boolean): void | Promise<void>;
  /** Characters, whatever the customer's layout. */
  text(text: string): void | Promise<void>;
  /** Ctrl+Alt+Suppr where the system lets an app send it; `{ ok: false, reason }` in French otherwise. */
  sas(): Injection | Promise<Injection>;
  /** Releases every key and button held now (keys in reverse press order, then buttons). */
  releaseAll(): void | Promise<void>;
  /** Releases everything and frees the OS resources; the injector is unusable afterwards. */
  close(): void | Promise<void>;
}

/**
 * One backend: raw actions, no bookkeeping. Pixels are global OS coordinates
 * (the same space as `Screen.x/y`). `keyDown`/`keyUp` return false when the
 * code has no key on this system.
 */
export interface Backend {
  status(): Injection;
  screens(): Screen[];
  movePixel(x: number, y: number): void;
  button(button: MouseButton, down: boolean): void;
  wheel(dx: number, dy: number): void;
  key(code: string, down: boolean): boolean;
  text(text: string): void | Promise<void>;
  sas(): Injection;
  close(): void;
}

/**
 * Keys and buttons currently held by the technician, in press order. Each
 * backend reads it too (macOS needs the modifier flags and whether a drag is
 * going on; X11 needs to know whether Shift is down while typing text).
 */
export class HeldInput {
  #keys: string[] = [];
  #buttons: MouseButton[] = [];

  pressKey(code: string): void {
    if (!this.#keys.includes(code)) this.#keys.push(code);
  }
  releaseKey(code: string): void {
    this.#keys = this.#keys.filter((held) => held !== code);
  }
  pressButton(button: MouseButton): void {
    if (!this.#buttons.includes(button)) this.#buttons.push(button);
  }
  releaseButton(button: MouseButton): void {
    this.#buttons = this.#buttons.filter((held) => held !== button);
  }
  hasKey(code: string): boolean {
    return this.#keys.includes(code);
  }
  hasButton(button: MouseButton): boolean {
    return this.#buttons.includes(button);
  }
  /** Held keys, first pressed first. */
  keys(): readonly string[] {
    return [...this.#keys];
  }
  /** Held buttons, first pressed first. */
  buttons(): readonly MouseButton[] {
    return [...this.#buttons];
  }
  isEmpty(): boolean {
    return this.#keys.length === 0 && this.#buttons.length === 0;
  }
}

/**
 * Fraction of a monitor → global pixel. `fraction` is clamped to 0–1; 1
 * maps to the last pixel, not one past it. A tiny epsilon keeps `p / size`
 * (what a browser computes from an integer offset) on pixel `p` despite
 * floating-point rounding.
 */
export function fractionToPixel(origin: number, size: number, fraction: number): number {
  const clamped = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
  return origin + Math.min(size - 1, Math.floor(clamped * size + 1e-6));
}

/**
 * The monitor the pointer fractions refer to: the one named `id` (sent by
 * the server with each batch), else the first primary one, else the first.
 * Throws only when `screens` is empty (a backend always reports one at least).
 */
export function pickScreen(screens: readonly Screen[], id: string | null): Screen {
  const named = id === null ? undefined : screens.find((screen) => screen.id === id);
  const chosen = named ?? screens.find((screen) => screen.primary) ?? screens[0];
  if (!chosen) throw new Error("Aucun écran connu.");
  return chosen;
}

/** What the injector tells the app besides its status: a French sentence for the terminal. */
export type WarningListener = (message: string) => void;

/**
 * The shared part of every injector: the held set and `releaseAll`. Input
 * is refused (dropped) while the backend's status is not ok, so nothing
 * half-works: the status explains why.
 */
export class TrackedInjector implements Injector {
  readonly held = new HeldInput();
  #backend: Backend | undefined;
  #closed = false;
  readonly #onWarning: WarningListener;

  /**
   * `makeBackend` receives the held set (backends read it, never write it). A backend that fails to start
   * (a system call failing on a real machine: X's keyboard map unreadable…) gives an injector that says why
   * in its status, as every other obstacle does, instead of ending the app.
   */
  constructor(makeBackend: (held: HeldInput) => Backend, onWarning: WarningListener = () => {}) {
    try {
      this.#backend = makeBackend(this.held);
    } catch (error) {
      this.#backend = unavailableBackend(backendFailure(error), [UNKNOWN_SCREEN]);
    }
    this.#onWarning = onWarning;
  }

  get #usable(): Backend | undefined {
    if (this.#closed || !this.#backend) return undefined;
    return this.#backend.status().ok ? this.#backend : undefined;
  }

  status(): Injection {
    return this.#backend?.status() ?? { ok: false, reason: "Le logiciel est arrêté." };
  }

  screens(): Screen[] {
    return this.#backend?.screens() ?? [];
  }

  move(screen: Screen, x: number, y: number): void {
    this.#usable?.movePixel(fractionToPixel(screen.x, screen.width, x), fractionToPixel(screen.y, screen.height, y));
  }

  button(button: MouseButton, down: boolean): void {
    const backend = this.#usable;
    if (!backend) return;
    // An "up" for a button we never pressed (pressed before a reconnection, already released) is dropped:
    // sending it could end a drag the customer is doing themself.
    if (!down && !this.held.hasButton(button)) return;
    backend.button(button, down);
    if (down) this.held.pressButton(button);
    else this.held.releaseButton(button);
  }

  wheel(dx: number, dy: number): void {
    if (dx !== 0 || dy !== 0) this.#usable?.wheel(dx, dy);
  }

  key(code: string, down: boolean): void {
    const backend = this.#usable;
    if (!backend) return;
    if (!down && !this.held.hasKey(code)) return;
    // Pressed state is recorded before the call so a backend computing modifier flags sees this key.
    if (down) this.held.pressKey(code);
    else this.held.releaseKey(code);
    if (!backend.key(code, down)) {
      this.held.releaseKey(code);
      if (down) this.#onWarning(`Touche inconnue sur ce système, ignorée : ${code}.`);
    }
  }

  async text(text: string): Promise<void> {
    await this.#usable?.text(text);
  }

  sas(): Injection {
    const backend = this.#usable;
    if (!backend) return this.status();
    return backend.sas();
  }

  releaseAll(): void {
    const backend = this.#backend;
    if (!backend || this.#closed) return;
    // Reverse press order: Ctrl+Shift+T is undone as T, Shift, Ctrl, like a person's hands.
    for (const code of this.held.keys().toReversed()) {
      this.held.releaseKey(code);
      try {
        backend.key(code, false);
      } catch {
        // One failed release must not keep the others held.
      }
    }
    for (const button of this.held.buttons().toReversed()) {
      this.held.releaseButton(button);
      try {
        backend.button(button, false);
      } catch {
        // Same: carry on with the next one.
      }
    }
  }

  close(): void {
    if (this.#closed) return;
    this.releaseAll();
    this.#closed = true;
    this.#backend?.close();
    this.#backend = undefined;
  }
}

/** Screen reported when none can be read: the protocol needs one, and injection is off anyway. */
export const UNKNOWN_SCREEN: Screen = { id: "inconnu", x: 0, y: 0, width: 1920, height: 1080, scale: 1, primary: true };

/** The status reason of a backend that failed to start (the protocol's reason is at most 500 characters). */
function backendFailure(error: unknown): string {
  const detail = (error instanceof Error ? error.message : String(error)).slice(0, 200);
  return `La prise de contrôle n'a pas pu démarrer sur cet ordinateur (${detail}).`;
}

/** A backend that cannot inject: every action is a no-op, the status gives `reason`. */
export function unavailableBackend(reason: string, screens: Screen[]): Backend {
  return {
    status: () => ({ ok: false, reason }),
    screens: () => screens,
    movePixel: () => {},
    button: () => {},
    wheel: () => {},
    key: () => false,
    text: () => {},
    sas: () => ({ ok: false, reason }),
    close: () => {},
  };
}
