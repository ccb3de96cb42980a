import { describe, expect, it } from "vitest";
import type { Screen } from "#app/remote-support/device-protocol.ts";
import { recordingInjector } from "../../test/fakes.ts";
import { fractionToPixel, pickScreen, TrackedInjector } from "./injector.ts";

// Two monitors side by side, the secondary one left of the primary one and lower (negative x, positive y).
const SCREENS: Screen[] = [
  { id: "DP-1", x: 0, y: 0, width: 2560, height: 1440, scale: 1, primary: true },
  { id: "HDMI-1", x: -1920, y: 360, width: 1920, height: 1080, scale: 1, primary: false },
];

describe("screen mapping", () => {
  it("maps fractions of a monitor to its pixels, 1 to the last pixel", () => {
    expect(fractionToPixel(0, 2560, 0)).toBe(0);
    expect(fractionToPixel(0, 2560, 0.5)).toBe(1280);
    expect(fractionToPixel(0, 2560, 1)).toBe(2559);
    // What a browser sends for pixel p of a picture as wide as the screen: p / width, floating point included.
    for (const p of [0, 1, 199, 200, 639, 1279, 2559]) expect(fractionToPixel(0, 2560, p / 2560)).toBe(p);
    expect(fractionToPixel(0, 640, 200 / 640)).toBe(200);
  });

  it("offsets by the monitor's origin, negative ones included, and clamps bad fractions", () => {
    expect(fractionToPixel(-1920, 1920, 0)).toBe(-1920);
    expect(fractionToPixel(-1920, 1920, 1)).toBe(-1);
    expect(fractionToPixel(360, 1080, 0.5)).toBe(900);
    expect(fractionToPixel(100, 50, -3)).toBe(100);
    expect(fractionToPixel(100, 50, 7)).toBe(149);
    expect(fractionToPixel(100, 50, Number.NaN)).toBe(100);
  });

  it("picks the named monitor, else the primary, else the first", () => {
    expect(pickScreen(SCREENS, "HDMI-1").id).toBe("HDMI-1");
    expect(pickScreen(SCREENS, "nope").id).toBe("DP-1");
    expect(pickScreen(SCREENS, null).id).toBe("DP-1");
    expect(pickScreen([{ ...SCREENS[1]!, primary: false }], null).id).toBe("HDMI-1");
    expect(() => pickScreen([], null)).toThrow();
  });

  it("moves to the pixel of the chosen monitor", () => {
    const { injector, calls } = recordingInjector({ screens: SCREENS });
    injector.move(pickScreen(injector.screens(), "HDMI-1"), 0.5, 0.5);
    injector.move(pickScreen(injector.screens(), null), 0.25, 1);
    expect(calls).toEqual([
      ["move", -960, 900],
      ["move", 640, 1439],
    ]);
  });
});

describe("held input", () => {
  it("releases exactly what is held: keys in reverse press order, then buttons", () => {
    const { injector, calls } = recordingInjector();
    injector.key("ControlLeft", true);
    injector.key("ShiftLeft", true);
    injector.key("KeyT", true);
    injector.key("KeyT", false);
    injector.button(0, true);
    injector.button(2, true);
    calls.length = 0;
    injector.releaseAll();
    expect(calls).toEqual([
      ["key", "ShiftLeft", false],
      ["key", "ControlLeft", false],
      ["button", 2, false],
      ["button", 0, false],
    ]);
    expect(injector.held.isEmpty()).toBe(true);
    calls.length = 0;
    injector.releaseAll();
    expect(calls).toEqual([]);
  });

  it("counts a key repeated by auto-repeat once, and drops releases of keys not held", () => {
    const { injector, calls } = recordingInjector();
    injector.key("KeyA", true);
    injector.key("KeyA", true);
    injector.key("KeyB", false);
    injector.button(1, false);
    expect(calls).toEqual([
      ["key", "KeyA", true],
      ["key", "KeyA", true],
    ]);
    expect(injector.held.keys()).toEqual(["KeyA"]);
  });

  it("warns about a key this system lacks and does not count it as held", () => {
    const { injector, warnings } = recordingInjector({ unknownCodes: ["F24"] });
    injector.key("F24", true);
    expect(injector.held.isEmpty()).toBe(true);
    expect(warnings).toEqual(["Touche inconnue sur ce système, ignorée : F24."]);
  });

  it("drops every input while injection is impossible, and says why", async () => {
    const { injector, calls } = recordingInjector({ status: { ok: false, reason: "Wayland" } });
    injector.move(injector.screens()[0]!, 0.5, 0.5);
    injector.button(0, true);
    injector.key("KeyA", true);
    await injector.text("x");
    expect(calls).toEqual([]);
    expect(injector.sas()).toEqual({ ok: false, reason: "Wayland" });
  });

  it("a backend that fails to start gives an injector saying why, not an error that ends the app", () => {
    const injector = new TrackedInjector(() => {
      throw new Error("XGetKeyboardMapping a échoué");
    });
    expect(injector.status()).toEqual({
      ok: false,
      reason: "La prise de contrôle n'a pas pu démarrer sur cet ordinateur (XGetKeyboardMapping a échoué).",
    });
    expect(injector.screens()).toHaveLength(1);
    injector.key("KeyA", true);
    expect(injector.held.isEmpty()).toBe(true);
  });

  it("close releases everything, then closes the backend once", () => {
    const { injector, calls } = recordingInjector();
    injector.key("AltLeft", true);
    injector.close();
    injector.close();
    expect(calls).toEqual([["key", "AltLeft", true], ["key", "AltLeft", false], ["close"]]);
    injector.key("KeyA", true);
    expect(calls).toHaveLength(3);
  });
});
