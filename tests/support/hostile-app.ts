/**
 * Issue 37 §1, for the JPEG bomb's e2e spec and bench: a hostile desktop app driven from Node. It starts its own
 * session as the real app run with no argument does (`POST /api/device/sessions`, no account), connects to `/device`
 * with its token (saying it can capture the screen), allows the technician to see the screen (`device:consent { view: true }`) and, once the server
 * says `device:screen` active (a technician took the session), streams frames built to cost the technician's
 * browser as much as the protocol lets it (`BombKind`), with real JPEGs a browser decodes (`flat-jpeg.ts`).
 *
 * `stream()` sends, in turn, one frame of each kind asked at `perSecond` (default: what the session's byte budget
 * relays of 113 KB frames, the 27 a second), and, when `largest` or `huge` are among them, the next one at
 * once (in turn) whenever the server passes an acknowledgement (`device:ack`): as fast as acknowledgements let it, whatever
 * is refused.
 */
import type { DeviceSessionResponse } from "#app/remote-support/device-protocol.ts";
import { framePixels, packRects, SCREEN_LIMITS, type ScreenFrame } from "#app/remote-support/screen-protocol.ts";
import { connectDevice, PAIR_FIELDS, type DeviceClient } from "#server/remote-support/device-testing.ts";
import { flatJpeg } from "./flat-jpeg.ts";

/** The bomb: a side of 7 600 px, 113 KB of JPEG, 231 MB once decoded. */
export const BOMB_SIDE = 7_600;
/** The largest picture whose one frame fits the pixel budget's burst: 8K, 7 680 × 4 320 (33 Mpx, 65 KB of JPEG). */
export const LARGEST = { width: 7_680, height: 4_320 } as const;
/** The ordinary picture the hostile app claims besides, px. */
export const SMALL = { width: 1_280, height: 720 } as const;

/** The largest picture the protocol accepts, px (`SCREEN_LIMITS.maxSide` on both sides: 268 Mpx, 1 GB of canvas). */
export const HUGE = { width: SCREEN_LIMITS.maxSide, height: SCREEN_LIMITS.maxSide } as const;

/**
 * - `mismatch`: a full 1 280 × 720 picture whose 64 × 64 rectangle carries the 7 600 × 7 600 JPEG (refused:
 *   `frame-jpeg`);
 * - `outside`: a full 1 280 × 720 picture with a 7 600 × 7 600 rectangle and its JPEG (refused: `frame-outside`);
 * - `largest`: a full 8K picture in one rectangle of its own size, the worst a frame may cost (relayed while the
 *   pairing's pixel budget and frames in flight allow);
 * - `huge`: a full picture of the largest size the protocol accepts (`HUGE`) with one 8 × 8 rectangle: 64 px for
 *   the pixel budget, a 16 384 × 16 384 canvas for the viewer (alternated with `largest`: a new canvas each time).
 */
export type BombKind = "mismatch" | "outside" | "largest" | "huge";
export const BOMB_KINDS: readonly BombKind[] = ["mismatch", "outside", "largest", "huge"];

type FrameBody = Omit<ScreenFrame, "seq">;

function frameOf(kind: BombKind): FrameBody {
  const bomb = flatJpeg(BOMB_SIDE, BOMB_SIDE, 60);
  switch (kind) {
    case "mismatch":
      return { screen: "0", ...SMALL, full: true, ...packRects([{ x: 0, y: 0, w: 64, h: 64, jpeg: bomb }]) };
    case "outside":
      return {
        screen: "0",
        ...SMALL,
        full: true,
        ...packRects([{ x: 0, y: 0, w: BOMB_SIDE, h: BOMB_SIDE, jpeg: bomb }]),
      };
    case "largest":
      return {
        screen: "0",
        ...LARGEST,
        full: true,
        ...packRects([
          { x: 0, y: 0, w: LARGEST.width, h: LARGEST.height, jpeg: flatJpeg(LARGEST.width, LARGEST.height, 200) },
        ]),
      };
    case "huge":
      return { screen: "0", ...HUGE, full: true, ...packRects([{ x: 0, y: 0, w: 8, h: 8, jpeg: flatJpeg(8, 8, 30) }]) };
  }
}

/** What one stream sent, per kind, and the acknowledgements the app was passed. */
export type StreamReport = { sent: Record<BombKind, number>; bytes: number; acks: number; ms: number };

export class HostileApp {
  /** The session code the technician takes. */
  readonly code: string;
  readonly socket: DeviceClient;
  /** Every frame sent: seq → its kind (to tell what reached the technician). */
  readonly kindOf = new Map<number, BombKind>();
  private readonly frames = new Map<BombKind, FrameBody>();
  private seq = 0;
  private active = false;
  private acks = 0;
  private onAck: (() => void) | null = null;

  private constructor(code: string, socket: DeviceClient) {
    this.code = code;
    this.socket = socket;
    for (const kind of BOMB_KINDS) this.frames.set(kind, frameOf(kind));
    socket.on("device:screen", (demand) => (this.active = demand.active));
    socket.on("device:ack", () => {
      this.acks += 1;
      this.onAck?.();
    });
  }

  /** A session started by the « app » of customer `name` on `serverUrl`, paired, connected, showing allowed. */
  static async start(serverUrl: string, name = "Marie"): Promise<HostileApp> {
    const response = await fetch(`${serverUrl}/api/device/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...PAIR_FIELDS, capture: { ok: true }, customerName: name }),
    });
    if (response.status !== 201) throw new Error(`POST /api/device/sessions: ${response.status}`);
    const { deviceToken, sessionCode } = (await response.json()) as DeviceSessionResponse;
    const app = new HostileApp(sessionCode, await connectDevice(serverUrl, deviceToken));
    app.socket.emit("device:consent", { view: true });
    return app;
  }

  /** Whether the server last said to stream (a technician took the session, showing allowed). */
  isActive(): boolean {
    return this.active;
  }

  /** Bytes of JPEG in one frame of `kind`. */
  jpegBytes(kind: BombKind): number {
    return this.frames.get(kind)!.data.byteLength;
  }

  /** Decoded pixels of one frame of `kind` (what the pixel budget counts), px. */
  pixels(kind: BombKind): number {
    return framePixels(this.frames.get(kind)!);
  }

  /** Streams `kinds` for `ms` (see the module comment); resolves when it stops. */
  async stream(
    kinds: readonly BombKind[],
    ms: number,
    perSecond = Math.floor(SCREEN_LIMITS.sessionBytesPerSecond / this.jpegBytes("mismatch")),
  ): Promise<StreamReport> {
    const report: StreamReport = { sent: { mismatch: 0, outside: 0, largest: 0, huge: 0 }, bytes: 0, acks: 0, ms };
    const acksBefore = this.acks;
    const send = (kind: BombKind) => {
      this.seq += 1;
      this.kindOf.set(this.seq, kind);
      const frame = this.frames.get(kind)!;
      this.socket.emit("device:frame", { ...frame, seq: this.seq });
      report.sent[kind] += 1;
      report.bytes += frame.data.byteLength;
    };
    let turn = 0;
    const timer = setInterval(() => send(kinds[turn++ % kinds.length]!), 1000 / perSecond);
    const onAck = kinds.filter((kind) => kind === "largest" || kind === "huge");
    let ackTurn = 0;
    if (onAck.length > 0) this.onAck = () => send(onAck[ackTurn++ % onAck.length]!);
    await new Promise((resolve) => setTimeout(resolve, ms));
    clearInterval(timer);
    this.onAck = null;
    report.acks = this.acks - acksBefore;
    return report;
  }

  close(): void {
    this.socket.close();
  }

  /** Ends the session as the real app does when the customer stops it (`device:leave`), then disconnects. */
  async leave(): Promise<void> {
    this.socket.emit("device:leave");
    await new Promise((resolve) => setTimeout(resolve, 500));
    this.socket.close();
  }
}
