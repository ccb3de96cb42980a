/**
 * A capturer that cannot capture (issue 26): Wayland, no display, a native
 * library missing, an unsupported system. Apart from `capturer.ts` so that
 * backends can use it without importing the module that imports them.
 */
import type { ScreenCapturer } from "./capturer.ts";

/** Why no capture works when koffi's native part cannot load (French, shown to both sides). */
export const CAPTURE_KOFFI_MISSING =
  "Le module natif (koffi) n'a pas pu être chargé sur ce système : l'écran ne peut pas être montré au technicien.";

/**
 * A capturer that captures nothing and says why (`reason`, French).
 * `grab` throws an `Error` with that reason.
 */
export function unavailableCapturer(reason: string): ScreenCapturer {
  return {
    status: () => ({ ok: false, reason }),
    grab: () => {
      throw new Error(reason);
    },
    close: () => undefined,
  };
}
