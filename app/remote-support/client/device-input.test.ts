/** Issue 15: what the technician's keys and pointer send to the customer's desktop app. */
import { describe, expect, it } from "vitest";
import type { InputEvent } from "#app/remote-support/device-protocol.ts";
import { DeviceInputSender, keyInput } from "./device-input.ts";

const key = (
  key: string,
  code: string,
  modifiers: Partial<Record<"ctrlKey" | "altKey" | "metaKey", boolean>> = {},
) => ({
  key,
  code,
  ctrlKey: false,
  altKey: false,
  metaKey: false,
  ...modifiers,
});

describe("keyInput", () => {
  it("sends typed characters as text, whatever the layout", () => {
    expect(keyInput(key("é", "Digit2"))).toEqual({ t: "text", text: "é" });
    expect(keyInput(key("A", "KeyQ"))).toEqual({ t: "text", text: "A" });
    expect(keyInput(key(" ", "Space"))).toEqual({ t: "text", text: " " });
  });

  it("sends shortcuts and named keys by their physical code", () => {
    expect(keyInput(key("c", "KeyC", { ctrlKey: true }))).toEqual({ t: "key", code: "KeyC", down: true });
    expect(keyInput(key("Enter", "Enter"))).toEqual({ t: "key", code: "Enter", down: true });
    expect(keyInput(key("Control", "ControlLeft", { ctrlKey: true }))).toEqual({
      t: "key",
      code: "ControlLeft",
      down: true,
    });
  });

  it("types what AltGr makes, and waits for the letter after a dead key", () => {
    const altGr = {
      ...key("@", "Digit0", { ctrlKey: true, altKey: true }),
      getModifierState: (k: string) => k === "AltGraph",
    };
    expect(keyInput(altGr)).toEqual({ t: "text", text: "@" });
    expect(keyInput(key("Dead", "BracketLeft"))).toBeNull();
  });
});

describe("DeviceInputSender", () => {
  function sender(refusal?: string) {
    const batches: InputEvent[][] = [];
    const frames: (() => void)[] = [];
    const refused: string[] = [];
    const input = new DeviceInputSender(
      "ACDE34",
      (batch, ack) => {
        batches.push(batch.events);
        ack(refusal ? { ok: false, message: refusal } : { ok: true });
      },
      (message) => refused.push(message),
      (callback) => frames.push(callback),
    );
    return { input, batches, frames, refused };
  }

  it("sends the last move of a frame, and a pending move before a click", () => {
    const { input, batches, frames } = sender();
    input.move(0.1, 0.1);
    input.move(0.2, 0.3);
    expect(batches).toEqual([]);
    frames.shift()!();
    expect(batches).toEqual([[{ t: "move", x: 0.2, y: 0.3 }]]);
    input.move(0.5, 0.5);
    input.button(0, true);
    expect(batches[1]).toEqual([
      { t: "move", x: 0.5, y: 0.5 },
      { t: "button", button: 0, down: true },
    ]);
  });

  it("releases exactly the keys and buttons still down", () => {
    const { input, batches } = sender();
    input.button(2, true);
    input.keyDown(key("Control", "ControlLeft", { ctrlKey: true }));
    input.keyDown(key("Control", "ControlLeft", { ctrlKey: true })); // auto-repeat: not pressed twice
    input.keyDown(key("a", "KeyA"));
    input.keyUp("KeyA"); // typed text has no release
    input.releaseAll();
    expect(batches).toEqual([
      [{ t: "button", button: 2, down: true }],
      [{ t: "key", code: "ControlLeft", down: true }],
      [{ t: "text", text: "a" }],
      [
        { t: "button", button: 2, down: false },
        { t: "key", code: "ControlLeft", down: false },
      ],
    ]);
    input.releaseAll();
    expect(batches).toHaveLength(4);
  });

  it("passes the server's refusal on", () => {
    const { input, refused } = sender("Le contrôle n'est pas autorisé.");
    input.wheel(0, 3);
    expect(refused).toEqual(["Le contrôle n'est pas autorisé."]);
  });
});
