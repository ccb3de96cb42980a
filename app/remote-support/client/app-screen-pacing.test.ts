// @vitest-environment happy-dom
/**
 * Issue 37 §1: the technician's viewer decodes one frame of the app's picture at a time, in the order received,
 * and a full picture replaces the frames still waiting (acknowledged unseen, never decoded), so a burst from a
 * slow tab or a hostile app never piles up decodes.
 */
import { describe, expect, it } from "vitest";
import { packRects } from "#app/remote-support/screen-protocol.ts";
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
} from "./app-screen-testing";

setUpAppScreens();

describe("AppScreen's pacing", () => {
  it("issue 37: decodes one frame at a time, in the order received, each acknowledged after it is drawn", async () => {
    const decodes = stubDecoder();
    const { socket, push, sent } = fakeSocket();
    const { canvas, drawn } = recordingCanvas();
    start(socket, canvas);

    push("screen:frame", full(1, { ...packRects([{ x: 0, y: 0, w: 1920, h: 1080, jpeg: jpeg(1) }]) }));
    push("screen:frame", frame(2));
    push("screen:frame", frame(3, { ...packRects([{ x: 128, y: 0, w: 64, h: 64, jpeg: jpeg(3) }]) }));
    expect(decodes).toHaveLength(1); // the others wait: never two frames in the decoder
    await settle();
    expect(decodes).toHaveLength(1);
    expect(sent("screen:ack")).toEqual([]);

    decodes[0]!.resolve();
    await settle();
    expect(drawn).toEqual(["0@0,0 1920x1080"]);
    expect(sent("screen:ack")).toEqual([{ code: CODE, seq: 1 }]);
    expect(decodes).toHaveLength(2);
    await decodeAll(decodes);
    expect(drawn).toEqual(["0@0,0 1920x1080", "1@64,128 64x64", "2@128,0 64x64"]);
    expect(sent("screen:ack")).toEqual([
      { code: CODE, seq: 1 },
      { code: CODE, seq: 2 },
      { code: CODE, seq: 3 },
    ]);
  });

  it("issue 37: a full frame replaces the frames still waiting: acknowledged unseen, never decoded", async () => {
    const decodes = stubDecoder();
    const { socket, push, sent } = fakeSocket();
    const { canvas, drawn } = recordingCanvas();
    start(socket, canvas);

    const whole = (seq: number) => full(seq, { ...packRects([{ x: 0, y: 0, w: 1920, h: 1080, jpeg: jpeg(seq) }]) });
    push("screen:frame", whole(1));
    // A burst while the first decodes (a slow tab, a hostile app): 30 pictures, then changes of the last one.
    for (let seq = 2; seq <= 31; seq += 1) push("screen:frame", whole(seq));
    push("screen:frame", frame(32));
    expect(decodes).toHaveLength(1);
    // Replaced frames are acknowledged at once, so the app keeps its pace.
    expect(sent("screen:ack").map((ack) => (ack as { seq: number }).seq)).toEqual(
      Array.from({ length: 29 }, (_, i) => i + 2),
    );

    await decodeAll(decodes);
    expect(decodes).toHaveLength(3); // 1, 31 and 32: none of the replaced ones
    expect(drawn).toEqual(["0@0,0 1920x1080", "1@0,0 1920x1080", "2@64,128 64x64"]);
    expect(sent("screen:ack")).toHaveLength(32);
  });
});
