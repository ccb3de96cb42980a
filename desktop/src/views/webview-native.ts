/**
 * Native parts of the window process (issue 27), Bun only (`bun:ffi`):
 * - the webview library (webview 0.12 as built by the registry package
 *   `webview-bun` 2.4.0: `libwebview-<arch>.so` on Linux, which needs GTK 4
 *   and WebKitGTK 6 — Debian `libwebkitgtk-6.0-4`, `libvulkan1`;
 *   `libwebview.dll` on Windows, which uses WebView2; `libwebview.dylib` on
 *   macOS, WKWebView). Found, in order: `ATELIER_WEBVIEW_LIBRARY` (a path: a
 *   packager's own build, or a missing file in tests), the copy embedded in
 *   a compiled executable (`webview-embedded.ts`, written to the run's
 *   private folder since a system loads libraries from files only, and
 *   deleted once loaded where the system allows it; the folder is removed at
 *   exit on every system, issue 36 §1), the package's file;
 * - a non-blocking read of stdin (POSIX `poll` + `read`; Windows
 *   `PeekNamedPipe` + `ReadFile`), because the webview's run loop never lets
 *   Bun's event loop run while the window is open;
 * - keeping the window above the others while the technician watches:
 *   X11 `_NET_WM_STATE_ABOVE` (EWMH client message to the root window),
 *   Windows `SetWindowPos(HWND_TOPMOST)`, macOS `-[NSWindow setLevel:]`.
 * - Windows: whether the WebView2 runtime is installed (`webview2.ts`), read
 *   from the registry with advapi32 `RegGetValueW` (issue 36 §3).
 * Every loader throws an Error with a French message when it cannot work.
 */
import { dlopen, FFIType, type Library, type Pointer } from "bun:ffi";
import { createRequire } from "node:module";
import path from "node:path";
import { nativeFolder } from "../native/private-folder.ts";
import { EMBEDDED_WEBVIEW } from "./webview-embedded.ts";
import { WEBVIEW2_MISSING, webview2Version } from "./webview2.ts";
import { WEBVIEW_PACKAGE, webviewInPackage } from "./webview-library.ts";
import { WEBVIEW_LIBRARY_ENV } from "./window-state.ts";

const { i32, ptr, void: none } = FFIType;
const WEBVIEW_FUNCTIONS = {
  webview_create: { args: [i32, ptr], returns: ptr },
  webview_destroy: { args: [ptr], returns: none },
  webview_run: { args: [ptr], returns: none },
  webview_get_window: { args: [ptr], returns: ptr },
  webview_set_title: { args: [ptr, ptr], returns: none },
  webview_set_size: { args: [ptr, i32, i32, i32], returns: none },
  webview_set_html: { args: [ptr, ptr], returns: none },
  webview_bind: { args: [ptr, ptr, FFIType.function, ptr], returns: none },
  webview_return: { args: [ptr, ptr, i32, ptr], returns: none },
};
export type WebviewLibrary = Library<keyof typeof WEBVIEW_FUNCTIONS>;

/** Opens the webview library (see the module comment); throws a French Error naming what is missing. */
export function loadWebview(env: NodeJS.ProcessEnv = process.env): { library: WebviewLibrary; file: string } {
  // The library itself loads without WebView2; only creating a window would fail, without saying why.
  if (process.platform === "win32" && !webview2Version(readRegistryString, env)) throw new Error(WEBVIEW2_MISSING);
  const open = (file: string) => {
    try {
      return dlopen(file, WEBVIEW_FUNCTIONS);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new Error(`La bibliothèque de fenêtre (webview) n'a pas pu être chargée : ${detail}`, { cause: error });
    }
  };
  const forced = env[WEBVIEW_LIBRARY_ENV];
  if (forced) return { library: open(forced), file: forced };
  if (EMBEDDED_WEBVIEW) {
    const folder = nativeFolder();
    const file = folder.write(EMBEDDED_WEBVIEW);
    try {
      return { library: open(file), file: EMBEDDED_WEBVIEW.name };
    } finally {
      folder.releaseLoadedFile(file);
    }
  }
  const relative = webviewInPackage(process.platform, process.arch);
  if (!relative) throw new Error(`Pas de fenêtre pour ${process.platform}-${process.arch}.`);
  // A variable, not a literal: the bundler must not embed the package's JavaScript.
  const name = `${WEBVIEW_PACKAGE}/package.json`;
  const file = path.join(path.dirname(createRequire(import.meta.url).resolve(name)), relative);
  return { library: open(file), file };
}

/** Predefined registry roots (sign-extended `HKEY` values on 64-bit Windows). */
const REGISTRY_ROOTS = { HKLM: 0xffff_ffff_8000_0002n, HKCU: 0xffff_ffff_8000_0001n } as const;

/** A REG_SZ value `pv` of `key` under `root`, or null (advapi32 `RegGetValueW`, RRF_RT_REG_SZ). */
function readRegistryString(root: keyof typeof REGISTRY_ROOTS, key: string): string | null {
  const advapi32 = dlopen("advapi32.dll", {
    RegGetValueW: { args: [FFIType.u64, ptr, ptr, FFIType.u32, ptr, ptr, ptr], returns: i32 },
  });
  try {
    const wide = (text: string) => Buffer.from(`${text}\0`, "utf16le");
    const data = new Uint8Array(512);
    const size = new Uint32Array([data.length]);
    const status = advapi32.symbols.RegGetValueW(REGISTRY_ROOTS[root], wide(key), wide("pv"), 0x2, null, data, size);
    if (status !== 0) return null;
    return Buffer.from(data.subarray(0, size[0])).toString("utf16le").replace(/\0+$/, "");
  } finally {
    advapi32.close();
  }
}

/** A C string for a native call (kept alive by the caller while the call runs). */
export function cString(text: string): Uint8Array {
  return new TextEncoder().encode(`${text}\0`);
}

/**
 * Reads what stdin holds now without waiting. @returns the bytes (empty when
 * nothing is waiting), or null once stdin is closed (the main process is gone).
 */
export type StdinPoller = () => Uint8Array | null;

/** The stdin poller of this system. */
export function openStdinPoller(): StdinPoller {
  return process.platform === "win32" ? windowsPoller() : posixPoller();
}

function posixPoller(): StdinPoller {
  const libc = dlopen(process.platform === "darwin" ? "/usr/lib/libSystem.B.dylib" : "libc.so.6", {
    poll: { args: [ptr, FFIType.u64, i32], returns: i32 },
    read: { args: [i32, ptr, FFIType.u64], returns: FFIType.i64 },
  });
  // struct pollfd { int fd; short events; short revents; }, POLLIN = 1.
  const pollfd = new DataView(new ArrayBuffer(8));
  const buffer = new Uint8Array(64 * 1024);
  let closed = false;
  return () => {
    if (closed) return null;
    const chunks: Uint8Array[] = [];
    for (;;) {
      pollfd.setInt32(0, 0, true);
      pollfd.setInt16(4, 1, true);
      pollfd.setInt16(6, 0, true);
      const ready = Number(libc.symbols.poll(pollfd, 1, 0));
      // revents: POLLIN (1), or POLLHUP (16) / POLLERR (8) when the other end is gone.
      if (ready <= 0 || pollfd.getInt16(6, true) === 0) break;
      const count = Number(libc.symbols.read(0, buffer, buffer.length));
      if (count <= 0) {
        closed = true;
        break;
      }
      chunks.push(buffer.slice(0, count));
    }
    if (closed && chunks.length === 0) return null;
    return Buffer.concat(chunks);
  };
}

function windowsPoller(): StdinPoller {
  const kernel32 = dlopen("kernel32.dll", {
    GetStdHandle: { args: [i32], returns: ptr },
    PeekNamedPipe: { args: [ptr, ptr, FFIType.u32, ptr, ptr, ptr], returns: i32 },
    ReadFile: { args: [ptr, ptr, FFIType.u32, ptr, ptr], returns: i32 },
  });
  const handle = kernel32.symbols.GetStdHandle(-10) as Pointer; // STD_INPUT_HANDLE
  const available = new Uint32Array(1);
  const read = new Uint32Array(1);
  const buffer = new Uint8Array(64 * 1024);
  return () => {
    if (!kernel32.symbols.PeekNamedPipe(handle, null, 0, null, available, null)) return null; // broken pipe
    if (available[0] === 0) return new Uint8Array(0);
    const ok = kernel32.symbols.ReadFile(handle, buffer, Math.min(available[0]!, buffer.length), read, null);
    return ok ? buffer.slice(0, read[0]) : null;
  };
}

/**
 * Keeps the window (`webview_get_window`'s handle: GtkWindow, HWND, NSWindow)
 * above the others, or not. Best effort: returns false when this system or
 * display gives no way (Wayland, a missing library).
 */
export function keepAbove(window: Pointer, above: boolean): boolean {
  try {
    if (process.platform === "linux") return x11KeepAbove(window, above);
    if (process.platform === "win32") {
      const user32 = dlopen("user32.dll", {
        SetWindowPos: { args: [ptr, ptr, i32, i32, i32, i32, FFIType.u32], returns: i32 },
      });
      // HWND_TOPMOST = -1, HWND_NOTOPMOST = -2; SWP_NOMOVE | SWP_NOSIZE | SWP_NOACTIVATE.
      return Boolean(user32.symbols.SetWindowPos(window, above ? -1 : -2, 0, 0, 0, 0, 0x2 | 0x1 | 0x10));
    }
    if (process.platform === "darwin") {
      const objc = dlopen("/usr/lib/libobjc.A.dylib", {
        sel_registerName: { args: [ptr], returns: ptr },
        objc_msgSend: { args: [ptr, ptr, FFIType.i64], returns: none },
      });
      const selector = objc.symbols.sel_registerName(cString("setLevel:")) as Pointer;
      // NSFloatingWindowLevel = 3, NSNormalWindowLevel = 0.
      objc.symbols.objc_msgSend(window, selector, above ? 3 : 0);
      return true;
    }
  } catch {
    // A missing system library: the sign stays in the window only.
  }
  return false;
}

let x11: { send(xid: number | bigint, above: boolean): void } | null | undefined;

function x11KeepAbove(window: Pointer, above: boolean): boolean {
  if (x11 === undefined) x11 = openX11();
  if (!x11) return false;
  const gtk = dlopen("libgtk-4.so.1", {
    gtk_native_get_surface: { args: [ptr], returns: ptr },
    gdk_x11_surface_get_xid: { args: [ptr], returns: FFIType.u64 },
  });
  const surface = gtk.symbols.gtk_native_get_surface(window) as Pointer | null;
  if (!surface) return false;
  const xid = gtk.symbols.gdk_x11_surface_get_xid(surface) as number | bigint;
  if (!xid) return false;
  x11.send(xid, above);
  return true;
}

/** Its own X connection (not GDK's): an EWMH `_NET_WM_STATE` request to the window manager. */
function openX11(): { send(xid: number | bigint, above: boolean): void } | null {
  const lib = dlopen("libX11.so.6", {
    XOpenDisplay: { args: [ptr], returns: ptr },
    XDefaultRootWindow: { args: [ptr], returns: FFIType.u64 },
    XInternAtom: { args: [ptr, ptr, i32], returns: FFIType.u64 },
    XSendEvent: { args: [ptr, FFIType.u64, i32, FFIType.i64, ptr], returns: i32 },
    XFlush: { args: [ptr], returns: i32 },
  });
  const display = lib.symbols.XOpenDisplay(null) as Pointer | null;
  if (!display) return null;
  const root = lib.symbols.XDefaultRootWindow(display) as bigint | number;
  const state = BigInt(lib.symbols.XInternAtom(display, cString("_NET_WM_STATE"), 0) as bigint | number);
  const aboveAtom = BigInt(lib.symbols.XInternAtom(display, cString("_NET_WM_STATE_ABOVE"), 0) as bigint | number);
  return {
    send(xid, above) {
      // XClientMessageEvent on LP64: type@0, serial@8, send_event@16, display@24, window@32,
      // message_type@40, format@48, data.l[5]@56; the XEvent union is 192 bytes.
      const event = new DataView(new ArrayBuffer(192));
      event.setInt32(0, 33, true); // ClientMessage
      event.setInt32(16, 1, true);
      event.setBigUint64(32, BigInt(xid), true);
      event.setBigUint64(40, state, true);
      event.setInt32(48, 32, true);
      event.setBigInt64(56, above ? 1n : 0n, true); // _NET_WM_STATE_ADD / _REMOVE
      event.setBigUint64(64, aboveAtom, true);
      event.setBigInt64(80, 1n, true); // source: an application
      // SubstructureRedirectMask | SubstructureNotifyMask.
      lib.symbols.XSendEvent(display, root, 0, (1 << 20) | (1 << 19), event);
      lib.symbols.XFlush(display);
    },
  };
}
