/**
 * Issue 26: the desktop app's own picture of the customer's screen, in one
 * module shared by the app (`desktop/`), the server and the technician's
 * browser. Pure: zod and `jpeg-header.ts` only. Decision 019 records why JPEG rectangles over the
 * app's `/device` link (the MeshCentral and noVNC way) rather than WebRTC video.
 *
 * 1. The customer allows the technician to see the screen in the app
 *    (`device:consent { view: true }`, `DeviceConsentBody`); nothing is sent before.
 * 2. While the session has a joined technician, the view consent stands and
 *    the app is connected, the server tells the app `device:screen`
 *    (`ScreenDemand`: `active`, the monitor to show, and `refresh`, a counter
 *    raised whenever a full picture is needed: the technician joined,
 *    switched monitor or asked to resynchronise).
 * 3. The app captures that monitor, finds the 64 × 64 tiles that changed
 *    since the last picture it sent, merges them into rectangles, encodes each
 *    as a JPEG and sends `device:frame` (`ScreenFrame`): the rectangles, and
 *    their JPEGs one after the other in a single binary `data` (Socket.IO's
 *    parser refuses more than 10 binary attachments in a message, and one
 *    buffer is cheaper to relay). A full picture is one or more frames, the
 *    first with `full: true`. Each frame stays under `SCREEN_LIMITS.frameBytes`.
 * 4. The server checks the frame (schema, view consent, the session's byte
 *    budget; issue 37 §1: `frameProblem`, the pairing's pixel budget and
 *    `framesInFlight`, in `server/remote-support/screen-gate.ts`) and relays
 *    it as `screen:frame` to the joined technician only; nothing of the
 *    picture is stored.
 * 5. The technician's browser draws the rectangles and answers `screen:ack`
 *    `{ code, seq }` once drawn; the server passes `device:ack` (seq) to the
 *    app. The app keeps at most `SCREEN_LIMITS.framesInFlight` frames
 *    unacknowledged: on a slow link it skips captures, so no queue grows and
 *    the next frame carries everything that changed meanwhile (stale
 *    pictures are never sent). A frame left unacknowledged for
 *    `SCREEN_LIMITS.ackTimeoutMs` is counted as lost, and the next picture is full.
 * 6. The technician picks a monitor (`screen:select`) or asks for a fresh
 *    picture (`screen:refresh`); the pointer fractions of `device:input`
 *    then refer to the monitor shown.
 */
import { z } from "zod";
import { programWords } from "#app/utils/text.ts";
import { readJpegHeader } from "./jpeg-header.ts";

/** Bounds of the picture stream (bytes, ms, px). */
export const SCREEN_LIMITS = {
  /** JPEG bytes in one `device:frame`, all rectangles together (the Socket.IO message limit is 128 KiB). */
  frameBytes: 112 * 1024,
  /** Rectangles in one frame. */
  frameRects: 256,
  /** Largest picture side, px. */
  maxSide: 16_384,
  /**
   * Issue 37 §1: the most pixels of a whole picture (`width` × `height`), px: one 8K monitor (7 680 × 4 320; a 6K
   * Retina display is 20 Mpx). The viewer's canvas takes that size on every full picture: 16 384² cost a page
   * 1–2 GB and 2 s of its main thread each, while its 8 × 8 rectangle spent nearly nothing of the pixel budget.
   */
  maxPicturePixels: 7680 * 4320,
  /** Frames the app sends ahead of the technician's acknowledgements. */
  framesInFlight: 2,
  /** A frame unacknowledged this long is lost: the app sends a full picture next, ms. */
  ackTimeoutMs: 4_000,
  /** The server's budget per session: bytes per second relayed, and the burst (a 4K full picture fits). */
  sessionBytesPerSecond: 3 * 1024 * 1024,
  sessionBurstBytes: 6 * 1024 * 1024,
  /**
   * Issue 37 §1, the server's budget per pairing of decoded pixels (Σ `w` × `h` of the rectangles relayed) per
   * second, px/s: four full 4K pictures (3 840 × 2 160) a second, what a browser decodes in a few tens of ms of
   * CPU and ≈ 130 MB of bitmaps. Bytes alone do not bound it: a 112 KB JPEG can decode to 7 600 × 7 600 px.
   */
  pairingPixelsPerSecond: 4 * 3840 * 2160,
  /** Issue 37 §1, the burst of that budget, px: one full 8K picture (7 680 × 4 320); also the most pixels in one frame. */
  pairingBurstPixels: 7680 * 4320,
  /**
   * Issue 37 §1: the server forgets a relayed frame left unacknowledged this long, ms (half the app's
   * `ackTimeoutMs`, so that the app, counting from its send, never finds the server still counting it).
   */
  serverAckTimeoutMs: 2_000,
} as const;

const Side = z.number().int().min(1).max(SCREEN_LIMITS.maxSide);
const Offset = z
  .number()
  .int()
  .min(0)
  .max(SCREEN_LIMITS.maxSide - 1);

/** JPEG bytes: a `Buffer`/`Uint8Array` in Node and Bun, an `ArrayBuffer` in a browser (Socket.IO's binary). */
export const JpegBytes = z.custom<Uint8Array | ArrayBuffer>(
  (value) => value instanceof Uint8Array || value instanceof ArrayBuffer,
  { error: "Image JPEG attendue." },
);

/** One changed rectangle of the picture, px from its top-left corner, and the length of its JPEG in `data`, bytes. */
export const FrameRect = z.object({
  x: Offset,
  y: Offset,
  w: Side,
  h: Side,
  bytes: z.number().int().min(1).max(SCREEN_LIMITS.frameBytes),
});
export type FrameRect = z.infer<typeof FrameRect>;

export const ScreenFrame = z
  .object({
    /** The `Screen.id` this picture shows. */
    screen: z.string().max(64),
    /** Raised by one for every frame the app sends, from 1. */
    seq: z
      .number()
      .int()
      .min(1)
      .max(2 ** 31),
    /** Size of the whole picture, px (the monitor's device pixels, possibly scaled down by the app). */
    width: Side,
    height: Side,
    /** First frame of a full picture: the viewer starts a new canvas of `width` × `height`. */
    full: z.boolean(),
    rects: z.array(FrameRect).max(SCREEN_LIMITS.frameRects),
    /** The rectangles' JPEGs, in the order of `rects`, each `bytes` long, end to end. */
    data: JpegBytes,
  })
  .refine((frame) => frame.rects.reduce((sum, rect) => sum + rect.bytes, 0) === frame.data.byteLength, {
    error: "Les longueurs des rectangles ne correspondent pas aux données.",
  })
  .refine((frame) => frame.width * frame.height <= SCREEN_LIMITS.maxPicturePixels, {
    error: "L'image dépasse la taille d'un écran 8K.",
  });
export type ScreenFrame = z.infer<typeof ScreenFrame>;

/** Bytes of JPEG in a frame (what the budgets count). */
export function frameBytes(frame: { data: Uint8Array | ArrayBuffer }): number {
  return frame.data.byteLength;
}

/**
 * Joins rectangles and their JPEGs into a frame's `rects` and `data` (the
 * app's stream, tests). @returns the rectangles with their lengths, and the JPEGs end to end.
 */
export function packRects(
  encoded: readonly { x: number; y: number; w: number; h: number; jpeg: Uint8Array | ArrayBuffer }[],
): { rects: FrameRect[]; data: Uint8Array } {
  const data = new Uint8Array(encoded.reduce((sum, rect) => sum + rect.jpeg.byteLength, 0));
  let offset = 0;
  const rects = encoded.map(({ x, y, w, h, jpeg }) => {
    data.set(jpeg instanceof Uint8Array ? jpeg : new Uint8Array(jpeg), offset);
    offset += jpeg.byteLength;
    return { x, y, w, h, bytes: jpeg.byteLength };
  });
  return { rects, data };
}

/** The JPEG of each rectangle of `frame`, in order (views over `data`, no copy). */
export function frameJpegs(frame: Pick<ScreenFrame, "rects" | "data">): Uint8Array[] {
  const data = frame.data instanceof Uint8Array ? frame.data : new Uint8Array(frame.data);
  let offset = 0;
  return frame.rects.map((rect) => {
    const jpeg = data.subarray(offset, offset + rect.bytes);
    offset += rect.bytes;
    return jpeg;
  });
}

/** Decoded pixels of a frame: Σ `w` × `h` of its rectangles, px (what the pixel budget counts, issue 37 §1). */
export function framePixels(frame: Pick<ScreenFrame, "rects">): number {
  return frame.rects.reduce((sum, rect) => sum + rect.w * rect.h, 0);
}

/**
 * Issue 37 §1, what the server checks of a frame's content beyond its schema: `outside` when a rectangle leaves
 * the picture (x + w > width or y + h > height, px), `jpeg` when a rectangle's bytes are not a well-formed JPEG
 * header (`jpeg-header.ts`) whose SOF size is exactly the rectangle's `w` × `h`; null when the frame is sound.
 * Reads only the JPEG headers (a few hundred bytes each), never decodes.
 */
export function frameProblem(
  frame: Pick<ScreenFrame, "rects" | "data" | "width" | "height">,
): "outside" | "jpeg" | null {
  for (const rect of frame.rects) {
    if (rect.x + rect.w > frame.width || rect.y + rect.h > frame.height) return "outside";
  }
  const jpegs = frameJpegs(frame);
  for (const [index, rect] of frame.rects.entries()) {
    const header = readJpegHeader(jpegs[index]!);
    if (!header || header.width !== rect.w || header.height !== rect.h) return "jpeg";
  }
  return null;
}

/** Server → app: what to stream now. */
export type ScreenDemand = {
  /** Stream now: a technician is joined, the customer allowed them to see, the app is connected. */
  active: boolean;
  /** The monitor to show (`Screen.id`), null: the primary one. */
  screen: string | null;
  /** Raised whenever a full picture is needed (join, monitor switch, resynchronisation). */
  refresh: number;
};

/**
 * App → server `device:consent`: `allowed` is control (the only field older
 * apps send, always `false`), `view` is seeing the screen. At least one.
 */
export const DeviceConsentBody = z
  .object({ allowed: z.boolean().optional(), view: z.boolean().optional() })
  .refine((body) => body.allowed !== undefined || body.view !== undefined, { error: "Consentement vide." });
export type DeviceConsentBody = z.infer<typeof DeviceConsentBody>;

/** Technician → server: the frame `seq` of session `code` is drawn. */
export const ScreenAck = z.object({
  code: z.string().max(32),
  seq: z
    .number()
    .int()
    .min(1)
    .max(2 ** 31),
});
export type ScreenAck = z.infer<typeof ScreenAck>;

/** Technician → server: show monitor `screen` of session `code` (a full picture follows). */
export const ScreenSelect = z.object({ code: z.string().max(32), screen: z.string().min(1).max(64) });
export type ScreenSelect = z.infer<typeof ScreenSelect>;

/** Technician → server: send a full picture again (after a gap, a reload). */
export const ScreenRefresh = z.object({ code: z.string().max(32) });
export type ScreenRefresh = z.infer<typeof ScreenRefresh>;

/** Whether the app can capture the screen: `ok`, or why not in French (Wayland, macOS permission…). */
export const Capture = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true) }),
  // Issue 37 §6: the app's words, one line, with no character that reorders or hides what the technician reads.
  z.object({ ok: z.literal(false), reason: programWords(500) }),
]);
export type Capture = z.infer<typeof Capture>;
