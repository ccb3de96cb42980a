/**
 * The customer's OS clipboard (issue 27): plain UTF-8 text, read when the customer sends it to the technician
 * (key P) and written when the technician pastes on this computer. One module per system, imported only on its
 * own system and only at the first use (nothing is opened at start):
 * - Linux X11 (`x11.ts`): libX11 through koffi, the CLIPBOARD selection owned by a small invisible window;
 * - Windows (`windows.ts`): user32's clipboard with `CF_UNICODETEXT`, kernel32's global memory;
 * - macOS (`macos.ts`): `pbcopy` / `pbpaste`.
 * Failures reject with `ClipboardError`, whose message is French and shown to the customer as is.
 */

import { CLIPBOARD_OS_MESSAGES, ClipboardError, type Clipboard } from "./base.ts";

export { CLIPBOARD_OS_MESSAGES, ClipboardError, type Clipboard } from "./base.ts";

/** Opens the clipboard of one system (`x11.ts`, `windows.ts`, `macos.ts`). */
type Opener = () => Promise<Clipboard>;

const OPENERS: Partial<Record<NodeJS.Platform, Opener>> = {
  linux: async () => (await import("./x11.ts")).openX11Clipboard(),
  win32: async () => (await import("./windows.ts")).openWindowsClipboard(),
  darwin: async () => (await import("./macos.ts")).createMacClipboard(),
};

/**
 * The clipboard of `platform` (default this process's), opened at its first use; a failure to open rejects that
 * use (with the reason) and the next use tries again. Never throws by itself.
 */
export function createClipboard(platform: NodeJS.Platform = process.platform): Clipboard {
  const opener = OPENERS[platform];
  let opened: Promise<Clipboard> | undefined;
  let closed = false;
  const open = (): Promise<Clipboard> => {
    if (!opener) return Promise.reject(new ClipboardError(CLIPBOARD_OS_MESSAGES.unsupported));
    opened ??= opener().catch((error: unknown) => {
      opened = undefined;
      throw error;
    });
    return opened;
  };
  return {
    readText: async () => (await open()).readText(),
    writeText: async (text) => (await open()).writeText(text),
    close() {
      if (closed) return;
      closed = true;
      void opened?.then((clipboard) => clipboard.close()).catch(() => {});
    },
  };
}
