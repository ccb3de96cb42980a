/**
 * The desktop app's picture of the customer's screen, in the technician's
 * browser (issue 26, `screen-protocol.ts`). Framework-free: the remote view
 * uses it through `use-app-screen.ts`.
 *
 * `AppScreen` listens to `screen:frame` for one session on the tab's socket
 * and draws each frame on its own canvas (kept across the view being
 * reduced and reopened, so no new picture is needed then):
 * - every frame is checked against `ScreenFrame`; an invalid one is dropped
 *   (a new full picture is asked, since the picture may now be wrong);
 * - issue 37 §1: one frame is decoded at a time (its rectangles together, at
 *   most `SCREEN_LIMITS.pairingBurstPixels` px, which the server enforces),
 *   drawn, then acknowledged (`screen:ack`), which paces the app; the others
 *   wait in the order received (the app's `seq` order). A full frame replaces
 *   every frame still waiting before it: those are acknowledged unseen, never
 *   decoded, so a slow tab catches up instead of drawing old pictures;
 * - a `full` frame starts a new picture: the canvas takes its size (the page
 *   scales it with CSS, `object-fit: contain`, as it does the video);
 * - a change (`full: false`) before any full picture, or after one whose
 *   picture size differs, cannot be drawn: it is acknowledged unseen and a
 *   full picture asked (`screen:refresh`), as after a JPEG that fails to
 *   decode. These automatic requests go at most once a second;
 * - while no full picture has come (a reload of the page, a frame lost on
 *   the way) it asks again after `FIRST_PICTURE_WAIT_MS`, then every
 *   `SCREEN_LIMITS.ackTimeoutMs`; and once more whenever the socket
 *   reconnects (frames may have been lost meanwhile).
 *
 * `destroy()` stops listening and blanks the canvas: what the customer
 * stopped showing does not stay on the technician's page.
 */
import { frameJpegs, SCREEN_LIMITS, ScreenFrame } from "#app/remote-support/screen-protocol.ts";
import type { RealtimeSocket } from "./session-events";

/** What the page shows of the picture; a new object on every change. */
export type AppScreenSnapshot = {
  /** A full picture came: the canvas shows the customer's screen. */
  hasPicture: boolean;
  /** The picture's size, px (the canvas's own size); 0 before the first full picture. */
  width: number;
  height: number;
  /** The `Screen.id` of the monitor the picture shows; null before the first full picture. */
  screen: string | null;
};

/** Figures for display. */
export type AppScreenStats = {
  /** Frames drawn during the last second. */
  fps: number;
  /** When the last frame was drawn (`now()`, ms since the epoch by default); null before the first. */
  lastFrameAt: number | null;
  /** How long the last frame took from its arrival to its drawing (decoding included), ms. */
  lastFrameMs: number | null;
  /** Frames drawn since the start. */
  frames: number;
};

export type AppScreenOptions = {
  socket: RealtimeSocket;
  /** The session code: frames of other sessions are ignored, requests carry it. */
  code: string;
  /** Where to draw; a new `<canvas>` by default. */
  canvas?: HTMLCanvasElement;
  /** The clock, ms (`Date.now` by default). */
  now?: () => number;
};

/** Automatic requests for a full picture (a change before any picture, a JPEG that fails) go at most this often, ms. */
export const AUTO_REFRESH_INTERVAL_MS = 1_000;
/** How long a new viewer waits for the full picture the server asks for it, before asking itself, ms. */
export const FIRST_PICTURE_WAIT_MS = 1_500;

export const EMPTY_APP_SCREEN: AppScreenSnapshot = { hasPicture: false, width: 0, height: 0, screen: null };
export const EMPTY_APP_SCREEN_STATS: AppScreenStats = { fps: 0, lastFrameAt: null, lastFrameMs: null, frames: 0 };

type Decoded = { ok: true; bitmap: ImageBitmap } | { ok: false };
type Frame = ScreenFrame;

/** One JPEG → a bitmap, in the browser's image decoder (off the main thread). */
function decodeJpeg(jpeg: Uint8Array | ArrayBuffer): Promise<Decoded> {
  // Socket.IO hands an `ArrayBuffer` in a browser; a `Uint8Array` view is accepted too (tests, other transports).
  const bytes = jpeg instanceof ArrayBuffer ? jpeg : new Uint8Array(jpeg);
  return createImageBitmap(new Blob([bytes], { type: "image/jpeg" })).then(
    (bitmap): Decoded => ({ ok: true, bitmap }),
    (): Decoded => ({ ok: false }),
  );
}

export class AppScreen {
  /** The picture; the page places it (CSS size), the frames set its own size. */
  readonly canvas: HTMLCanvasElement;
  private readonly socket: RealtimeSocket;
  private readonly code: string;
  private readonly now: () => number;
  private context: CanvasRenderingContext2D | null = null;
  private snapshot: AppScreenSnapshot = EMPTY_APP_SCREEN;
  private readonly listeners = new Set<() => void>();
  /** Frames received, not yet decoded (issue 37 §1: one decode at a time). */
  private readonly waiting: { frame: Frame; drawable: boolean; receivedAt: number }[] = [];
  /** A frame is being decoded and drawn. */
  private busy = false;
  /** A full picture was received (maybe not drawn yet): the changes after it belong to it. */
  private pictureStarted = false;
  /** The size of the picture received last (changes of another size are not drawn). */
  private receivedSize = { width: 0, height: 0 };
  private lastSeq = 0;
  private lastAutoRefresh = -Infinity;
  private waitTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly drawTimes: number[] = [];
  private lastFrameAt: number | null = null;
  private lastFrameMs: number | null = null;
  private frames = 0;
  private destroyed = false;

  constructor({ socket, code, canvas, now = Date.now }: AppScreenOptions) {
    this.socket = socket;
    this.code = code;
    this.now = now;
    this.canvas = canvas ?? document.createElement("canvas");
    // An empty canvas until the first picture (the default is 300 × 150 of transparent black).
    this.canvas.width = 0;
    this.canvas.height = 0;
    socket.on("screen:frame", this.onFrame);
    socket.on("connect", this.onReconnect);
    // The view opens once the server says the app's picture is on: its first full picture may already have gone
    // by. Asking at once costs at most one more full picture; waiting cost the technician 1.5 s on every join.
    this.autoRefresh();
    this.waitForPicture(FIRST_PICTURE_WAIT_MS);
  }

  getSnapshot(): AppScreenSnapshot {
    return this.snapshot;
  }

  /** Calls `listener` after each change of the snapshot; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  stats(): AppScreenStats {
    this.forgetOldDraws();
    return {
      fps: this.drawTimes.length,
      lastFrameAt: this.lastFrameAt,
      lastFrameMs: this.lastFrameMs,
      frames: this.frames,
    };
  }

  /** Show monitor `screen` (`Screen.id`): the picture switches with the next full frame. */
  select(screen: string): void {
    if (this.destroyed) return;
    this.socket.emit("screen:select", { code: this.code, screen });
  }

  /** Ask for a full picture now (a button of the page). */
  refresh(): void {
    if (this.destroyed) return;
    this.lastAutoRefresh = this.now();
    this.socket.emit("screen:refresh", { code: this.code });
  }

  /** Stops listening, drops the frames under way and blanks the canvas. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    clearTimeout(this.waitTimer);
    this.socket.off("screen:frame", this.onFrame);
    this.socket.off("connect", this.onReconnect);
    this.waiting.length = 0;
    this.canvas.width = 0;
    this.canvas.height = 0;
    this.context = null;
    this.listeners.clear();
  }

  private readonly onFrame = (raw: unknown) => {
    if (this.destroyed || typeof raw !== "object" || raw === null) return;
    if ((raw as { code?: unknown }).code !== this.code) return;
    const checked = ScreenFrame.safeParse(raw);
    // Not drawable, and the picture may now miss a change: ask for a whole one (not acknowledged: its seq is not trusted).
    if (!checked.success) return this.autoRefresh();
    const frame = checked.data;
    const receivedAt = this.now();
    let drawable = true;
    if (frame.full) {
      this.pictureStarted = true;
      this.receivedSize = { width: frame.width, height: frame.height };
    } else if (
      !this.pictureStarted ||
      frame.seq <= this.lastSeq ||
      frame.width !== this.receivedSize.width ||
      frame.height !== this.receivedSize.height
    ) {
      // A change of a picture this page does not have (or out of order): useless until a full picture.
      drawable = false;
      this.autoRefresh();
    }
    if (frame.full || frame.seq > this.lastSeq) this.lastSeq = frame.seq;
    if (frame.full) {
      // A new picture replaces everything still waiting: acknowledged unseen, so the app keeps its pace.
      for (const replaced of this.waiting.splice(0))
        this.socket.emit("screen:ack", { code: this.code, seq: replaced.frame.seq });
    }
    this.waiting.push({ frame, drawable, receivedAt });
    this.pump();
  };

  /** Decodes and draws the next waiting frame, unless one is under way. */
  private pump(): void {
    if (this.busy || this.destroyed) return;
    const next = this.waiting.shift();
    if (!next) return;
    this.busy = true;
    const decoded = next.drawable ? frameJpegs(next.frame).map((jpeg) => decodeJpeg(jpeg)) : [];
    // A failure (a listener that throws) must not stop the frames after it.
    this.draw(next.frame, decoded, next.receivedAt)
      .catch((error: unknown) => console.error("Erreur lors de l'affichage de l'image du logiciel", error))
      .finally(() => {
        this.busy = false;
        this.pump();
      });
  }

  private readonly onReconnect = () => {
    // Frames (and acknowledgements) may have been lost while the link was down.
    this.autoRefresh();
    if (!this.snapshot.hasPicture) this.waitForPicture(FIRST_PICTURE_WAIT_MS);
  };

  private async draw(frame: Frame, decoded: Promise<Decoded>[], receivedAt: number): Promise<void> {
    const results = await Promise.all(decoded);
    if (this.destroyed) {
      for (const result of results) if (result.ok) result.bitmap.close();
      return;
    }
    const changed = frame.full && this.startPicture(frame);
    const context = results.length > 0 ? this.getContext() : null;
    let failed = false;
    results.forEach((result, index) => {
      if (!result.ok) {
        failed = true;
        return;
      }
      const rect = frame.rects[index]!;
      try {
        context?.drawImage(result.bitmap, rect.x, rect.y, rect.w, rect.h);
      } catch {
        failed = true;
      } finally {
        result.bitmap.close();
      }
    });
    if (failed) this.autoRefresh();
    this.socket.emit("screen:ack", { code: this.code, seq: frame.seq });
    if (results.length > 0 || frame.full) {
      const drawnAt = this.now();
      this.drawTimes.push(drawnAt);
      this.forgetOldDraws();
      this.lastFrameAt = drawnAt;
      this.lastFrameMs = drawnAt - receivedAt;
      this.frames += 1;
    }
    // Told once the frame is drawn and counted, so a listener reads the new picture and its figures together.
    if (changed) for (const listener of [...this.listeners]) listener();
  }

  /**
   * A full frame: the canvas takes the picture's size (unchanged when the size is the same: no blank flash).
   * Whether the snapshot changed.
   */
  private startPicture(frame: Frame): boolean {
    if (this.canvas.width !== frame.width || this.canvas.height !== frame.height) {
      this.canvas.width = frame.width;
      this.canvas.height = frame.height;
    }
    clearTimeout(this.waitTimer);
    const { hasPicture, width, height, screen } = this.snapshot;
    if (hasPicture && width === frame.width && height === frame.height && screen === frame.screen) return false;
    this.snapshot = { hasPicture: true, width: frame.width, height: frame.height, screen: frame.screen };
    return true;
  }

  private getContext(): CanvasRenderingContext2D | null {
    this.context ??= this.canvas.getContext("2d", { alpha: false });
    return this.context;
  }

  private autoRefresh(): void {
    if (this.destroyed || this.now() - this.lastAutoRefresh < AUTO_REFRESH_INTERVAL_MS) return;
    this.refresh();
  }

  /** Until a full picture arrives: ask for one after `delay`, then every `ackTimeoutMs`. */
  private waitForPicture(delay: number): void {
    clearTimeout(this.waitTimer);
    this.waitTimer = setTimeout(() => {
      if (this.destroyed || this.snapshot.hasPicture) return;
      this.autoRefresh();
      this.waitForPicture(SCREEN_LIMITS.ackTimeoutMs);
    }, delay);
  }

  private forgetOldDraws(): void {
    const since = this.now() - 1_000;
    while (this.drawTimes.length > 0 && this.drawTimes[0]! <= since) this.drawTimes.shift();
  }
}
