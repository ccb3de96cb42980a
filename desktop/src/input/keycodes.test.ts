import { describe, expect, it } from "vitest";
import { isModifierCode, keyNumbers, knownKeyCodes } from "./keycodes.ts";

describe("physical key table", () => {
  it("gives each system's number for well-known keys", () => {
    // KeyA: evdev KEY_A 30 (X keycode 38), set-1 scan code 0x1E, kVK_ANSI_A 0.
    expect(keyNumbers("KeyA")).toEqual({ evdev: 30, win: 0x1e, mac: 0x00 });
    expect(keyNumbers("Enter")).toEqual({ evdev: 28, win: 0x1c, mac: 0x24 });
    expect(keyNumbers("ArrowLeft")).toEqual({ evdev: 105, win: 0xe04b, mac: 0x7b });
    expect(keyNumbers("MetaLeft")).toEqual({ evdev: 125, win: 0xe05b, mac: 0x37 });
    expect(keyNumbers("IntlBackslash")).toEqual({ evdev: 86, win: 0x56, mac: 0x0a });
    expect(keyNumbers("Delete")).toEqual({ evdev: 111, win: 0xe053, mac: 0x75 });
    expect(keyNumbers("Nope")).toBeUndefined();
  });

  it("covers every letter, digit, F1–F12 and modifier", () => {
    const codes = new Set(knownKeyCodes());
    for (const letter of "ABCDEFGHIJKLMNOPQRSTUVWXYZ") expect(codes).toContain(`Key${letter}`);
    for (let digit = 0; digit <= 9; digit++) expect(codes).toContain(`Digit${digit}`);
    for (let f = 1; f <= 12; f++) expect(codes).toContain(`F${f}`);
    for (const side of ["Left", "Right"]) {
      for (const modifier of ["Shift", "Control", "Alt", "Meta"]) {
        expect(codes).toContain(`${modifier}${side}`);
        expect(isModifierCode(`${modifier}${side}`)).toBe(true);
      }
    }
    expect(isModifierCode("KeyA")).toBe(false);
  });

  it("never gives two keys the same number on one system", () => {
    for (const column of ["evdev", "win", "mac"] as const) {
      const seen = new Map<number, string>();
      for (const code of knownKeyCodes()) {
        const value = keyNumbers(code)![column];
        if (value < 0) continue;
        expect(seen.get(value), `${column} ${value.toString(16)}: ${code}`).toBeUndefined();
        seen.set(value, code);
      }
    }
  });
});
