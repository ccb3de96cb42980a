/**
 * Remote input (issue 6): pointer fractions exclude letterboxing, held keys
 * and buttons are all released, and the control messages are validated.
 */
import { describe, expect, it } from "vitest";
import { parseControlMessage } from "#app/remote-support/control-channel.ts";
import { HeldInputs, contentBox, describeControl, pointerFraction } from "./remote-input";

describe("contentBox and pointerFraction", () => {
  it("places a 16:9 picture in a 4:3 element with bars above and below", () => {
    const box = contentBox(800, 600, 1280, 720);
    expect(box).toEqual({ left: 0, top: 75, width: 800, height: 450 });
    expect(pointerFraction(400, 300, box)).toEqual({ x: 0.5, y: 0.5 });
    expect(pointerFraction(200, 75 + 450 * 0.25, box)).toEqual({ x: 0.25, y: 0.25 });
    expect(pointerFraction(400, 50, box)).toBeNull(); // on the upper bar
    expect(pointerFraction(400, 560, box)).toBeNull(); // on the lower bar
  });

  it("places a 4:3 picture in a wide element with bars left and right", () => {
    const box = contentBox(1000, 300, 400, 300);
    expect(box).toEqual({ left: 300, top: 0, width: 400, height: 300 });
    expect(pointerFraction(300, 0, box)).toEqual({ x: 0, y: 0 });
    expect(pointerFraction(700, 300, box)).toEqual({ x: 1, y: 1 });
    expect(pointerFraction(299, 150, box)).toBeNull();
  });

  it("has no box before the video knows its size", () => {
    expect(contentBox(800, 600, 0, 0)).toBeNull();
    expect(pointerFraction(10, 10, null)).toBeNull();
  });
});

describe("HeldInputs", () => {
  it("releases every key and button still held, once", () => {
    const held = new HeldInputs();
    held.note({ type: "keydown", key: "Shift", code: "ShiftLeft" });
    held.note({ type: "keydown", key: "a", code: "KeyA" });
    held.note({ type: "keydown", key: "a", code: "KeyA" }); // auto-repeat
    held.note({ type: "keyup", key: "a", code: "KeyA" });
    held.note({ type: "mousedown", button: 0 });
    held.note({ type: "mousedown", button: 2 });
    held.note({ type: "mouseup", button: 2 });
    expect(held.isKeyHeld("ShiftLeft")).toBe(true);
    expect(held.isKeyHeld("KeyA")).toBe(false);
    expect(held.releaseAll()).toEqual([
      { type: "keyup", key: "Shift", code: "ShiftLeft" },
      { type: "mouseup", button: 0 },
    ]);
    expect(held.releaseAll()).toEqual([]);
  });
});

describe("parseControlMessage", () => {
  it("accepts the spec's messages and refuses anything else", () => {
    expect(parseControlMessage('{"type":"mousemove","x":0.5,"y":1}')).toEqual({ type: "mousemove", x: 0.5, y: 1 });
    expect(parseControlMessage('{"type":"keydown","key":"é","code":"Digit2"}')).toEqual({
      type: "keydown",
      key: "é",
      code: "Digit2",
    });
    expect(parseControlMessage('{"type":"ping","t":12.5}')).toEqual({ type: "ping", t: 12.5 });
    expect(parseControlMessage('{"type":"mousemove","x":1.5,"y":0}')).toBeNull();
    expect(parseControlMessage('{"type":"mousedown","button":9}')).toBeNull();
    expect(parseControlMessage('{"type":"exec","cmd":"rm"}')).toBeNull();
    expect(parseControlMessage("pas du JSON")).toBeNull();
    expect(parseControlMessage(new ArrayBuffer(4))).toBeNull();
  });
});

describe("describeControl", () => {
  it("says in French what the technician did", () => {
    expect(describeControl({ type: "mousedown", button: 0 })).toBe("Bouton gauche enfoncé");
    expect(describeControl({ type: "mouseup", button: 2 })).toBe("Bouton droit relâché");
    expect(describeControl({ type: "keydown", key: " ", code: "Space" })).toBe("Touche « Espace » enfoncée");
    expect(describeControl({ type: "keyup", key: "Enter", code: "Enter" })).toBe("Touche « Enter » relâchée");
    expect(describeControl({ type: "mousemove", x: 0, y: 0 })).toBeNull();
  });
});
