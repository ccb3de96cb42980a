import { describe, expect, it } from "vitest";
import type { CGPoint, MacApi } from "./macos-native.ts";
import { ACCESSIBILITY_REASON, CG, createMacInjector, FLAGS, SAS_REASON_MAC } from "./macos.ts";

type Event = { id: number; kind: string; args: unknown[]; flags?: number; unicode?: number[]; clickState?: number };

/** Fake Quartz: a Retina main display (1440×900 points, 2880 px wide) and a 1920×1080 one above it. */
function fakeQuartz(options: { trusted?: boolean } = {}) {
  let next = 1;
  const events = new Map<number, Event>();
  const posted: Event[] = [];
  const released: number[] = [];
  let trusted = options.trusted ?? true;
  const create = (kind: string, args: unknown[]) => {
    const event = { id: next++, kind, args };
    events.set(event.id, event);
    return event.id;
  };
  const api: MacApi = {
    AXIsProcessTrusted: () => trusted,
    CGEventCreate: () => create("probe", []),
    CGEventGetLocation: () => ({ x: 10, y: 20 }),
    CGEventCreateMouseEvent: (_s, type, position, button) => create("mouse", [type, { ...position }, button]),
    CGEventCreateKeyboardEvent: (_s, keycode, down) => create("key", [keycode, down]),
    CGEventKeyboardSetUnicodeString: (event, length, units) => {
      expect(length).toBe(units.length);
      events.get(event as number)!.unicode = [...units];
    },
    CGEventCreateScrollWheelEvent2: (_s, units, count, w1, w2, w3) => create("scroll", [units, count, w1, w2, w3]),
    CGEventSetIntegerValueField: (event, field, value) => {
      expect(field).toBe(1);
      events.get(event as number)!.clickState = value;
    },
    CGEventSetFlags: (event, flags) => void (events.get(event as number)!.flags = flags),
    CGEventPost: (tap, event) => {
      expect(tap).toBe(0);
      posted.push(events.get(event as number)!);
    },
    CFRelease: (event) => void released.push(event as number),
    CGGetActiveDisplayList: (max, displays, count) => {
      expect(max).toBeGreaterThanOrEqual(2);
      displays.splice(0, displays.length, 69_733_248, 724_042_646);
      count[0] = 2;
      return 0;
    },
    CGDisplayBounds: (display) =>
      display === 69_733_248
        ? { origin: { x: 0, y: 0 }, size: { width: 1440, height: 900 } }
        : { origin: { x: -240, y: -1080 }, size: { width: 1920, height: 1080 } },
    CGDisplayPixelsWide: (display) => (display === 69_733_248 ? 2880 : 1920),
    CGMainDisplayID: () => 69_733_248,
  };
  return { api, posted, released, events, setTrusted: (value: boolean) => (trusted = value) };
}

const point = (x: number, y: number): CGPoint => ({ x, y });

describe("macOS backend (Quartz through a fake CoreGraphics)", () => {
  it("lists displays in points with their scale and the main one as primary", async () => {
    const { api } = fakeQuartz();
    const injector = await createMacInjector({ load: async () => api });
    expect(injector.screens()).toEqual([
      { id: "69733248", x: 0, y: 0, width: 1440, height: 900, scale: 2, primary: true },
      { id: "724042646", x: -240, y: -1080, width: 1920, height: 1080, scale: 1, primary: false },
    ]);
  });

  it("without Accessibility: explains the steps in French, opens the settings, injects nothing", async () => {
    const opened: string[] = [];
    const { api, posted, setTrusted } = fakeQuartz({ trusted: false });
    const injector = await createMacInjector({ load: async () => api, openSettings: (url) => opened.push(url) });
    expect(injector.status()).toEqual({ ok: false, reason: ACCESSIBILITY_REASON });
    expect(ACCESSIBILITY_REASON).toContain("Réglages Système › Confidentialité et sécurité › Accessibilité");
    expect(ACCESSIBILITY_REASON).toMatch(/relancez/);
    expect(opened).toEqual(["x-apple.systempreferences:com.apple.preference.security?Privacy_Accessibility"]);
    injector.button(0, true);
    expect(posted).toEqual([]);
    // Granted while running: the next status read says so (the app's poll tells the page).
    setTrusted(true);
    expect(injector.status()).toEqual({ ok: true });
  });

  it("moves, drags while a button is held, counts double clicks, and frees every event", async () => {
    const { api, posted, released, events } = fakeQuartz();
    const injector = await createMacInjector({ load: async () => api });
    const [main, upper] = injector.screens();
    injector.move(upper!, 0.5, 0.5);
    injector.move(main!, 0.5, 0.5);
    injector.button(0, true);
    injector.move(main!, 0.6, 0.5);
    injector.button(0, false);
    // A double click where the drag ended: the first press is a new click (the last press was elsewhere).
    injector.button(0, true);
    injector.button(0, false);
    injector.button(0, true);
    injector.button(0, false);
    injector.button(2, true);
    injector.button(2, false);
    expect(posted.map((e) => [e.args[0], e.args[1], e.args[2], e.clickState])).toEqual([
      [CG.MouseMoved, point(720, -540), 0, undefined],
      [CG.MouseMoved, point(720, 450), 0, undefined],
      [CG.LeftMouseDown, point(720, 450), 0, 1],
      [CG.LeftMouseDragged, point(864, 450), 0, undefined],
      [CG.LeftMouseUp, point(864, 450), 0, 1],
      [CG.LeftMouseDown, point(864, 450), 0, 1],
      [CG.LeftMouseUp, point(864, 450), 0, 1],
      [CG.LeftMouseDown, point(864, 450), 0, 2],
      [CG.LeftMouseUp, point(864, 450), 0, 2],
      [CG.RightMouseDown, point(864, 450), 1, 1],
      [CG.RightMouseUp, point(864, 450), 1, 1],
    ]);
    expect(released.sort((a, b) => a - b)).toEqual([...events.keys()].sort((a, b) => a - b));
  });

  it("clicks where the pointer is when nothing moved it yet", async () => {
    const { api, posted } = fakeQuartz();
    const injector = await createMacInjector({ load: async () => api });
    injector.button(1, true);
    expect(posted[0]!.args).toEqual([CG.OtherMouseDown, point(10, 20), 2]);
  });

  it("sends keys by virtual key code with the held modifiers' flags, released in reverse order", async () => {
    const { api, posted } = fakeQuartz();
    const injector = await createMacInjector({ load: async () => api });
    injector.key("MetaLeft", true);
    injector.key("ShiftLeft", true);
    injector.key("KeyZ", true);
    injector.releaseAll();
    expect(posted.map((e) => [e.args[0], e.args[1], e.flags])).toEqual([
      [0x37, true, FLAGS.Command],
      [0x38, true, FLAGS.Command | FLAGS.Shift],
      [0x06, true, FLAGS.Command | FLAGS.Shift],
      [0x06, false, FLAGS.Command | FLAGS.Shift],
      [0x38, false, FLAGS.Command],
      [0x37, false, 0],
    ]);
  });

  it("types text as Unicode strings without modifiers, Enter as the Return key", async () => {
    const { api, posted } = fakeQuartz();
    const injector = await createMacInjector({ load: async () => api });
    injector.key("ShiftLeft", true);
    posted.length = 0;
    await injector.text("é😀\n");
    expect(posted.map((e) => [e.args[0], e.args[1], e.unicode, e.flags])).toEqual([
      [0, true, [0xe9], 0],
      [0, false, [0xe9], 0],
      [0, true, [0xd83d, 0xde00], 0],
      [0, false, [0xd83d, 0xde00], 0],
      [0x24, true, undefined, FLAGS.Shift],
      [0x24, false, undefined, FLAGS.Shift],
    ]);
  });

  it("scrolls by lines with Quartz' signs, and has no Ctrl+Alt+Suppr", async () => {
    const { api, posted } = fakeQuartz();
    const injector = await createMacInjector({ load: async () => api });
    injector.wheel(-2, 3);
    expect(posted[0]!.args).toEqual([1, 2, -3, 2, 0]);
    expect(injector.sas()).toEqual({ ok: false, reason: SAS_REASON_MAC });
  });

  it("drops a click or a key Quartz could not make (NULL event) without touching it", async () => {
    const { api, posted, released } = fakeQuartz();
    api.CGEventCreateMouseEvent = () => null;
    api.CGEventCreateKeyboardEvent = () => null;
    const injector = await createMacInjector({ load: async () => api });
    injector.move(injector.screens()[0]!, 0.5, 0.5);
    injector.button(0, true);
    injector.button(0, false);
    await injector.text("é\n");
    injector.key("KeyA", true);
    expect(posted).toEqual([]);
    expect(released).toEqual([]);
  });
});
