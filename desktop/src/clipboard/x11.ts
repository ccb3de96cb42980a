/**
 * The X11 clipboard (issue 27), through koffi and libX11.so.6 (already needed by the injector), on its own
 * display connection:
 *
 * - Writing: the app owns the CLIPBOARD selection with a small window that is never mapped (invisible), and
 *   answers every `SelectionRequest` from a poll of its connection every `POLL_MS` while it owns it: `TARGETS`
 *   (what it offers), `UTF8_STRING` and `text/plain;charset=utf-8` (the text, in one property: ≤ 64 KB is far
 *   below the X request size, so no INCR transfer is ever needed). Anything else is refused (property None). An
 *   X selection lives in its owner: once the app exits, the text it put there is gone (X11's rule, as with any
 *   program), and another program copying something takes the selection (`SelectionClear`).
 * - Reading: `XConvertSelection` of CLIPBOARD to `UTF8_STRING` (else `STRING`, Latin-1) into a property of that
 *   window, then the `SelectionNotify` awaited for at most `READ_TIMEOUT_MS`, then the property read whole and
 *   deleted. An owner answering with INCR (used for large texts only) or with more than
 *   `CLIPBOARD_MAX_BYTES` is "too large"; no owner or no text is "empty".
 *
 * XEvent layouts are read at their LP64 offsets (Linux x64 and arm64). Every failure rejects with a French
 * `ClipboardError`.
 */
import { CLIPBOARD_MAX_BYTES, CLIPBOARD_MESSAGES } from "#app/remote-support/clipboard-protocol.ts";
import { KOFFI_MISSING, loadKoffi, type Koffi } from "../input/koffi.ts";
import { CLIPBOARD_OS_MESSAGES, ClipboardError, type Clipboard } from "./base.ts";

/** How often the app reads its X connection while it owns the selection or awaits an answer (ms). */
export const POLL_MS = 20;
/** How long a read waits for the owner's answer (ms). */
export const READ_TIMEOUT_MS = 2_000;

const NO_DISPLAY =
  "Aucun affichage X11 n'est accessible (variable DISPLAY vide ou serveur X injoignable) : le presse-papiers n'est pas disponible.";
const NO_LIBX11 = "La bibliothèque X11 (libX11.so.6) est introuvable : le presse-papiers n'est pas disponible.";

const SELECTION_CLEAR = 29;
const SELECTION_REQUEST = 30;
const SELECTION_NOTIFY = 31;
const XA_ATOM = 4;
const XA_STRING = 31;
const PROP_MODE_REPLACE = 0;
const ANY_PROPERTY_TYPE = 0;
/** `sizeof(XEvent)` on LP64: 24 longs. */
const XEVENT_BYTES = 192;

type Fn = (...args: unknown[]) => unknown;

/** libX11's functions used here. */
function bind(koffi: Koffi) {
  const x11 = koffi.load("libX11.so.6");
  const f = (signature: string) => x11.func(signature) as Fn;
  return {
    XOpenDisplay: f("void *XOpenDisplay(const char *name)"),
    XCloseDisplay: f("int XCloseDisplay(void *dpy)"),
    XDefaultRootWindow: f("unsigned long XDefaultRootWindow(void *dpy)"),
    XCreateSimpleWindow: f(
      "unsigned long XCreateSimpleWindow(void *dpy, unsigned long parent, int x, int y, unsigned int w, unsigned int h, unsigned int bw, unsigned long border, unsigned long bg)",
    ),
    XDestroyWindow: f("int XDestroyWindow(void *dpy, unsigned long w)"),
    XInternAtom: f("unsigned long XInternAtom(void *dpy, const char *name, int onlyIfExists)"),
    XSetSelectionOwner: f("int XSetSelectionOwner(void *dpy, unsigned long sel, unsigned long owner, unsigned long t)"),
    XGetSelectionOwner: f("unsigned long XGetSelectionOwner(void *dpy, unsigned long sel)"),
    XConvertSelection: f(
      "int XConvertSelection(void *dpy, unsigned long sel, unsigned long target, unsigned long prop, unsigned long requestor, unsigned long t)",
    ),
    XPending: f("int XPending(void *dpy)"),
    XNextEvent: f("int XNextEvent(void *dpy, void *event)"),
    XSendEvent: f("int XSendEvent(void *dpy, unsigned long w, int propagate, long mask, void *event)"),
    XChangeProperty: f(
      "int XChangeProperty(void *dpy, unsigned long w, unsigned long prop, unsigned long type, int format, int mode, const void *data, int count)",
    ),
    XGetWindowProperty: f(
      "int XGetWindowProperty(void *dpy, unsigned long w, unsigned long prop, long offset, long length, int del, unsigned long type, _Out_ unsigned long *actualType, _Out_ int *actualFormat, _Out_ unsigned long *items, _Out_ unsigned long *after, _Out_ void **data)",
    ),
    XDeleteProperty: f("int XDeleteProperty(void *dpy, unsigned long w, unsigned long prop)"),
    XFree: f("int XFree(void *data)"),
    XFlush: f("int XFlush(void *dpy)"),
    XSetErrorHandler: f("void *XSetErrorHandler(void *handler)"),
  };
}
type Xlib = ReturnType<typeof bind>;

let loaded: { koffi: Koffi; x: Xlib } | undefined;
/** Kept alive for as long as the process runs: Xlib calls it. */
let errorHandler: unknown;

/**
 * Opens the clipboard on `display` (null: $DISPLAY). Rejects with a French `ClipboardError` when koffi, libX11
 * or the display is missing.
 */
export async function openX11Clipboard(display: string | null = null): Promise<Clipboard> {
  if (!loaded) {
    let koffi: Koffi;
    try {
      koffi = await loadKoffi();
    } catch {
      throw new ClipboardError(KOFFI_MISSING);
    }
    try {
      loaded = { koffi, x: bind(koffi) };
    } catch {
      throw new ClipboardError(NO_LIBX11);
    }
    // Xlib's default handler exits the process on an error (a requestor window gone before our answer): ignore.
    const proto = loaded.koffi.proto("int AtelierClipboardXError(void *dpy, void *event)");
    errorHandler = loaded.koffi.register(() => 0, loaded.koffi.pointer(proto));
    loaded.x.XSetErrorHandler(errorHandler);
  }
  const dpy = loaded.x.XOpenDisplay(display);
  if (!dpy) throw new ClipboardError(NO_DISPLAY);
  return new X11Clipboard(loaded.koffi, loaded.x, dpy);
}

const toNumber = (value: unknown) => Number(value as number | bigint);

/** One display connection's clipboard (see the module comment). */
class X11Clipboard implements Clipboard {
  readonly #koffi: Koffi;
  readonly #x: Xlib;
  readonly #dpy: unknown;
  readonly #window: number;
  readonly #atoms: Record<"clipboard" | "targets" | "utf8" | "textPlain" | "incr" | "property", number>;
  readonly #event = Buffer.alloc(XEVENT_BYTES);
  /** The text we own the selection with, as UTF-8, or null when we do not own it. */
  #owned: Buffer | null = null;
  #ownedText = "";
  /** The last `SelectionNotify` for our window: the property it was written to (0: refused). */
  #notified: { property: number; target: number } | null = null;
  #timer: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  constructor(koffi: Koffi, x: Xlib, dpy: unknown) {
    this.#koffi = koffi;
    this.#x = x;
    this.#dpy = dpy;
    const root = x.XDefaultRootWindow(dpy);
    // 1 × 1 at -10,-10, never mapped: it exists only to own the selection and receive properties.
    this.#window = toNumber(x.XCreateSimpleWindow(dpy, root, -10, -10, 1, 1, 0, 0, 0));
    const atom = (name: string) => toNumber(x.XInternAtom(dpy, name, 0));
    this.#atoms = {
      clipboard: atom("CLIPBOARD"),
      targets: atom("TARGETS"),
      utf8: atom("UTF8_STRING"),
      textPlain: atom("text/plain;charset=utf-8"),
      incr: atom("INCR"),
      property: atom("ATELIER_PRESSE_PAPIERS"),
    };
    x.XFlush(dpy);
  }

  async writeText(text: string): Promise<void> {
    this.#assertOpen();
    const { clipboard } = this.#atoms;
    this.#owned = Buffer.from(text, "utf8");
    this.#ownedText = text;
    this.#x.XSetSelectionOwner(this.#dpy, clipboard, this.#window, 0);
    if (toNumber(this.#x.XGetSelectionOwner(this.#dpy, clipboard)) !== this.#window) {
      this.#owned = null;
      throw new ClipboardError(CLIPBOARD_OS_MESSAGES.busy);
    }
    this.#x.XFlush(this.#dpy);
    this.#timer ??= setInterval(() => this.#pump(), POLL_MS);
    // The poll must not keep the app alive once everything else stopped.
    this.#timer.unref?.();
  }

  async readText(): Promise<string> {
    this.#assertOpen();
    const owner = toNumber(this.#x.XGetSelectionOwner(this.#dpy, this.#atoms.clipboard));
    if (owner === 0) throw new ClipboardError(CLIPBOARD_MESSAGES.empty);
    if (owner === this.#window && this.#owned) return this.#ownedText;
    const utf8 = await this.#convert(this.#atoms.utf8);
    if (utf8 !== null) return utf8;
    const latin1 = await this.#convert(XA_STRING);
    if (latin1 !== null) return latin1;
    throw new ClipboardError(CLIPBOARD_MESSAGES.empty);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    this.#owned = null;
    this.#x.XDestroyWindow(this.#dpy, this.#window);
    this.#x.XCloseDisplay(this.#dpy);
  }

  #assertOpen(): void {
    if (this.#closed) throw new ClipboardError(CLIPBOARD_OS_MESSAGES.unsupported);
  }

  /** Asks the owner for the selection as `target`; the text, or null when the owner refused that target. */
  async #convert(target: number): Promise<string | null> {
    const x = this.#x;
    const { clipboard, property } = this.#atoms;
    x.XDeleteProperty(this.#dpy, this.#window, property);
    this.#notified = null;
    x.XConvertSelection(this.#dpy, clipboard, target, property, this.#window, 0);
    x.XFlush(this.#dpy);
    const deadline = performance.now() + READ_TIMEOUT_MS;
    for (;;) {
      this.#pump();
      if (this.#notified || this.#closed) break;
      if (performance.now() > deadline) throw new ClipboardError(CLIPBOARD_OS_MESSAGES.noAnswer);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS / 2));
    }
    const notified = this.#notified as { property: number; target: number } | null;
    if (!notified || notified.property === 0) return null;
    return this.#readProperty(target === XA_STRING ? "latin1" : "utf8");
  }

  /** Reads and deletes our property: the owner's answer. */
  #readProperty(encoding: "utf8" | "latin1"): string {
    const x = this.#x;
    const actualType = [0];
    const format = [0];
    const items = [0];
    const after = [0];
    const data: unknown[] = [null];
    // Length in 32-bit units: one more than the limit, so that a larger text shows as bytes left after.
    const length = CLIPBOARD_MAX_BYTES / 4 + 1;
    const status = x.XGetWindowProperty(
      this.#dpy,
      this.#window,
      this.#atoms.property,
      0,
      length,
      1,
      ANY_PROPERTY_TYPE,
      actualType,
      format,
      items,
      after,
      data,
    );
    const pointer = data[0];
    try {
      if (status !== 0) throw new ClipboardError(CLIPBOARD_OS_MESSAGES.noAnswer);
      if (toNumber(actualType[0]) === this.#atoms.incr) throw new ClipboardError(CLIPBOARD_MESSAGES.tooLarge);
      const count = toNumber(items[0]);
      if (toNumber(after[0]) > 0 || count > CLIPBOARD_MAX_BYTES) throw new ClipboardError(CLIPBOARD_MESSAGES.tooLarge);
      if (format[0] !== 8 || count === 0 || !pointer) throw new ClipboardError(CLIPBOARD_MESSAGES.empty);
      const bytes = Buffer.from(this.#koffi.decode(pointer, "uint8_t", count) as Uint8Array);
      return bytes.toString(encoding);
    } finally {
      if (pointer) x.XFree(pointer);
    }
  }

  /** Handles every event waiting on the connection: requests for our text, its loss, answers to our reads. */
  #pump(): void {
    if (this.#closed) return;
    const x = this.#x;
    const event = this.#event;
    while (toNumber(x.XPending(this.#dpy)) > 0) {
      x.XNextEvent(this.#dpy, event);
      const type = event.readInt32LE(0);
      if (type === SELECTION_REQUEST) this.#answer(event);
      else if (type === SELECTION_CLEAR && Number(event.readBigUInt64LE(40)) === this.#atoms.clipboard) {
        // Another program copied something: it owns the clipboard now.
        this.#owned = null;
        this.#ownedText = "";
      } else if (type === SELECTION_NOTIFY && Number(event.readBigUInt64LE(32)) === this.#window) {
        this.#notified = { target: Number(event.readBigUInt64LE(48)), property: Number(event.readBigUInt64LE(56)) };
      }
    }
    if (!this.#owned && this.#timer) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  /** Answers one `XSelectionRequestEvent` (requestor @40, selection @48, target @56, property @64, time @72). */
  #answer(request: Buffer): void {
    const x = this.#x;
    const { clipboard, targets, utf8, textPlain } = this.#atoms;
    const requestor = Number(request.readBigUInt64LE(40));
    const selection = Number(request.readBigUInt64LE(48));
    const target = Number(request.readBigUInt64LE(56));
    // An obsolete client gives no property: the target's name is used (ICCCM).
    const property = Number(request.readBigUInt64LE(64)) || target;
    const time = request.readBigUInt64LE(72);
    let answered = false;
    if (this.#owned && selection === clipboard) {
      if (target === targets) {
        const list = [targets, utf8, textPlain];
        // Format 32 is an array of C longs (8 bytes on LP64).
        const atoms = Buffer.alloc(8 * list.length);
        list.forEach((atom, index) => atoms.writeBigUInt64LE(BigInt(atom), index * 8));
        x.XChangeProperty(this.#dpy, requestor, property, XA_ATOM, 32, PROP_MODE_REPLACE, atoms, list.length);
        answered = true;
      } else if (target === utf8 || target === textPlain) {
        const bytes = this.#owned;
        x.XChangeProperty(this.#dpy, requestor, property, target, 8, PROP_MODE_REPLACE, bytes, bytes.length);
        answered = true;
      }
    }
    // XSelectionEvent: type, serial, send_event, display, requestor @32, selection @40, target @48, property @56,
    // time @64.
    const notify = Buffer.alloc(XEVENT_BYTES);
    notify.writeInt32LE(SELECTION_NOTIFY, 0);
    notify.writeInt32LE(1, 16);
    notify.writeBigUInt64LE(BigInt(requestor), 32);
    notify.writeBigUInt64LE(BigInt(selection), 40);
    notify.writeBigUInt64LE(BigInt(target), 48);
    notify.writeBigUInt64LE(answered ? BigInt(property) : 0n, 56);
    notify.writeBigUInt64LE(time, 64);
    x.XSendEvent(this.#dpy, requestor, 0, 0, notify);
    x.XFlush(this.#dpy);
  }
}
