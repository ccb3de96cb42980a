/**
 * The X11 injector against a real X server (issue 15, "Tests"): Xvfb, a
 * headful Chromium window recording what it receives, and our XTest calls.
 * Fails (never skips) when Xvfb or Chromium is missing.
 */
import { chromium, type Browser, type Page } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startXvfb, type Xvfb } from "../../test/xvfb.ts";
import type { TrackedInjector } from "./injector.ts";
import { createX11Injector } from "./x11.ts";

// A full-window text field; every pointer and key event is kept in window.events.
const PAGE = `<!doctype html><html><body style="margin:0">
<textarea id="field" style="position:fixed;inset:0;width:100vw;height:100vh;border:0;margin:0;padding:0"></textarea>
<script>
window.events = [];
for (const type of ["mousedown", "mouseup"]) {
  document.addEventListener(type, (e) => window.events.push({ type, button: e.button, screenX: e.screenX, screenY: e.screenY, clientX: e.clientX, clientY: e.clientY }));
}
for (const type of ["keydown", "keyup"]) {
  document.addEventListener(type, (e) => window.events.push({ type, code: e.code }));
}
</script></body></html>`;

type Recorded = { type: string; button?: number; screenX?: number; screenY?: number; clientX?: number; code?: string };

let xvfb: Xvfb;
let browser: Browser;
let page: Page;
let injector: TrackedInjector;

async function events(): Promise<Recorded[]> {
  return page.evaluate(() => (window as unknown as { events: Recorded[] }).events);
}

async function waitForEvent(predicate: (event: Recorded) => boolean): Promise<Recorded> {
  let found: Recorded | undefined;
  await expect.poll(async () => (found = (await events()).find(predicate))).toBeTruthy();
  return found!;
}

beforeAll(async () => {
  xvfb = await startXvfb(640, 480);
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: false,
    env: { ...process.env, DISPLAY: xvfb.display },
    // No window manager: the window sits where we put it, so a screen pixel is a page pixel.
    args: [
      "--no-sandbox",
      "--kiosk",
      "--window-position=0,0",
      "--window-size=640,480",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const context = await browser.newContext({ viewport: null });
  page = await context.newPage();
  await page.setContent(PAGE);
  injector = await createX11Injector({ env: { DISPLAY: xvfb.display } });
}, 30_000);

afterAll(async () => {
  await injector?.close();
  await browser?.close();
  await xvfb?.stop();
});

describe("X11 injector under Xvfb", () => {
  it("reports the display as one 640×480 screen and injection as possible", () => {
    expect(injector.status()).toEqual({ ok: true });
    expect(injector.screens()).toEqual([
      expect.objectContaining({ x: 0, y: 0, width: 640, height: 480, primary: true }),
    ]);
  });

  it("clicks at the right pixel and types « Bonjour 123 éàç » exactly", async () => {
    const [screen] = injector.screens();
    // A browser computes fractions from integer offsets: 200/640, 150/480.
    injector.move(screen!, 200 / 640, 150 / 480);
    injector.button(0, true);
    injector.button(0, false);
    const down = await waitForEvent((event) => event.type === "mousedown");
    expect(Math.abs(down.screenX! - 200)).toBeLessThanOrEqual(2);
    expect(Math.abs(down.screenY! - 150)).toBeLessThanOrEqual(2);
    await waitForEvent((event) => event.type === "mouseup");
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("field");

    await injector.text("Bonjour 123 éàç");
    await expect
      .poll(() => page.evaluate(() => (document.getElementById("field") as HTMLTextAreaElement).value))
      .toBe("Bonjour 123 éàç");
    expect(injector.held.isEmpty()).toBe(true);
  });

  it("releaseAll lets go of a held button and a held key", async () => {
    await page.evaluate(() => ((window as unknown as { events: Recorded[] }).events = []));
    const [screen] = injector.screens();
    injector.move(screen!, 0.5, 0.5);
    injector.key("ShiftLeft", true);
    injector.button(0, true);
    await waitForEvent((event) => event.type === "mousedown");
    await waitForEvent((event) => event.type === "keydown" && event.code === "ShiftLeft");
    expect((await events()).some((event) => event.type === "mouseup")).toBe(false);

    injector.releaseAll();
    await waitForEvent((event) => event.type === "mouseup" && event.button === 0);
    await waitForEvent((event) => event.type === "keyup" && event.code === "ShiftLeft");
    expect(injector.held.isEmpty()).toBe(true);
  });

  it("keys go by physical key: KeyA then Backspace edit the field", async () => {
    const field = () => page.evaluate(() => (document.getElementById("field") as HTMLTextAreaElement).value);
    const before = await field();
    injector.key("KeyA", true);
    injector.key("KeyA", false);
    await expect.poll(field).toBe(`${before}a`);
    injector.key("Backspace", true);
    injector.key("Backspace", false);
    await expect.poll(field).toBe(before);
  });
});
