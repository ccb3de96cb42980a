/**
 * Driving X windows from the desktop app's tests (issue 27) as a customer
 * would: `xdotool` (package `xdotool`) finds windows, focuses them, moves the
 * pointer and clicks or types through XTest; `closeWindow` sends the
 * `WM_DELETE_WINDOW` message a window manager sends when the × is clicked
 * (the test displays have no window manager). Missing tools are errors.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { loadKoffi } from "../src/input/koffi.ts";

const run = promisify(execFile);

/** Runs `xdotool` on `display`; resolves with its output (trimmed). */
export async function xdotool(display: string, ...args: string[]): Promise<string> {
  const { stdout } = await run("xdotool", args, { env: { ...process.env, DISPLAY: display } });
  return stdout.trim();
}

/**
 * The first window whose title matches `title` (a regular expression for xdotool) once it is shown (mapped),
 * waiting up to `timeoutMs`: keys typed into a window named but not yet mapped can be lost (a CI run's zenity
 * question never got its Entrée).
 */
export async function findWindow(display: string, title: string, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await xdotool(display, "search", "--onlyvisible", "--name", title).catch(() => "");
    const first = found.split("\n").find(Boolean);
    if (first) return first;
    if (Date.now() > deadline) throw new Error(`Aucune fenêtre « ${title} » sur ${display}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Gives `window` the keyboard focus, then types `text` and presses `keys` (xdotool key names). */
export async function typeInto(display: string, window: string, text: string, ...keys: string[]): Promise<void> {
  await xdotool(display, "windowfocus", "--sync", window);
  if (text) await xdotool(display, "type", "--delay", "40", text);
  for (const key of keys) await xdotool(display, "key", key);
}

/** Clicks with the first button at (x, y) of the screen. */
export async function clickAt(display: string, x: number, y: number): Promise<void> {
  await xdotool(display, "mousemove", "--sync", String(Math.round(x)), String(Math.round(y)));
  await xdotool(display, "click", "1");
}

/** The window's position on the screen. */
export async function windowOrigin(display: string, window: string): Promise<{ x: number; y: number }> {
  const text = await xdotool(display, "getwindowgeometry", window);
  const match = /Position: (-?\d+),(-?\d+)/.exec(text);
  if (!match) throw new Error(`Position inconnue : ${text}`);
  return { x: Number(match[1]), y: Number(match[2]) };
}

/** Asks `window` to close, as a window manager's × does (ICCCM `WM_DELETE_WINDOW`). */
export async function closeWindow(display: string, window: string): Promise<void> {
  const koffi = await loadKoffi();
  const x11 = koffi.load("libX11.so.6");
  const XOpenDisplay = x11.func("void *XOpenDisplay(const char *name)");
  const XInternAtom = x11.func("unsigned long XInternAtom(void *dpy, const char *name, int onlyIfExists)");
  const XSendEvent = x11.func("int XSendEvent(void *dpy, unsigned long w, int propagate, long mask, void *event)");
  const XSync = x11.func("int XSync(void *dpy, int discard)");
  const XCloseDisplay = x11.func("int XCloseDisplay(void *dpy)");
  const dpy: unknown = XOpenDisplay(display);
  if (!dpy) throw new Error(`Affichage ${display} injoignable`);
  try {
    // XClientMessageEvent on LP64 (see views/webview-native.ts): window@32, message_type@40, format@48, data@56.
    const event = Buffer.alloc(192);
    event.writeInt32LE(33, 0); // ClientMessage
    event.writeInt32LE(1, 16);
    event.writeBigUInt64LE(BigInt(window), 32);
    event.writeBigUInt64LE(BigInt(XInternAtom(dpy, "WM_PROTOCOLS", 0) as number), 40);
    event.writeInt32LE(32, 48);
    event.writeBigUInt64LE(BigInt(XInternAtom(dpy, "WM_DELETE_WINDOW", 0) as number), 56);
    XSendEvent(dpy, Number(window), 0, 0, event);
    XSync(dpy, 0);
  } finally {
    XCloseDisplay(dpy);
  }
}
