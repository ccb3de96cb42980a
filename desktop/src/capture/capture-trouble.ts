/**
 * What the app does with failed captures (issue 26), and whether Windows shows its secure desktop (issue 36 §4).
 *
 * - A failed capture is said to the customer at most once per `CAPTURE_NOTICE_MS` per message: while a UAC
 *   prompt or a lock screen is up, every capture (20 a second) fails the same way.
 * - `secureDesktop` is true from a capture refused with `SECURE_DESKTOP_REASON` (`windows-capture.ts`) until a
 *   capture works again or the picture stops: the app then reports it on `device:status`, so the technician reads
 *   « Le client doit répondre à la fenêtre de Windows … » instead of a frozen picture, and the picture resumes by
 *   itself (the stream keeps trying at its usual pace).
 */
import { SECURE_DESKTOP_REASON } from "./windows-capture.ts";

/** The same capture failure is said at most this often (ms). */
export const CAPTURE_NOTICE_MS = 10_000;

export class CaptureTrouble {
  /** Windows refuses to read the screen because its secure desktop is shown. */
  secureDesktop = false;
  #lastNotice = "";
  #lastNoticeAt = Number.NEGATIVE_INFINITY;

  /**
   * A capture failed with `error`. @returns the French notice to show now (null: the same was said less than
   * `CAPTURE_NOTICE_MS` ago) and whether `secureDesktop` changed. `now`: ms (`performance.now()`).
   */
  failed(error: unknown, now = performance.now()): { notice: string | null; changed: boolean } {
    const reason = error instanceof Error ? error.message : String(error);
    const changed = reason === SECURE_DESKTOP_REASON && !this.secureDesktop;
    if (changed) this.secureDesktop = true;
    const message = `Capture de l'écran : ${reason}`;
    if (message === this.#lastNotice && now - this.#lastNoticeAt < CAPTURE_NOTICE_MS) return { notice: null, changed };
    this.#lastNotice = message;
    this.#lastNoticeAt = now;
    return { notice: message, changed };
  }

  /** A capture worked, or the picture stopped. @returns whether `secureDesktop` changed (it is now false). */
  cleared(): boolean {
    if (!this.secureDesktop) return false;
    this.secureDesktop = false;
    return true;
  }
}
