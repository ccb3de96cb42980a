/**
 * Issue 27, the technician's side of copy–paste (`clipboard-protocol.ts`), framework-free: reading the
 * browser's clipboard and sending it to the customer's computer (« Coller chez le client »), checking what
 * the customer sent, and copying it to the browser's clipboard (« Copier »). Every outcome is a French
 * sentence: permission refused, nothing to read, too long, not allowed now (the server's answer).
 *
 * `navigator.clipboard.readText()` needs a user gesture and, in Chromium, the `clipboard-read` permission (the
 * browser asks once); `writeText` needs a gesture too. Both exist only on secure pages (HTTPS, localhost).
 */
import { z } from "zod";
import {
  CLIPBOARD_MESSAGES,
  ClipboardText,
  clipboardRefusal,
  type ClipboardAck,
  type ClipboardPaste,
} from "#app/remote-support/clipboard-protocol.ts";

/** How long the page waits for the server's answer to a paste (ms). */
export const PASTE_ACK_TIMEOUT_MS = 10_000;

export const CLIPBOARD_UI_TEXT = {
  permission:
    "Le navigateur a refusé l'accès au presse-papiers : autorisez-le pour ce site (icône à gauche de l'adresse), puis réessayez.",
  unavailable: "Ce navigateur ne donne pas accès au presse-papiers sur cette page.",
  sending: "Envoi au client…",
  copied: "Texte copié dans votre presse-papiers.",
  received: "Texte reçu du presse-papiers du client.",
  copyRefused:
    "Le navigateur a refusé d'écrire dans le presse-papiers : sélectionnez le texte reçu et copiez-le (Ctrl+C).",
} as const;

/** What the page uses of `navigator.clipboard` (absent on insecure pages and old browsers). */
export type BrowserClipboard = { readText(): Promise<string>; writeText(text: string): Promise<void> } | undefined;

/** A French outcome: `ok` false is an error to announce assertively. */
export type ClipboardOutcome = { ok: boolean; message: string };

/** Sends one paste and resolves with the server's answer (the hook binds it to the socket, with a timeout). */
export type SendPaste = (paste: ClipboardPaste) => Promise<ClipboardAck>;

const isPermissionError = (error: unknown) => error instanceof DOMException && error.name === "NotAllowedError";

/** "1 caractère", "22 caractères". */
export function characterCount(text: string): string {
  const count = [...text].length;
  return `${count} caractère${count > 1 ? "s" : ""}`;
}

/**
 * Reads `clipboard` (in the click's gesture) and sends its text to the app of session `code` through `send`.
 * Never rejects: every failure becomes its French sentence.
 */
export async function pasteToCustomer(
  code: string,
  clipboard: BrowserClipboard,
  send: SendPaste,
): Promise<ClipboardOutcome> {
  if (!clipboard) return { ok: false, message: CLIPBOARD_UI_TEXT.unavailable };
  let text: string;
  try {
    text = await clipboard.readText();
  } catch (error) {
    return {
      ok: false,
      message: isPermissionError(error) ? CLIPBOARD_UI_TEXT.permission : CLIPBOARD_UI_TEXT.unavailable,
    };
  }
  const checked = ClipboardText.safeParse(text);
  if (!checked.success) return { ok: false, message: clipboardRefusal(checked.error) };
  const answer = await send({ code, text: checked.data }).catch((): ClipboardAck => ({
    ok: false,
    message: CLIPBOARD_MESSAGES.failed,
  }));
  if (!answer.ok) return { ok: false, message: answer.message };
  return { ok: true, message: `Texte collé chez le client (${characterCount(checked.data)}).` };
}

/** Copies `text` (the customer's) to the technician's clipboard. Never rejects. */
export async function copyToTechnician(clipboard: BrowserClipboard, text: string): Promise<ClipboardOutcome> {
  if (!clipboard) return { ok: false, message: CLIPBOARD_UI_TEXT.copyRefused };
  try {
    await clipboard.writeText(text);
    return { ok: true, message: CLIPBOARD_UI_TEXT.copied };
  } catch {
    return { ok: false, message: CLIPBOARD_UI_TEXT.copyRefused };
  }
}

const Received = z.object({ code: z.string(), text: ClipboardText });

/** The text of a `clipboard:text` push when it is valid and for session `code`, else null. */
export function receivedText(code: string, payload: unknown): string | null {
  const checked = Received.safeParse(payload);
  return checked.success && checked.data.code === code ? checked.data.text : null;
}
