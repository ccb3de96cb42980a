/**
 * Issue 27, copy–paste between the technician and the customer's desktop app, in one module shared by the
 * browser, the server and the app (`desktop/`). Pure: zod only.
 *
 * - Technician → customer: the technician's browser reads its clipboard on a click on « Coller chez le client »
 *   (`navigator.clipboard.readText()`) and emits `clipboard:paste` (`ClipboardPaste`) on its usual socket; the
 *   server relays it as `device:clipboard` (`DeviceClipboard`) to the session's app, which puts it on the OS
 *   clipboard and injects the paste shortcut (Ctrl+V; ⌘V on macOS).
 * - Customer → technician: on the customer's click (key P in the terminal) the app reads the OS clipboard and
 *   emits `device:clipboard`; the server relays it as `clipboard:text` to the session's joined technician only.
 * - Both ways only while control is allowed (the customer's consent, the technician's toggle, the app connected:
 *   the input relay's rule), only from the session's joined technician or the session's own app, plain text of
 *   1 character to `CLIPBOARD_MAX_BYTES` bytes of UTF-8, within `CLIPBOARD_LIMITS` per session and direction.
 *   Each side acknowledges `ClipboardAck`; a refusal carries a French sentence of `CLIPBOARD_MESSAGES`.
 * - Every transfer is recorded as a session event (`clipboard-to-customer`, `clipboard-to-technician`) without
 *   the text; the text is never stored nor logged.
 */
import { z } from "zod";

/** Largest text, in bytes of UTF-8 (64 KB). */
export const CLIPBOARD_MAX_BYTES = 65_536;

/** Transfers per session and direction: a burst of `burst`, then `perMinute` a minute (per server process). */
export const CLIPBOARD_LIMITS = { burst: 5, perMinute: 5 } as const;

/** What both sides say (French, shown as is). */
export const CLIPBOARD_MESSAGES = {
  tooLarge: "Le texte dépasse 64 Ko : il n'a pas été envoyé.",
  empty: "Le presse-papiers est vide ou ne contient pas de texte.",
  notAllowed: "Le presse-papiers ne peut être échangé que pendant le contrôle autorisé par le client.",
  tooMany: "Trop d'envois du presse-papiers : réessayez dans une minute.",
  failed: "Le presse-papiers n'a pas pu être transmis. Réessayez.",
  notText: "Seul du texte peut être échangé par le presse-papiers.",
} as const;

/**
 * Bytes of `text` once encoded as UTF-8 (a lone surrogate counts 3, as the U+FFFD an encoder writes for it),
 * without encoding it.
 */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      index += 1;
    } else bytes += 3;
  }
  return bytes;
}

/** Whether `text` fits `CLIPBOARD_MAX_BYTES` (a string longer than that in UTF-16 units never does). */
export function fitsClipboard(text: string): boolean {
  return text.length <= CLIPBOARD_MAX_BYTES && utf8Bytes(text) <= CLIPBOARD_MAX_BYTES;
}

/** The text itself: a string, not empty, at most `CLIPBOARD_MAX_BYTES` bytes of UTF-8. */
export const ClipboardText = z
  .string({ error: CLIPBOARD_MESSAGES.notText })
  .min(1, { error: CLIPBOARD_MESSAGES.empty })
  .refine(fitsClipboard, { error: CLIPBOARD_MESSAGES.tooLarge });

/** Browser → server `clipboard:paste`: for the app of session `code`. */
export const ClipboardPaste = z.object({ code: z.string().max(32), text: ClipboardText });
export type ClipboardPaste = z.infer<typeof ClipboardPaste>;

/** App → server and server → app `device:clipboard`. */
export const DeviceClipboard = z.object({ text: ClipboardText });
export type DeviceClipboard = z.infer<typeof DeviceClipboard>;

/** The answer to a transfer: relayed (and recorded), or why not (French). */
export type ClipboardAck = { ok: true } | { ok: false; message: string };

/** The first French message of a failed `ClipboardText`/`ClipboardPaste`/`DeviceClipboard` parse. */
export function clipboardRefusal(error: z.ZodError): string {
  const issue = error.issues.find((candidate) => candidate.path.at(-1) === "text") ?? error.issues[0];
  const message = issue?.message ?? "";
  return (Object.values(CLIPBOARD_MESSAGES) as string[]).includes(message) ? message : CLIPBOARD_MESSAGES.notText;
}

/** Browser → server events of issue 27 (joined technician only). */
export type ClipboardClientToServerEvents = {
  "clipboard:paste": (paste: ClipboardPaste, ack: (result: ClipboardAck) => void) => void;
};

/** Server → browser events of issue 27: the customer's clipboard, to the session's joined technician only. */
export type ClipboardServerToClientEvents = {
  "clipboard:text": (clipboard: { code: string; text: string }) => void;
};
