/**
 * Remote input, pure parts (issue 6; spec §4 "Remote-input toggle", §7
 * "Peer-to-peer": mousemove `{x, y}` as fractions of the video).
 *
 * - `contentBox`: where the picture sits inside a `<video>` drawn with
 *   `object-fit: contain` (letterboxing bars excluded), px.
 * - `pointerFraction`: a pointer position → `{x, y}` fractions 0–1 of the
 *   picture, or null over the bars.
 * - `HeldInputs`: which keys and buttons are down, so that turning input
 *   off, losing focus or ending the session releases each of them (keyup,
 *   mouseup) and nothing stays stuck on the customer's side.
 * - `describeControl`: the French words shown to the customer for an event.
 */
import type { ControlMessage } from "#app/remote-support/control-channel.ts";

export type Box = { left: number; top: number; width: number; height: number };

/**
 * The picture's box inside an element of `elementWidth` × `elementHeight`
 * px showing a `videoWidth` × `videoHeight` picture with `object-fit:
 * contain`; null before the video has a size.
 */
export function contentBox(
  elementWidth: number,
  elementHeight: number,
  videoWidth: number,
  videoHeight: number,
): Box | null {
  if (videoWidth <= 0 || videoHeight <= 0 || elementWidth <= 0 || elementHeight <= 0) return null;
  const scale = Math.min(elementWidth / videoWidth, elementHeight / videoHeight);
  const width = videoWidth * scale;
  const height = videoHeight * scale;
  return { left: (elementWidth - width) / 2, top: (elementHeight - height) / 2, width, height };
}

/** `(offsetX, offsetY)` px from the element's top-left corner → fractions of `box`, or null outside the picture. */
export function pointerFraction(offsetX: number, offsetY: number, box: Box | null): { x: number; y: number } | null {
  if (!box) return null;
  const x = (offsetX - box.left) / box.width;
  const y = (offsetY - box.top) / box.height;
  if (x < 0 || x > 1 || y < 0 || y > 1) return null;
  return { x, y };
}

type KeyMessage = Extract<ControlMessage, { type: "keydown" | "keyup" }>;
type ButtonMessage = Extract<ControlMessage, { type: "mousedown" | "mouseup" }>;

/** Keys (by `code`) and mouse buttons currently held by the technician. */
export class HeldInputs {
  private keys = new Map<string, string>();
  private buttons = new Set<number>();

  /** Records a sent key or button event. A repeated keydown of a held key is not a new press. */
  note(message: KeyMessage | ButtonMessage): void {
    if ("code" in message) {
      if (message.type === "keydown") this.keys.set(message.code, message.key);
      else this.keys.delete(message.code);
    } else if (message.type === "mousedown") this.buttons.add(message.button);
    else this.buttons.delete(message.button);
  }

  isKeyHeld(code: string): boolean {
    return this.keys.has(code);
  }

  isButtonHeld(button: number): boolean {
    return this.buttons.has(button);
  }

  /** The keyup and mouseup messages releasing everything held; forgets them. */
  releaseAll(): (KeyMessage | ButtonMessage)[] {
    const releases: (KeyMessage | ButtonMessage)[] = [
      ...[...this.keys].map(([code, key]) => ({ type: "keyup" as const, key, code })),
      ...[...this.buttons].map((button) => ({ type: "mouseup" as const, button })),
    ];
    this.keys.clear();
    this.buttons.clear();
    return releases;
  }
}

const BUTTON_NAMES = ["gauche", "du milieu", "droit", "précédent", "suivant"];

/** What the customer reads for a control event ("Clic gauche enfoncé", "Touche « a » relâchée"); null for others. */
export function describeControl(message: ControlMessage): string | null {
  switch (message.type) {
    case "mousedown":
      return `Bouton ${BUTTON_NAMES[message.button] ?? message.button} enfoncé`;
    case "mouseup":
      return `Bouton ${BUTTON_NAMES[message.button] ?? message.button} relâché`;
    case "keydown":
      return `Touche « ${message.key === " " ? "Espace" : message.key} » enfoncée`;
    case "keyup":
      return `Touche « ${message.key === " " ? "Espace" : message.key} » relâchée`;
    default:
      return null;
  }
}
