/**
 * The window process (issue 27, "The window"): the executable started again
 * with `--fenetre` by the main process (`window.ts`). Runs under Bun only.
 *
 * It opens a webview (`webview-native.ts`) showing `window-page.ts`, and
 * from then on lives inside the webview's run loop, which blocks this
 * process's JavaScript event loop: everything happens in the page's calls.
 * Each `atelierPoll()` of the page (every `POLL_MS`) reads what stdin holds
 * without waiting and returns the newest state; each `atelierSend()` writes a
 * JSON line to stdout (synchronously). When stdin closes or says `quit`, or
 * the customer closes the window (the run loop returns), the process writes
 * `closed` and exits at once: `webview_terminate` was measured not to end the
 * loop promptly, and the main process kills this one anyway when it is done.
 *
 * Without a usable webview (library missing, no display) it writes
 * `{"type":"unavailable","reason":…}` and exits with code 3; with `--verifier`
 * it only checks that the library loads (for `--help`) and exits 0 or 3.
 */
import { CString, FFIType, JSCallback, type Pointer } from "bun:ffi";
import { writeSync } from "node:fs";
import { windowPage } from "./window-page.ts";
import { keepAbove, loadWebview, openStdinPoller, cString, type WebviewLibrary } from "./webview-native.ts";
import type { WindowEvent, WindowState } from "./window-state.ts";

/** Exit code when no window can be shown. */
export const WINDOW_UNAVAILABLE_EXIT = 3;

/** One JSON line to the main process, written at once (no event loop runs inside the webview). */
function send(event: WindowEvent): void {
  try {
    writeSync(1, `${JSON.stringify(event)}\n`);
  } catch {
    // The main process is gone: the next poll sees stdin closed and exits.
  }
}

/** Runs the window; resolves only when there is none to show (otherwise the process exits from inside). */
export async function runWindowChild(args: readonly string[]): Promise<number> {
  let webview: WebviewLibrary;
  try {
    webview = loadWebview().library;
  } catch (error) {
    send({ type: "unavailable", reason: error instanceof Error ? error.message : String(error) });
    return WINDOW_UNAVAILABLE_EXIT;
  }
  if (args.includes("--verifier")) return 0;

  const handle = webview.symbols.webview_create(0, null) as Pointer | null;
  if (!handle) {
    send({ type: "unavailable", reason: "La fenêtre n'a pas pu être créée (pas d'affichage graphique ?)." });
    return WINDOW_UNAVAILABLE_EXIT;
  }
  const window = webview.symbols.webview_get_window(handle) as Pointer;
  const readStdin = openStdinPoller();
  const keep: unknown[] = [];
  const c = (text: string) => {
    const bytes = cString(text);
    keep.push(bytes);
    return bytes;
  };
  webview.symbols.webview_set_title(handle, c("Assistance à distance"));
  // WEBVIEW_HINT_NONE: the customer may resize it.
  webview.symbols.webview_set_size(handle, 460, 600, 0);

  let pending = "";
  let latest: WindowState | null = null;
  let delivered = "";
  let title = "";
  let above = false;
  const quit = (code: number): never => {
    send({ type: "closed" });
    process.exit(code);
  };
  const readInput = () => {
    const bytes = readStdin();
    if (bytes === null) quit(0);
    pending += Buffer.from(bytes!).toString("utf8");
    let newline = pending.indexOf("\n");
    while (newline >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      newline = pending.indexOf("\n");
      let message: { type?: string; state?: WindowState };
      try {
        message = JSON.parse(line) as typeof message;
      } catch {
        continue;
      }
      if (message.type === "quit") quit(0);
      if (message.type === "state" && message.state) latest = message.state;
    }
  };

  /** A bound function: `(seq, req)` C strings; answers with `webview_return`. */
  const bind = (name: string, answer: (args: unknown[]) => unknown) => {
    const callback = new JSCallback(
      (seq: Pointer, req: Pointer) => {
        const id = new CString(seq).toString();
        let result: unknown;
        try {
          result = answer(JSON.parse(new CString(req).toString()) as unknown[]);
        } catch {
          result = null;
        }
        webview.symbols.webview_return(handle, cString(id), 0, cString(JSON.stringify(result ?? null)));
      },
      { args: [FFIType.ptr, FFIType.ptr, FFIType.ptr], returns: FFIType.void },
    );
    keep.push(callback);
    webview.symbols.webview_bind(handle, c(name), callback.ptr, null);
  };

  bind("atelierPoll", () => {
    readInput();
    if (!latest) return null;
    const text = JSON.stringify(latest);
    if (text === delivered) return null;
    delivered = text;
    if (latest.title !== title) {
      title = latest.title;
      webview.symbols.webview_set_title(handle, cString(title));
    }
    if (Boolean(latest.sign) !== above) {
      above = Boolean(latest.sign);
      keepAbove(window, above);
    }
    return latest;
  });
  let ready = false;
  bind("atelierSend", ([message]) => {
    if (typeof message !== "object" || message === null) return null;
    const event = message as WindowEvent;
    if (event.type === "drawn" && !ready) {
      ready = true;
      send({ type: "ready" });
    }
    if (event.type === "action" && event.action === "close") quit(0);
    send(event);
    return null;
  });
  webview.symbols.webview_set_html(handle, c(windowPage()));
  webview.symbols.webview_run(handle);
  // The customer closed the window.
  return quit(0);
}
