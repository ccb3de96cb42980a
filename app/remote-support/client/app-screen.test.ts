// @vitest-environment happy-dom
/**
 * The desktop app's picture in the technician's browser (issue 26), against
 * a fake socket, a stubbed `createImageBitmap` (each decode finishes when
 * the test says) and a recording 2D context (happy-dom draws nothing):
 * frames are drawn in the order received and acknowledged once drawn; a
 * change before any full picture, an invalid frame or a JPEG that fails to
 * decode asks for a full picture (at most once a second); `select` and
 * `refresh` reach the server; `destroy` stops everything.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { packRects, type ScreenFrame } from "#app/remote-support/screen-protocol.ts";
import { AppScreen, AUTO_REFRESH_INTERVAL_MS, FIRST_PICTURE_WAIT_MS } from "./app-screen";
import type { RealtimeSocket } from "./session-events";

const CODE = "ACD34F";

/** A socket that records what is emitted; `push` plays a server event to the listeners. */
/** What each fake socket emitted, so that `start` can take out the request every view makes on opening. */
const emittedBy = new WeakMap<object, { event: string; body: unknown }[]>();

function fakeSocket() {
  const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  const emitted: { event: string; body: unknown }[] = [];
  const socket = {
    on(event: string, listener: (...args: unknown[]) => void) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(listener);
      return socket;
    },
    off(event: string, listener: (...args: unknown[]) => void) {
      listeners.get(event)?.delete(listener);
      return socket;
    },
    emit(event: string, body: unknown) {
      emitted.push({ event, body });
      return socket;
    },
  };
  const push = (event: string, ...args: unknown[]) => {
    for (const listener of listeners.get(event) ?? []) listener(...args);
  };
  const sent = (event: string) => emitted.filter((entry) => entry.event === event).map((entry) => entry.body);
  emittedBy.set(socket, emitted);
  const listening = (event: string) => listeners.get(event)?.size ?? 0;
  return { socket: socket as unknown as RealtimeSocket, push, sent, listening };
}

type FakeBitmap = { id: number; close: ReturnType<typeof vi.fn> };

/** `createImageBitmap` whose decodes finish (`decodes[i].resolve()`, `.fail()`) when the test says, in call order. */
function stubDecoder() {
  const decodes: { blob: Blob; bitmap: FakeBitmap; resolve: () => void; fail: () => void }[] = [];
  vi.stubGlobal(
    "createImageBitmap",
    vi.fn((blob: Blob) => {
      const bitmap: FakeBitmap = { id: decodes.length, close: vi.fn() };
      return new Promise((resolve, reject) => {
        decodes.push({ blob, bitmap, resolve: () => resolve(bitmap), fail: () => reject(new Error("JPEG illisible")) });
      });
    }),
  );
  return decodes;
}

/** A real (happy-dom) canvas whose 2D context records each `drawImage(bitmap, x, y, w, h)` as "bitmap@x,y wxh". */
function recordingCanvas() {
  const canvas = document.createElement("canvas");
  const drawn: string[] = [];
  const context = {
    drawImage: (bitmap: FakeBitmap, x: number, y: number, w: number, h: number) =>
      drawn.push(`${bitmap.id}@${x},${y} ${w}x${h}`),
  };
  vi.spyOn(canvas, "getContext").mockReturnValue(context as unknown as CanvasRenderingContext2D);
  return { canvas, drawn };
}

const jpeg = (byte: number) => new Uint8Array([0xff, 0xd8, byte, 0xff, 0xd9]).buffer;

function frame(seq: number, overrides: Partial<ScreenFrame> = {}): ScreenFrame & { code: string } {
  return {
    code: CODE,
    screen: "ecran-1",
    seq,
    width: 1920,
    height: 1080,
    full: false,
    ...packRects([{ x: 64, y: 128, w: 64, h: 64, jpeg: jpeg(seq) }]),
    ...overrides,
  };
}

const full = (seq: number, overrides: Partial<ScreenFrame> = {}) =>
  frame(seq, {
    full: true,
    ...packRects([
      { x: 0, y: 0, w: 1920, h: 540, jpeg: jpeg(seq) },
      { x: 0, y: 540, w: 1920, h: 540, jpeg: jpeg(seq + 100) },
    ]),
    ...overrides,
  });

/** Lets the pending promise callbacks run (decodes, then the ordered draws). */
async function settle() {
  for (let i = 0; i < 20; i += 1) await Promise.resolve();
}

let clock = 1_000_000;
const now = () => clock;
let screens: AppScreen[] = [];

/** A view on `socket`; the full picture every view asks for on opening is checked, then forgotten. */
function start(socket: RealtimeSocket, canvas?: HTMLCanvasElement) {
  const screen = new AppScreen({ socket, code: CODE, canvas, now });
  screens.push(screen);
  const emitted = emittedBy.get(socket)!;
  expect(emitted).toEqual([{ event: "screen:refresh", body: { code: CODE } }]);
  emitted.length = 0;
  // That request is a second old: the automatic ones (at most one a second) are free again.
  clock += 1_000;
  return screen;
}

beforeEach(() => {
  clock = 1_000_000;
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});
afterEach(() => {
  for (const screen of screens) screen.destroy();
  screens = [];
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("AppScreen", () => {
  it("sizes the canvas to a full picture, draws each rectangle where it goes, then acknowledges", async () => {
    const decodes = stubDecoder();
    const { socket, push, sent } = fakeSocket();
    const { canvas, drawn } = recordingCanvas();
    const screen = start(socket, canvas);
    const changes = vi.fn();
    screen.subscribe(changes);
    expect(screen.getSnapshot().hasPicture).toBe(false);

    push("screen:frame", full(1));
    // Both JPEGs go to the decoder at once, as JPEG blobs of the bytes received.
    expect(decodes).toHaveLength(2);
    expect(decodes[0]!.blob.type).toBe("image/jpeg");
    expect([...new Uint8Array(await decodes[0]!.blob.arrayBuffer())]).toEqual([0xff, 0xd8, 1, 0xff, 0xd9]);
    await settle();
    expect(sent("screen:ack")).toEqual([]); // not drawn yet

    decodes[0]!.resolve();
    decodes[1]!.resolve();
    await settle();
    expect([canvas.width, canvas.height]).toEqual([1920, 1080]);
    expect(drawn).toEqual(["0@0,0 1920x540", "1@0,540 1920x540"]);
    expect(decodes.every((decode) => decode.bitmap.close.mock.calls.length === 1)).toBe(true);
    expect(sent("screen:ack")).toEqual([{ code: CODE, seq: 1 }]);
    expect(screen.getSnapshot()).toEqual({ hasPicture: true, width: 1920, height: 1080, screen: "ecran-1" });
    expect(changes).toHaveBeenCalledTimes(1);
    expect(screen.stats()).toMatchObject({ fps: 1, lastFrameAt: clock, frames: 1 });
  });

  it("draws in the order received even when a later frame decodes first, each acknowledged after it is drawn", async () => {
    const decodes = stubDecoder();
    const { socket, push, sent } = fakeSocket();
    const { canvas, drawn } = recordingCanvas();
    start(socket, canvas);

    push("screen:frame", full(1, { ...packRects([{ x: 0, y: 0, w: 1920, h: 1080, jpeg: jpeg(1) }]) }));
    push("screen:frame", frame(2));
    push("screen:frame", frame(3, { ...packRects([{ x: 128, y: 0, w: 64, h: 64, jpeg: jpeg(3) }]) }));
    expect(decodes).toHaveLength(3); // decoded in parallel

    decodes[2]!.resolve();
    decodes[1]!.resolve();
    await settle();
    expect(drawn).toEqual([]);
    expect(sent("screen:ack")).toEqual([]);

    decodes[0]!.resolve();
    await settle();
    expect(drawn).toEqual(["0@0,0 1920x1080", "1@64,128 64x64", "2@128,0 64x64"]);
    expect(sent("screen:ack")).toEqual([
      { code: CODE, seq: 1 },
      { code: CODE, seq: 2 },
      { code: CODE, seq: 3 },
    ]);
  });

  it("asks for a full picture when a change comes before any, at most once a second, and draws from the full one", async () => {
    const decodes = stubDecoder();
    const { socket, push, sent } = fakeSocket();
    const { canvas, drawn } = recordingCanvas();
    const screen = start(socket, canvas);

    push("screen:frame", frame(7));
    push("screen:frame", frame(8));
    await settle();
    expect(sent("screen:refresh")).toEqual([{ code: CODE }]);
    expect(decodes).toHaveLength(0);
    expect(drawn).toEqual([]);
    // Acknowledged unseen, so the app is not held back before it sends the full picture.
    expect(sent("screen:ack")).toEqual([
      { code: CODE, seq: 7 },
      { code: CODE, seq: 8 },
    ]);
    expect(screen.getSnapshot().hasPicture).toBe(false);

    clock += AUTO_REFRESH_INTERVAL_MS;
    push("screen:frame", frame(9));
    expect(sent("screen:refresh")).toHaveLength(2);

    push("screen:frame", full(10, { ...packRects([{ x: 0, y: 0, w: 1920, h: 1080, jpeg: jpeg(10) }]) }));
    push("screen:frame", frame(11));
    for (const decode of decodes) decode.resolve();
    await settle();
    expect(drawn).toEqual(["0@0,0 1920x1080", "1@64,128 64x64"]);
    expect(screen.getSnapshot().hasPicture).toBe(true);
    expect(sent("screen:refresh")).toHaveLength(2);
  });

  it("ignores invalid frames and other sessions' frames: nothing decoded, drawn or acknowledged", async () => {
    const decodes = stubDecoder();
    const { socket, push, sent } = fakeSocket();
    const { canvas, drawn } = recordingCanvas();
    const screen = start(socket, canvas);

    push("screen:frame", { ...full(1), code: "AUTRE1" });
    expect(sent("screen:refresh")).toEqual([]); // not this session's business
    push("screen:frame", { ...full(2), ...packRects([{ x: -5, y: 0, w: 10, h: 10, jpeg: jpeg(2) }]) });
    push("screen:frame", { ...full(3), data: "pas une image" });
    push("screen:frame", { ...full(4), width: 0 });
    push("screen:frame", { code: CODE, seq: 5 });
    push("screen:frame", null);
    push("screen:frame", "image");
    await settle();

    expect(decodes).toHaveLength(0);
    expect(drawn).toEqual([]);
    expect(sent("screen:ack")).toEqual([]);
    expect(screen.getSnapshot().hasPicture).toBe(false);
    // The picture may now miss a change: a full one is asked, once within the second.
    expect(sent("screen:refresh")).toEqual([{ code: CODE }]);
  });

  it("does not draw a change of another size than the picture, and asks for a full picture", async () => {
    const decodes = stubDecoder();
    const { socket, push, sent } = fakeSocket();
    const { canvas, drawn } = recordingCanvas();
    start(socket, canvas);
    push("screen:frame", full(1, { ...packRects([{ x: 0, y: 0, w: 1920, h: 1080, jpeg: jpeg(1) }]) }));
    push("screen:frame", frame(2, { width: 1280, height: 1024 }));
    for (const decode of decodes) decode.resolve();
    await settle();
    expect(decodes).toHaveLength(1);
    expect(drawn).toEqual(["0@0,0 1920x1080"]);
    expect(sent("screen:refresh")).toEqual([{ code: CODE }]);
    expect(sent("screen:ack")).toHaveLength(2);
  });

  it("switches monitor on `select`: the next full frame resizes the picture", async () => {
    const decodes = stubDecoder();
    const { socket, push, sent } = fakeSocket();
    const { canvas } = recordingCanvas();
    const screen = start(socket, canvas);
    push("screen:frame", full(1));

    screen.select("ecran-2");
    expect(sent("screen:select")).toEqual([{ code: CODE, screen: "ecran-2" }]);
    push("screen:frame", full(2, { screen: "ecran-2", width: 1280, height: 1024 }));
    for (const decode of decodes) decode.resolve();
    await settle();
    expect(screen.getSnapshot()).toEqual({ hasPicture: true, width: 1280, height: 1024, screen: "ecran-2" });
    expect([canvas.width, canvas.height]).toEqual([1280, 1024]);

    screen.refresh();
    screen.refresh(); // a person's request is never held back
    expect(sent("screen:refresh")).toEqual([{ code: CODE }, { code: CODE }]);
  });

  it("draws what decoded of a frame with a broken JPEG, acknowledges it and asks for a full picture once a second", async () => {
    const decodes = stubDecoder();
    const { socket, push, sent } = fakeSocket();
    const { canvas, drawn } = recordingCanvas();
    const screen = start(socket, canvas);

    push("screen:frame", full(1));
    decodes[0]!.resolve();
    decodes[1]!.fail();
    await settle();
    expect(drawn).toEqual(["0@0,0 1920x540"]);
    expect(sent("screen:ack")).toEqual([{ code: CODE, seq: 1 }]);
    expect(sent("screen:refresh")).toEqual([{ code: CODE }]);
    expect(screen.getSnapshot().hasPicture).toBe(true);

    push("screen:frame", frame(2));
    decodes[2]!.fail();
    await settle();
    expect(sent("screen:refresh")).toHaveLength(1);
    expect(sent("screen:ack")).toHaveLength(2);

    clock += AUTO_REFRESH_INTERVAL_MS;
    push("screen:frame", frame(3));
    decodes[3]!.fail();
    await settle();
    expect(sent("screen:refresh")).toHaveLength(2);
  });

  it("asks for a picture when none came after a while, and again when the socket reconnects", async () => {
    const decodes = stubDecoder();
    const { socket, push, sent } = fakeSocket();
    const { canvas } = recordingCanvas();
    start(socket, canvas);

    clock += FIRST_PICTURE_WAIT_MS - 1;
    vi.advanceTimersByTime(FIRST_PICTURE_WAIT_MS - 1);
    expect(sent("screen:refresh")).toEqual([]);
    clock += 1;
    vi.advanceTimersByTime(1);
    expect(sent("screen:refresh")).toEqual([{ code: CODE }]);

    push("screen:frame", full(1));
    for (const decode of decodes) decode.resolve();
    await settle();
    clock += 60_000;
    vi.advanceTimersByTime(60_000);
    expect(sent("screen:refresh")).toHaveLength(1); // a picture is there: no more asking

    push("connect");
    expect(sent("screen:refresh")).toHaveLength(2);
  });

  it("counts the frames drawn during the last second", async () => {
    const decodes = stubDecoder();
    const { socket, push } = fakeSocket();
    const { canvas } = recordingCanvas();
    const screen = start(socket, canvas);
    expect(screen.stats()).toEqual({ fps: 0, lastFrameAt: null, lastFrameMs: null, frames: 0 });

    push("screen:frame", full(1));
    clock += 40; // decoding took 40 ms
    for (const decode of decodes) decode.resolve();
    await settle();
    for (let seq = 2; seq <= 5; seq += 1) {
      clock += 100;
      push("screen:frame", frame(seq));
      decodes.at(-1)!.resolve();
      await settle();
    }
    expect(screen.stats()).toEqual({ fps: 5, lastFrameAt: clock, lastFrameMs: 0, frames: 5 });
    clock += 700; // the first two frames were drawn more than a second ago
    expect(screen.stats().fps).toBe(3);
    clock += 1_000;
    expect(screen.stats()).toMatchObject({ fps: 0, frames: 5 });
  });

  it("after `destroy`, stops listening, blanks the canvas and drops the frames under way", async () => {
    const decodes = stubDecoder();
    const { socket, push, sent, listening } = fakeSocket();
    const { canvas, drawn } = recordingCanvas();
    const screen = start(socket, canvas);
    push("screen:frame", full(1, { ...packRects([{ x: 0, y: 0, w: 1920, h: 1080, jpeg: jpeg(1) }]) }));
    decodes[0]!.resolve();
    await settle();
    push("screen:frame", frame(2));

    screen.destroy();
    expect(listening("screen:frame")).toBe(0);
    expect(listening("connect")).toBe(0);
    expect([canvas.width, canvas.height]).toEqual([0, 0]);
    decodes[1]!.resolve();
    await settle();
    expect(drawn).toEqual(["0@0,0 1920x1080"]);
    expect(decodes[1]!.bitmap.close).toHaveBeenCalledOnce();
    expect(sent("screen:ack")).toEqual([{ code: CODE, seq: 1 }]);
    screen.select("ecran-2");
    screen.refresh();
    vi.advanceTimersByTime(60_000);
    expect(sent("screen:select")).toEqual([]);
    expect(sent("screen:refresh")).toEqual([]);
  });
});
