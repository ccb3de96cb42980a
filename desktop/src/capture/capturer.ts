/**
 * Screen capture (issue 26, "the app sees the screen"): one interface over
 * each system's way of reading the pixels of a monitor.
 *
 * - Linux: X11 through XShm (`x11-capture.ts`), the mouse pointer drawn in
 *   with XFixes. Wayland sessions are reported impossible, in French.
 * - Windows: GDI `BitBlt` of the monitor's rectangle of the virtual screen
 *   into a DIB section, the pointer drawn with `DrawIconEx`
 *   (`windows-capture.ts`; why not DXGI is told there). No permission; the
 *   secure desktop (UAC prompts) cannot be read.
 * - macOS: `CGDisplayCreateImage` with the Screen Recording permission
 *   (`macos-capture.ts`; its status gives the steps when it is missing), an
 *   arrow drawn where the pointer is.
 *
 * Each backend module is imported only on its own system.
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
   * reports it), mouse pointer included. The picture is in device pixels:
   * on a macOS Retina display it is `scale` times the rectangle's size. The returned buffer belongs to the
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

const UNSUPPORTED = "Ce système n'est pas pris en charge pour la capture de l'écran.";

/**
 * The capturer of `platform` (default: this process's system), issue 26:
 * X11 on Linux, GDI on Windows, CoreGraphics on macOS. Never throws: a
 * capture that cannot work reports why in its status (French). Each module is
 * imported only on its own system, so Windows never opens libX11.
 */
export async function createCapturer(
  platform: NodeJS.Platform = process.platform,
  options: CapturerOptions = {},
): Promise<ScreenCapturer> {
  if (platform === "linux") return (await import("./x11-capture.ts")).createX11Capturer({ env: options.env });
  if (platform === "win32") return (await import("./windows-capture.ts")).createWindowsCapturer();
  if (platform === "darwin") return (await import("./macos-capture.ts")).createMacCapturer();
  return unavailableCapturer(UNSUPPORTED);
}
