/**
 * A capturer that cannot capture (issue 26): Wayland, no display, a system
 * whose capture comes later. Apart from `capturer.ts` so that backends can
 * use it without importing the module that imports them.
 */
import type { ScreenCapturer } from "./capturer.ts";

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
