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
import { describe, expect, it, vi } from "vitest";
import { packRects } from "#app/remote-support/screen-protocol.ts";
import { AUTO_REFRESH_INTERVAL_MS, FIRST_PICTURE_WAIT_MS } from "./app-screen";
import {
  CODE,
  decodeAll,
  fakeSocket,
  frame,
  full,
  jpeg,
  recordingCanvas,
  settle,
  setUpAppScreens,
  start,
  stubDecoder,
  time,
} from "./app-screen-testing";

setUpAppScreens();

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
    expect(screen.stats()).toMatchObject({ fps: 1, lastFrameAt: time.now, frames: 1 });
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

    time.now += AUTO_REFRESH_INTERVAL_MS;
    push("screen:frame", frame(9));
    expect(sent("screen:refresh")).toHaveLength(2);

    push("screen:frame", full(10, { ...packRects([{ x: 0, y: 0, w: 1920, h: 1080, jpeg: jpeg(10) }]) }));
    push("screen:frame", frame(11));
    await decodeAll(decodes);
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
    await decodeAll(decodes);
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

    time.now += AUTO_REFRESH_INTERVAL_MS;
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

    time.now += FIRST_PICTURE_WAIT_MS - 1;
    vi.advanceTimersByTime(FIRST_PICTURE_WAIT_MS - 1);
    expect(sent("screen:refresh")).toEqual([]);
    time.now += 1;
    vi.advanceTimersByTime(1);
    expect(sent("screen:refresh")).toEqual([{ code: CODE }]);

    push("screen:frame", full(1));
    for (const decode of decodes) decode.resolve();
    await settle();
    time.now += 60_000;
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
    time.now += 40; // decoding took 40 ms
    for (const decode of decodes) decode.resolve();
    await settle();
    for (let seq = 2; seq <= 5; seq += 1) {
      time.now += 100;
      push("screen:frame", frame(seq));
      decodes.at(-1)!.resolve();
      await settle();
    }
    expect(screen.stats()).toEqual({ fps: 5, lastFrameAt: time.now, lastFrameMs: 0, frames: 5 });
    time.now += 700; // the first two frames were drawn more than a second ago
    expect(screen.stats().fps).toBe(3);
    time.now += 1_000;
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
