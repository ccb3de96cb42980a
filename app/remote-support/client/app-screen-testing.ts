/**
 * What the tests of the desktop app's picture in the technician's browser share (`app-screen.test.ts`,
 * `app-screen-pacing.test.ts`): a fake socket, a stubbed `createImageBitmap` whose decodes finish when the test
 * says, a recording 2D context (happy-dom draws nothing), frames, and the views' clock.
 */
import { afterEach, beforeEach, expect, vi } from "vitest";
import { packRects, type ScreenFrame } from "#app/remote-support/screen-protocol.ts";
import { AppScreen } from "./app-screen";
import type { RealtimeSocket } from "./session-events";

export const CODE = "ACD34F";

/** What each fake socket emitted, so that `start` can take out the request every view makes on opening. */
const emittedBy = new WeakMap<object, { event: string; body: unknown }[]>();

/** A socket that records what is emitted; `push` plays a server event to the listeners. */
export function fakeSocket() {
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

export type FakeBitmap = { id: number; close: ReturnType<typeof vi.fn> };

/** `createImageBitmap` whose decodes finish (`decodes[i].resolve()`, `.fail()`) when the test says, in call order. */
export function stubDecoder() {
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
export function recordingCanvas() {
  const canvas = document.createElement("canvas");
  const drawn: string[] = [];
  const context = {
    drawImage: (bitmap: FakeBitmap, x: number, y: number, w: number, h: number) =>
      drawn.push(`${bitmap.id}@${x},${y} ${w}x${h}`),
  };
  vi.spyOn(canvas, "getContext").mockReturnValue(context as unknown as CanvasRenderingContext2D);
  return { canvas, drawn };
}

/** A tiny JPEG-looking buffer whose third byte tells frames apart. */
export const jpeg = (byte: number) => new Uint8Array([0xff, 0xd8, byte, 0xff, 0xd9]).buffer;

/** A change frame of one 64 × 64 rectangle in a 1920 × 1080 picture. */
export function frame(seq: number, overrides: Partial<ScreenFrame> = {}): ScreenFrame & { code: string } {
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

/** A full 1920 × 1080 picture in two rectangles. */
export const full = (seq: number, overrides: Partial<ScreenFrame> = {}) =>
  frame(seq, {
    full: true,
    ...packRects([
      { x: 0, y: 0, w: 1920, h: 540, jpeg: jpeg(seq) },
      { x: 0, y: 540, w: 1920, h: 540, jpeg: jpeg(seq + 100) },
    ]),
    ...overrides,
  });

/** Lets the pending promise callbacks run (decodes, then the ordered draws). */
export async function settle() {
  for (let i = 0; i < 20; i += 1) await Promise.resolve();
}

/** Finishes every decode, including those that start once the frame before is drawn (one frame at a time). */
export async function decodeAll(decodes: { resolve: () => void }[]) {
  await settle();
  for (let i = 0; i < decodes.length; i += 1) {
    decodes[i]!.resolve();
    await settle();
  }
}

/** The views' clock, ms: tests move it forward (`time.now += …`). */
export const time = { now: 1_000_000 };
const now = () => time.now;
let screens: AppScreen[] = [];

/** A view on `socket`; the full picture every view asks for on opening is checked, then forgotten. */
export function start(socket: RealtimeSocket, canvas?: HTMLCanvasElement) {
  const screen = new AppScreen({ socket, code: CODE, canvas, now });
  screens.push(screen);
  const emitted = emittedBy.get(socket)!;
  expect(emitted).toEqual([{ event: "screen:refresh", body: { code: CODE } }]);
  emitted.length = 0;
  // That request is a second old: the automatic ones (at most one a second) are free again.
  time.now += 1_000;
  return screen;
}

/** Registers, in the calling test file, the clock reset and fake timers before each test and the clean-up after. */
export function setUpAppScreens(): void {
  beforeEach(() => {
    time.now = 1_000_000;
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  });
  afterEach(() => {
    for (const screen of screens) screen.destroy();
    screens = [];
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
}
