/**
 * Issue 27, the app's side of copy–paste (`clipboard-protocol.ts`), over the `/device` link of `connection.ts`:
 *
 * - `device:clipboard` from the server (the technician clicked « Coller chez le client »): checked again here,
 *   then, in the input queue (after the input received before it, and only if control is still allowed when
 *   its turn comes), the text goes on the OS clipboard and the paste shortcut is pressed through the injector:
 *   Ctrl+V, ⌘V on macOS (`pasteKeys`). Pressing the shortcut, rather than typing the text as keys, keeps line
 *   breaks, tabs and every character exact in any program, costs one round trip whatever the length, and leaves
 *   the text on the customer's clipboard to paste again; it is what the technician would do at the keyboard.
 *   Programs whose paste shortcut differs (Ctrl+Maj+V in a Linux terminal) get nothing pasted: the text is on
 *   the clipboard and the technician can press their shortcut. The customer is told (a terminal notice).
 * - `send()` (the customer's click: key P): the OS clipboard's text, checked (`ClipboardText`: 64 KB), sent
 *   with `device:clipboard`, acknowledged by the server within `ACK_TIMEOUT_MS`; the outcome in French.
 * Neither side ever writes the text anywhere but the clipboard and the socket.
 */
import {
  CLIPBOARD_MESSAGES,
  ClipboardText,
  clipboardRefusal,
  DeviceClipboard,
  type ClipboardAck,
} from "#app/remote-support/clipboard-protocol.ts";
import type { DeviceState } from "#app/remote-support/device-protocol.ts";
import type { DeviceSocket } from "../connection.ts";
import type { Injector } from "../input/injector.ts";
import type { Clipboard } from "./clipboard.ts";

/** How long the app waits for the server's answer to a send (ms). */
export const ACK_TIMEOUT_MS = 10_000;

export const TRANSFER_MESSAGES = {
  offline: "Connexion au serveur perdue : le presse-papiers n'a pas été envoyé.",
  sending: "Envoi du presse-papiers en cours…",
} as const;

/** What the transfer needs of the app's link (`DeviceConnection`). */
export type ControlledLink = {
  readonly socket: Pick<DeviceSocket, "on" | "off" | "timeout" | "connected">;
  readonly state: DeviceState | null;
  /** Control is allowed now: active for the server, not withdrawn here, the app not stopping. */
  readonly controlAllowed: boolean;
  /** Runs `task` after the input received so far, only if control is still allowed by then. */
  whileControlled(task: (injector: Injector) => void | Promise<void>): void;
};

/** The paste shortcut of `platform`, as physical keys pressed in this order: ⌘V on macOS, Ctrl+V elsewhere. */
export function pasteKeys(platform: NodeJS.Platform): readonly string[] {
  return platform === "darwin" ? ["MetaLeft", "KeyV"] : ["ControlLeft", "KeyV"];
}

/** Presses and releases (in reverse) the paste shortcut of `platform` through `injector`. */
export async function pressPaste(injector: Injector, platform: NodeJS.Platform): Promise<void> {
  const keys = pasteKeys(platform);
  for (const key of keys) await injector.key(key, true);
  for (const key of [...keys].reverse()) await injector.key(key, false);
}

const characters = (text: string) => [...text].length;
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** One link's copy–paste (see the module comment). `start()` once; `close()` frees the OS clipboard. */
export class ClipboardTransfer {
  readonly #link: ControlledLink;
  readonly #clipboard: Clipboard;
  readonly #platform: NodeJS.Platform;
  readonly #notice: (message: string) => void;
  #sending = false;

  /** `notice`: a French line for the customer (never the text itself). */
  constructor(
    link: ControlledLink,
    clipboard: Clipboard,
    options: { platform: NodeJS.Platform; notice: (message: string) => void },
  ) {
    this.#link = link;
    this.#clipboard = clipboard;
    this.#platform = options.platform;
    this.#notice = options.notice;
  }

  /** Whether the customer can send the clipboard now: control allowed and a technician joined. */
  get sendable(): boolean {
    return this.#link.controlAllowed && Boolean(this.#link.state?.technicianName);
  }

  start(): void {
    this.#link.socket.on("device:clipboard", (payload) => this.#receive(payload));
  }

  /** Sends the OS clipboard's text to the technician (the customer's click); says the outcome in French. */
  async send(): Promise<void> {
    if (this.#sending) return this.#notice(TRANSFER_MESSAGES.sending);
    if (!this.sendable) return this.#notice(CLIPBOARD_MESSAGES.notAllowed);
    this.#sending = true;
    try {
      let text: string;
      try {
        text = await this.#clipboard.readText();
      } catch (error) {
        return this.#notice(`Presse-papiers : ${reason(error)}`);
      }
      const checked = ClipboardText.safeParse(text);
      if (!checked.success) return this.#notice(clipboardRefusal(checked.error));
      // The customer may have taken control back while the clipboard was read.
      if (!this.sendable) return this.#notice(CLIPBOARD_MESSAGES.notAllowed);
      if (!this.#link.socket.connected) return this.#notice(TRANSFER_MESSAGES.offline);
      const ack = await new Promise<ClipboardAck>((resolve) =>
        this.#link.socket
          .timeout(ACK_TIMEOUT_MS)
          .emit("device:clipboard", { text: checked.data }, (error: Error | null, result: ClipboardAck) =>
            resolve(error || !result ? { ok: false, message: CLIPBOARD_MESSAGES.failed } : result),
          ),
      );
      this.#notice(
        ack.ok ? `Presse-papiers envoyé au technicien (${characters(checked.data)} caractères).` : ack.message,
      );
    } finally {
      this.#sending = false;
    }
  }

  close(): void {
    this.#clipboard.close();
  }

  /** The technician's text: on the clipboard, then pasted, in the input queue while control is allowed. */
  #receive(payload: unknown): void {
    const checked = DeviceClipboard.safeParse(payload);
    // The server already checked sender, consent and size; the app checks again, being the last line.
    if (!checked.success || !this.#link.controlAllowed) return;
    const { text } = checked.data;
    this.#link.whileControlled(async (injector) => {
      try {
        await this.#clipboard.writeText(text);
      } catch (error) {
        return this.#notice(`Presse-papiers : ${reason(error)}`);
      }
      await pressPaste(injector, this.#platform);
      this.#notice(`Le technicien a collé un texte de son presse-papiers (${characters(text)} caractères).`);
    });
  }
}
