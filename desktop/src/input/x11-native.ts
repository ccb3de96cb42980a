/**
 * The X11 FFI boundary (issue 15, "Injection" on Linux): libX11.so.6,
 * libXtst.so.6 and, when present, libXrandr.so.2 and libXinerama.so.1
 * (issue 26), bound through koffi. Thin on
 * purpose: JS numbers and arrays in, JS numbers and arrays out; the logic
 * lives in `x11.ts`, which tests can drive with a fake `X11Api`.
 */
import type { IKoffiLib, Koffi } from "./koffi.ts";
import { KOFFI_MISSING, loadKoffi } from "./koffi.ts";

/** One RandR monitor, in root-window pixels. */
export type X11Monitor = { name: string; primary: boolean; x: number; y: number; width: number; height: number };

/** What `x11.ts` needs of Xlib/XTest, one display connection. Errors surface as exceptions. */
export interface X11Api {
  /** Root window size of the default screen, px. */
  displaySize(): { width: number; height: number };
  /** RandR monitors (empty when RandR is missing: the caller falls back to `displaySize`). */
  monitors(): X11Monitor[];
  /** `XDisplayKeycodes`: the keycode range, usually 8–255. */
  keycodeRange(): { min: number; max: number };
  /** `XGetKeyboardMapping` of `count` keycodes from `first`: `perKeycode` keysyms per keycode, row after row. */
  getKeyboardMapping(first: number, count: number): { perKeycode: number; keysyms: number[] };
  /** `XChangeKeyboardMapping` (clients receive MappingNotify). */
  changeKeyboardMapping(first: number, perKeycode: number, keysyms: number[]): void;
  fakeMotion(x: number, y: number): void;
  fakeButton(button: number, press: boolean): void;
  fakeKey(keycode: number, press: boolean): void;
  /** `XSync(display, False)`: every request sent and processed by the server. */
  sync(): void;
  close(): void;
}

/** Why X11 cannot be used, in French, or null when it can. */
export type X11OpenResult = { api: X11Api } | { reason: string };

const NO_DISPLAY =
  "Aucun affichage X11 n'est accessible (variable DISPLAY vide ou serveur X injoignable) : la prise de contrôle n'est pas possible.";
const NO_LIBS =
  "Les bibliothèques X11 (libX11.so.6, libXtst.so.6) sont introuvables : installez les paquets libx11-6 et libxtst6, puis relancez le logiciel.";
const NO_XTEST = "Le serveur X n'a pas l'extension XTest : la prise de contrôle n'est pas possible sur cet affichage.";

let libs:
  { koffi: Koffi; x11: IKoffiLib; xtst: IKoffiLib; xrandr: IKoffiLib | null; xinerama: IKoffiLib | null } | undefined;

/**
 * Opens `display` (e.g. ":0"; null = $DISPLAY) with XTest. Never throws:
 * a missing library, display or extension gives `{ reason }` in French.
 */
export async function openX11(display: string | null): Promise<X11OpenResult> {
  if (!libs) {
    let koffi: Koffi;
    try {
      koffi = await loadKoffi();
    } catch {
      return { reason: KOFFI_MISSING };
    }
    try {
      const x11 = koffi.load("libX11.so.6");
      const xtst = koffi.load("libXtst.so.6");
      let xrandr: IKoffiLib | null = null;
      try {
        xrandr = koffi.load("libXrandr.so.2");
      } catch {
        // Optional: without RandR the whole root window is one screen.
      }
      let xinerama: IKoffiLib | null = null;
      try {
        xinerama = koffi.load("libXinerama.so.1");
      } catch {
        // Optional: only setups whose monitors RandR does not list need it.
      }
      libs = { koffi, x11, xtst, xrandr, xinerama };
    } catch {
      return { reason: NO_LIBS };
    }
  }
  const { koffi, x11, xtst, xrandr, xinerama } = libs;
  const f = {
    XOpenDisplay: x11.func("void *XOpenDisplay(const char *name)"),
    XCloseDisplay: x11.func("int XCloseDisplay(void *dpy)"),
    XDefaultScreen: x11.func("int XDefaultScreen(void *dpy)"),
    XRootWindow: x11.func("unsigned long XRootWindow(void *dpy, int screen)"),
    XDisplayWidth: x11.func("int XDisplayWidth(void *dpy, int screen)"),
    XDisplayHeight: x11.func("int XDisplayHeight(void *dpy, int screen)"),
    XDisplayKeycodes: x11.func("int XDisplayKeycodes(void *dpy, _Out_ int *min, _Out_ int *max)"),
    XGetKeyboardMapping: x11.func("void *XGetKeyboardMapping(void *dpy, uint8_t first, int count, _Out_ int *per)"),
    XChangeKeyboardMapping: x11.func(
      "int XChangeKeyboardMapping(void *dpy, int first, int per, unsigned long *keysyms, int count)",
    ),
    XGetAtomName: x11.func("void *XGetAtomName(void *dpy, unsigned long atom)"),
    XFree: x11.func("int XFree(void *data)"),
    XSync: x11.func("int XSync(void *dpy, int discard)"),
    XWarpPointer: x11.func(
      "int XWarpPointer(void *dpy, unsigned long src, unsigned long dest, int sx, int sy, unsigned int sw, unsigned int sh, int dx, int dy)",
    ),
    XSetErrorHandler: x11.func("void *XSetErrorHandler(void *handler)"),
    XTestQueryExtension: xtst.func(
      "int XTestQueryExtension(void *dpy, _Out_ int *a, _Out_ int *b, _Out_ int *c, _Out_ int *d)",
    ),
    XTestFakeMotionEvent: xtst.func(
      "int XTestFakeMotionEvent(void *dpy, int screen, int x, int y, unsigned long delay)",
    ),
    XTestFakeButtonEvent: xtst.func(
      "int XTestFakeButtonEvent(void *dpy, unsigned int button, int press, unsigned long delay)",
    ),
    XTestFakeKeyEvent: xtst.func(
      "int XTestFakeKeyEvent(void *dpy, unsigned int keycode, int press, unsigned long delay)",
    ),
  };

  installErrorHandler(koffi, f.XSetErrorHandler);

  const dpy: unknown = f.XOpenDisplay(display);
  if (!dpy) return { reason: NO_DISPLAY };
  if (!f.XTestQueryExtension(dpy, [0], [0], [0], [0])) {
    f.XCloseDisplay(dpy);
    return { reason: NO_XTEST };
  }
  const screen: number = f.XDefaultScreen(dpy);
  const root: number = f.XRootWindow(dpy, screen);
  const randrMonitors = xrandr ? bindMonitors(koffi, xrandr, dpy, root, f.XGetAtomName, f.XFree) : () => [];
  const xineramaHeads = xinerama ? bindXinerama(koffi, xinerama, dpy, f.XFree) : () => [];
  // Issue 26: a Xinerama layout (Xephyr, older multi-head drivers) shows RandR one monitor over the first head
  // only; its heads are then the real monitors.
  const xineramaLayout = randrMonitors().length < 2 && xineramaHeads().length > 1;
  const monitorsFn = (): X11Monitor[] => {
    const monitors = randrMonitors();
    if (monitors.length >= 2) return monitors;
    const heads = xineramaHeads();
    return heads.length > monitors.length ? heads : monitors;
  };
  let open = true;

  const api: X11Api = {
    displaySize: () => ({ width: f.XDisplayWidth(dpy, screen), height: f.XDisplayHeight(dpy, screen) }),
    monitors: monitorsFn,
    keycodeRange() {
      const min = [0];
      const max = [0];
      f.XDisplayKeycodes(dpy, min, max);
      return { min: min[0] ?? 8, max: max[0] ?? 255 };
    },
    getKeyboardMapping(first, count) {
      const per = [0];
      const pointer: unknown = f.XGetKeyboardMapping(dpy, first, count, per);
      if (!pointer) throw new Error("XGetKeyboardMapping a échoué");
      const perKeycode = per[0] ?? 0;
      // A BigUint64Array (unsigned long is 64-bit here); keysyms fit in 29 bits.
      const raw = koffi.decode(pointer, "unsigned long", count * perKeycode) as ArrayLike<number | bigint>;
      const keysyms = Array.from(raw, Number);
      f.XFree(pointer);
      return { perKeycode, keysyms };
    },
    changeKeyboardMapping(first, perKeycode, keysyms) {
      f.XChangeKeyboardMapping(dpy, first, perKeycode, keysyms, keysyms.length / perKeycode);
    },
    // Screen -1: XTest's "the screen the pointer is on"; delay 0: now. A Xinerama layout of several X screens
    // (what `xineramaLayout` detects) keeps XTest's motion on the head the pointer is on: the root window is
    // warped instead, as xdotool does, so every monitor can be reached.
    fakeMotion: (x, y) =>
      void (xineramaLayout
        ? f.XWarpPointer(dpy, 0, root, 0, 0, 0, 0, Math.round(x), Math.round(y))
        : f.XTestFakeMotionEvent(dpy, -1, Math.round(x), Math.round(y), 0)),
    fakeButton: (button, press) => void f.XTestFakeButtonEvent(dpy, button, press ? 1 : 0, 0),
    fakeKey: (keycode, press) => void f.XTestFakeKeyEvent(dpy, keycode, press ? 1 : 0, 0),
    sync: () => void f.XSync(dpy, 0),
    close() {
      if (!open) return;
      open = false;
      f.XCloseDisplay(dpy);
    },
  };
  return { api };
}

let errorHandlerInstalled = false;

/**
 * Xlib's default error handler prints and calls exit(1): a BadValue from a
 * keymap change would kill the app with keys still held. Ours ignores the
 * error (the call's effect is simply missing).
 */
function installErrorHandler(koffi: Koffi, setHandler: (handler: unknown) => unknown) {
  if (errorHandlerInstalled) return;
  const proto = koffi.proto("int AtelierXErrorHandler(void *dpy, void *event)");
  const handler = koffi.register(() => 0, koffi.pointer(proto));
  setHandler(handler);
  errorHandlerInstalled = true;
}

/** XineramaQueryScreens → `X11Monitor[]` (named by head, the first primary); [] when Xinerama is off. */
function bindXinerama(
  koffi: Koffi,
  xinerama: IKoffiLib,
  dpy: unknown,
  xFree: (data: unknown) => unknown,
): () => X11Monitor[] {
  let headInfo;
  try {
    headInfo = koffi.struct("AtelierXineramaScreenInfo", {
      screen_number: "int",
      x_org: "short",
      y_org: "short",
      width: "short",
      height: "short",
    });
  } catch {
    headInfo = koffi.type("AtelierXineramaScreenInfo");
  }
  let isActive: (...args: unknown[]) => unknown;
  let queryScreens: (...args: unknown[]) => unknown;
  try {
    isActive = xinerama.func("int XineramaIsActive(void *dpy)");
    queryScreens = xinerama.func("void *XineramaQueryScreens(void *dpy, _Out_ int *number)");
  } catch {
    return () => [];
  }
  return () => {
    if (!isActive(dpy)) return [];
    const count = [0];
    const pointer = queryScreens(dpy, count);
    if (!pointer || !count[0]) return [];
    const rows = koffi.decode(pointer, headInfo, count[0]) as {
      screen_number: number;
      x_org: number;
      y_org: number;
      width: number;
      height: number;
    }[];
    xFree(pointer);
    return rows.map((row, index) => ({
      name: `ecran-${row.screen_number + 1}`,
      primary: index === 0,
      x: row.x_org,
      y: row.y_org,
      width: row.width,
      height: row.height,
    }));
  };
}

/** XRRGetMonitors → `X11Monitor[]`; [] when the server lacks RandR 1.5. */
function bindMonitors(
  koffi: Koffi,
  xrandr: IKoffiLib,
  dpy: unknown,
  root: number,
  getAtomName: (dpy: unknown, atom: number) => unknown,
  xFree: (data: unknown) => unknown,
): () => X11Monitor[] {
  let monitorInfo;
  try {
    monitorInfo = koffi.struct("AtelierXRRMonitorInfo", {
      name: "unsigned long",
      primary: "int",
      automatic: "int",
      noutput: "int",
      x: "int",
      y: "int",
      width: "int",
      height: "int",
      mwidth: "int",
      mheight: "int",
      outputs: "void *",
    });
  } catch {
    // Already declared by an earlier open (koffi type names are global).
    monitorInfo = koffi.type("AtelierXRRMonitorInfo");
  }
  let getMonitors: (...args: unknown[]) => unknown;
  let freeMonitors: (...args: unknown[]) => unknown;
  try {
    getMonitors = xrandr.func("void *XRRGetMonitors(void *dpy, unsigned long window, int active, _Out_ int *count)");
    freeMonitors = xrandr.func("void XRRFreeMonitors(void *monitors)");
  } catch {
    return () => [];
  }
  return () => {
    const count = [0];
    const pointer = getMonitors(dpy, root, 1, count);
    if (!pointer || !count[0]) return [];
    const rows = koffi.decode(pointer, monitorInfo, count[0]) as {
      name: number;
      primary: number;
      x: number;
      y: number;
      width: number;
      height: number;
    }[];
    freeMonitors(pointer);
    return rows.map((row, index) => {
      let name = String(index);
      const atomName = row.name ? getAtomName(dpy, Number(row.name)) : null;
      if (atomName) {
        name = koffi.decode(atomName, "char", -1) as string;
        xFree(atomName);
      }
      return { name, primary: row.primary !== 0, x: row.x, y: row.y, width: row.width, height: row.height };
    });
  };
}
