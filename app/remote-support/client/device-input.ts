/**
 * The technician's input for the customer's desktop app (issue 15), pure
 * parts: which keyboard events travel as text and which as keys, and a
 * sender that batches events for the server's `input` event.
 *
 * - Text (`keyInput`): a key that types one character with neither Ctrl,
 *   Alt nor Meta held (AltGr counts as typing) travels as `{ t: "text" }`,
 *   so "é" arrives as "é" whatever the customer's keyboard layout. Every
 *   other key (arrows, Entrée, Ctrl+C, F5…) travels by its physical `code`,
 *   pressed and released, so shortcuts work as on a local keyboard.
 * - Batching (`DeviceInputSender`): pointer moves are coalesced to the last
 *   one per animation frame; buttons, keys and text go at once, after any
 *   pending move, so a click lands where the pointer is. Keys and buttons
 *   sent down are tracked: `releaseAll` sends their release (the server also
 *   tells the app to release everything when control stops).
 */
import { INPUT_LIMITS, type InputAck, type InputEvent } from "#app/remote-support/device-protocol.ts";

type KeyboardLike = {
  key: string;
  code: string;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  getModifierState?: (key: string) => boolean;
};

/** The event a keydown sends to the app, or null when it sends nothing (a dead key waiting for its letter, a bare modifier repeat). */
export function keyInput(event: KeyboardLike): InputEvent | null {
  if (event.key === "Dead" || event.key === "Unidentified" || event.key === "Process") return null;
  const altGraph = event.getModifierState?.("AltGraph") ?? false;
  const shortcut = event.metaKey || (!altGraph && (event.ctrlKey || event.altKey));
  // One user-perceived character (e.g. "é", "€", "😀"): typed text.
  if (!shortcut && [...event.key].length === 1) return { t: "text", text: event.key };
  if (!/^[A-Za-z0-9]{1,32}$/.test(event.code)) return null;
  return { t: "key", code: event.code, down: true };
}

/** Where batches go: the technician's socket (`socket.emit("input", batch, ack)`). */
export type EmitInput = (batch: { code: string; events: InputEvent[] }, ack: (result: InputAck) => void) => void;

export class DeviceInputSender {
  private pendingMove: { x: number; y: number } | null = null;
  private frame = 0;
  private readonly keys = new Set<string>();
  private readonly buttons = new Set<number>();

  /**
   * @param emit sends one batch; `onRefused` receives the server's French message when it refuses one.
   * @param schedule runs a callback before the next frame (`requestAnimationFrame` in the browser).
   */
  private readonly code: string;
  private readonly emit: EmitInput;
  private readonly onRefused: (message: string) => void;
  private readonly schedule: (callback: () => void) => number;

  constructor(
    code: string,
    emit: EmitInput,
    onRefused: (message: string) => void,
    schedule: (callback: () => void) => number = (callback) => requestAnimationFrame(callback),
  ) {
    this.code = code;
    this.emit = emit;
    this.onRefused = onRefused;
    this.schedule = schedule;
  }

  /** Pointer at fractions `x`, `y` (0–1) of the shared picture; sent with the next frame, the last one wins. */
  move(x: number, y: number): void {
    this.pendingMove = { x, y };
    if (this.frame) return;
    this.frame = this.schedule(() => {
      this.frame = 0;
      this.flush([]);
    });
  }

  button(button: number, down: boolean): void {
    if (button < 0 || button > 2) return;
    if (down) this.buttons.add(button);
    else if (!this.buttons.delete(button)) return;
    this.flush([{ t: "button", button, down }]);
  }

  /** Wheel notches (positive `dy`: down). */
  wheel(dx: number, dy: number): void {
    const clamp = (value: number) => Math.max(-20, Math.min(20, Math.round(value)));
    if (clamp(dx) === 0 && clamp(dy) === 0) return;
    this.flush([{ t: "wheel", dx: clamp(dx), dy: clamp(dy) }]);
  }

  /** A keydown (see `keyInput`); a key already down (auto-repeat) is not pressed again. */
  keyDown(event: KeyboardLike): void {
    const input = keyInput(event);
    if (!input) return;
    if (input.t === "key") {
      if (this.keys.has(input.code)) return;
      this.keys.add(input.code);
    }
    this.flush([input]);
  }

  /** A keyup: releases the key if it was sent down by its code (typed text has no release). */
  keyUp(code: string): void {
    if (!this.keys.delete(code)) return;
    this.flush([{ t: "key", code, down: false }]);
  }

  /** Ctrl+Alt+Suppr, where the customer's system allows an app to send it. */
  secureAttention(): void {
    this.flush([{ t: "sas" }]);
  }

  /** Releases every key and button sent down, and forgets the pending move. */
  releaseAll(): void {
    this.pendingMove = null;
    const releases: InputEvent[] = [
      ...[...this.buttons].map((button) => ({ t: "button" as const, button, down: false })),
      ...[...this.keys].map((code) => ({ t: "key" as const, code, down: false })),
    ];
    this.buttons.clear();
    this.keys.clear();
    if (releases.length > 0) this.flush(releases);
  }

  private flush(events: InputEvent[]): void {
    const batch: InputEvent[] = this.pendingMove ? [{ t: "move", ...this.pendingMove }, ...events] : events;
    this.pendingMove = null;
    for (let start = 0; start < batch.length; start += INPUT_LIMITS.batchEvents) {
      this.emit({ code: this.code, events: batch.slice(start, start + INPUT_LIMITS.batchEvents) }, (result) => {
        if (!result.ok) this.onRefused(result.message);
      });
    }
  }
}
