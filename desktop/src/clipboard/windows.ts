/**
 * The Windows clipboard (issue 27): user32's `OpenClipboard` / `EmptyClipboard` / `SetClipboardData` /
 * `GetClipboardData` with `CF_UNICODETEXT` (UTF-16LE ending with a NUL), and kernel32's movable global memory
 * (`GlobalAlloc`, `GlobalLock`, `GlobalUnlock`, `GlobalSize`, `GlobalFree`; `RtlMoveMemory` copies to and from
 * it), through koffi. `WinClipboardApi` is the table of those functions, so tests drive the logic with a fake.
 *
 * Another program may hold the clipboard open for a moment: opening is tried `OPEN_ATTEMPTS` times,
 * `OPEN_RETRY_MS` apart, then "busy". Once `SetClipboardData` succeeds the memory belongs to Windows; before
 * that it is freed here. The text stays on the clipboard after the app exits.
 */
import { CLIPBOARD_MAX_BYTES, CLIPBOARD_MESSAGES, fitsClipboard } from "#app/remote-support/clipboard-protocol.ts";
import { KOFFI_MISSING, loadKoffi } from "../input/koffi.ts";
import { CLIPBOARD_OS_MESSAGES, ClipboardError, type Clipboard } from "./base.ts";

export const CF_UNICODETEXT = 13;
export const GMEM_MOVEABLE = 0x0002;
export const OPEN_ATTEMPTS = 10;
export const OPEN_RETRY_MS = 25;
/** The largest `CF_UNICODETEXT` block a text within the limit can need: 2 bytes a UTF-16 unit, and the NUL. */
const MAX_UNICODE_BYTES = 2 * CLIPBOARD_MAX_BYTES + 2;

/** Handles and pointers are opaque values (koffi's external pointers, or anything in a fake); null is NULL. */
export interface WinClipboardApi {
  OpenClipboard(owner: null): boolean;
  CloseClipboard(): boolean;
  EmptyClipboard(): boolean;
  GetClipboardData(format: number): unknown;
  SetClipboardData(format: number, memory: unknown): unknown;
  GlobalAlloc(flags: number, bytes: number): unknown;
  GlobalLock(memory: unknown): unknown;
  GlobalUnlock(memory: unknown): boolean;
  GlobalSize(memory: unknown): number;
  GlobalFree(memory: unknown): unknown;
  /** `RtlMoveMemory(pointer, bytes, bytes.length)`: `bytes` into the memory at `pointer`. */
  copyTo(pointer: unknown, bytes: Buffer): void;
  /** `RtlMoveMemory(bytes, pointer, bytes.length)`: the memory at `pointer` into `bytes`. */
  copyFrom(pointer: unknown, bytes: Buffer): void;
}

/** The real table, through koffi. Rejects with a French `ClipboardError` when koffi cannot load. */
export async function bindWindowsClipboard(): Promise<WinClipboardApi> {
  let koffi;
  try {
    koffi = await loadKoffi();
  } catch {
    throw new ClipboardError(KOFFI_MISSING);
  }
  const user32 = koffi.load("user32.dll");
  const kernel32 = koffi.load("kernel32.dll");
  const OpenClipboard = user32.func("int __stdcall OpenClipboard(void *owner)");
  const CloseClipboard = user32.func("int __stdcall CloseClipboard()");
  const EmptyClipboard = user32.func("int __stdcall EmptyClipboard()");
  const GetClipboardData = user32.func("void * __stdcall GetClipboardData(uint32_t format)");
  const SetClipboardData = user32.func("void * __stdcall SetClipboardData(uint32_t format, void *memory)");
  const GlobalAlloc = kernel32.func("void * __stdcall GlobalAlloc(uint32_t flags, size_t bytes)");
  const GlobalLock = kernel32.func("void * __stdcall GlobalLock(void *memory)");
  const GlobalUnlock = kernel32.func("int __stdcall GlobalUnlock(void *memory)");
  const GlobalSize = kernel32.func("size_t __stdcall GlobalSize(void *memory)");
  const GlobalFree = kernel32.func("void * __stdcall GlobalFree(void *memory)");
  const RtlMoveMemory = kernel32.func("void __stdcall RtlMoveMemory(void *dest, const void *source, size_t bytes)");
  return {
    OpenClipboard: (owner) => OpenClipboard(owner) !== 0,
    CloseClipboard: () => CloseClipboard() !== 0,
    EmptyClipboard: () => EmptyClipboard() !== 0,
    GetClipboardData: (format) => GetClipboardData(format),
    SetClipboardData: (format, memory) => SetClipboardData(format, memory),
    GlobalAlloc: (flags, bytes) => GlobalAlloc(flags, bytes),
    GlobalLock: (memory) => GlobalLock(memory),
    // GlobalUnlock returns 0 once the lock count is 0, which is what we want: not a failure here.
    GlobalUnlock: (memory) => (GlobalUnlock(memory), true),
    GlobalSize: (memory) => Number(GlobalSize(memory)),
    GlobalFree: (memory) => GlobalFree(memory),
    copyTo: (pointer, bytes) => RtlMoveMemory(pointer, bytes, bytes.length),
    copyFrom: (pointer, bytes) => RtlMoveMemory(bytes, pointer, bytes.length),
  };
}

/** The Windows clipboard over the real table. */
export async function openWindowsClipboard(): Promise<Clipboard> {
  return createWindowsClipboard(await bindWindowsClipboard());
}

/** The clipboard over `api`; `sleep` waits between opening attempts (ms; tests pass their own). */
export function createWindowsClipboard(
  api: WinClipboardApi,
  sleep: (ms: number) => Promise<unknown> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Clipboard {
  /** Runs `body` with the clipboard open, closing it whatever happens. */
  async function withClipboard<T>(body: () => T): Promise<T> {
    let opened = false;
    for (let attempt = 0; attempt < OPEN_ATTEMPTS && !opened; attempt++) {
      if (attempt > 0) await sleep(OPEN_RETRY_MS);
      opened = api.OpenClipboard(null);
    }
    if (!opened) throw new ClipboardError(CLIPBOARD_OS_MESSAGES.busy);
    try {
      return body();
    } finally {
      api.CloseClipboard();
    }
  }

  return {
    writeText: (text) =>
      withClipboard(() => {
        const units = Buffer.from(`${text}\0`, "utf16le");
        if (!api.EmptyClipboard()) throw new ClipboardError(CLIPBOARD_OS_MESSAGES.busy);
        const memory = api.GlobalAlloc(GMEM_MOVEABLE, units.length);
        if (!memory) throw new ClipboardError(CLIPBOARD_OS_MESSAGES.busy);
        const pointer = api.GlobalLock(memory);
        if (!pointer) {
          api.GlobalFree(memory);
          throw new ClipboardError(CLIPBOARD_OS_MESSAGES.busy);
        }
        api.copyTo(pointer, units);
        api.GlobalUnlock(memory);
        if (!api.SetClipboardData(CF_UNICODETEXT, memory)) {
          api.GlobalFree(memory);
          throw new ClipboardError(CLIPBOARD_OS_MESSAGES.busy);
        }
      }),

    async readText() {
      const text = await withClipboard(() => {
        const memory = api.GetClipboardData(CF_UNICODETEXT);
        if (!memory) throw new ClipboardError(CLIPBOARD_MESSAGES.empty);
        const size = api.GlobalSize(memory);
        if (size > MAX_UNICODE_BYTES) throw new ClipboardError(CLIPBOARD_MESSAGES.tooLarge);
        const pointer = api.GlobalLock(memory);
        if (!pointer) throw new ClipboardError(CLIPBOARD_OS_MESSAGES.busy);
        const bytes = Buffer.alloc(size - (size % 2));
        try {
          api.copyFrom(pointer, bytes);
        } finally {
          api.GlobalUnlock(memory);
        }
        const decoded = bytes.toString("utf16le");
        const end = decoded.indexOf("\0");
        return end === -1 ? decoded : decoded.slice(0, end);
      });
      if (!text) throw new ClipboardError(CLIPBOARD_MESSAGES.empty);
      if (!fitsClipboard(text)) throw new ClipboardError(CLIPBOARD_MESSAGES.tooLarge);
      return text;
    },

    close() {
      // Nothing held between uses.
    },
  };
}
