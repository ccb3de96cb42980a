/**
 * Screen capture (issue 26, "the app sees the screen"): one interface over
 * each system's way of reading the pixels of a monitor.
 *
 * - Linux: X11 through XShm (`x11-capture.ts`), the mouse pointer drawn in
 *   with XFixes. Wayland sessions are reported impossible, in French.
 * - Windows and macOS: not captured by this version. Their capturer only
 *   reports why, in French; the Windows backend (DXGI Desktop Duplication,
 *   GDI `BitBlt` as its fallback) and the macOS one (ScreenCaptureKit, with
 *   the Screen Recording permission) belong to a later version of the app.
 */
import type { Screen } from "#app/remote-support/device-protocol.ts";
import type { Capture } from "#app/remote-support/screen-protocol.ts";
import { unavailableCapturer } from "./unavailable.ts";

export { unavailableCapturer };

/**
 * One captured picture: `width` × `height` px, 4 bytes a pixel in memory
 * order B, G, R, X (the X/alpha byte is ignored), rows `stride` bytes apart
 * (stride ≥ width × 4). `data` holds at least `stride × height` bytes.
 */
export type CapturedImage = { width: number; height: number; stride: number; data: Uint8Array };

/** What the screen stream needs of a system's capture. */
export interface ScreenCapturer {
  /** Whether capture works here, or why not (French, shown to the customer and the technician). */
  status(): Capture;
  /**
   * The pixels of `screen` (its rectangle in the OS's pixels, as the injector
   * reports it), mouse pointer included. The returned buffer belongs to the
   * capturer and is valid only until the next call or `close()` (it may be
   * shared memory that is then reused or unmapped): copy what must outlive it.
   * Throws (French message) when the status is not ok or the system refuses.
   */
  grab(screen: Screen): CapturedImage;
  /** Frees the system resources; the capturer is unusable afterwards. Idempotent. */
  close(): void;
}

/** Options of `createCapturer`; `env` replaces `process.env` in tests. */
export type CapturerOptions = { env?: NodeJS.ProcessEnv };

const LATER_VERSION: Partial<Record<NodeJS.Platform, string>> = {
  win32:
    "La capture de l'écran de Windows arrivera dans une prochaine version du logiciel : " +
    "le technicien ne peut pas encore voir cet écran.",
  darwin:
    "La capture de l'écran de macOS arrivera dans une prochaine version du logiciel : " +
    "le technicien ne peut pas encore voir cet écran.",
};

const UNSUPPORTED = "Ce système n'est pas pris en charge pour la capture de l'écran.";

/**
 * The capturer of `platform` (default: this process's system), issue 26.
 * Never throws: a capture that cannot work reports why in its status. The
 * X11 module is imported only on Linux, so other systems never open libX11.
 */
export async function createCapturer(
  platform: NodeJS.Platform = process.platform,
  options: CapturerOptions = {},
): Promise<ScreenCapturer> {
  if (platform === "linux") return (await import("./x11-capture.ts")).createX11Capturer({ env: options.env });
  return unavailableCapturer(LATER_VERSION[platform] ?? UNSUPPORTED);
}
