/**
 * Issue 27: what every OS clipboard module (`x11.ts`, `windows.ts`, `macos.ts`) shares: the `Clipboard`
 * interface, its French error and messages. Apart from `clipboard.ts` (the chooser, which imports the modules)
 * so that no import cycle forms.
 */

/** What the app asks of a clipboard. */
export interface Clipboard {
  /**
   * The clipboard's text. Rejects with `ClipboardError`: empty or not text (`CLIPBOARD_MESSAGES.empty`), larger
   * than the protocol allows when the system says so (X11's INCR transfers), or unavailable (the reason).
   */
  readText(): Promise<string>;
  /** Puts `text` on the clipboard (it stays there after the app exits on Windows and macOS, not on X11). */
  writeText(text: string): Promise<void>;
  /** Frees the OS resources (X11: the window and the display connection). Idempotent. */
  close(): void;
}

/** A clipboard failure, its message in French for the customer. */
export class ClipboardError extends Error {
  override name = "ClipboardError";
}

/** Why the OS clipboard could not be used (French). */
export const CLIPBOARD_OS_MESSAGES = {
  unsupported: "Le presse-papiers de ce système n'est pas pris en charge.",
  busy: "Le presse-papiers est occupé par un autre programme : réessayez dans un instant.",
  noAnswer: "Le programme qui a copié ce texte n'a pas répondu : copiez-le à nouveau puis réessayez.",
} as const;
