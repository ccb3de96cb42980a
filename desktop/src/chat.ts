/**
 * Issue 38 §1, the session chat on the app's side (`chat-protocol.ts`), over the `/device` link of `connection.ts`:
 *
 * - `device:chat` from the server: a technician's line (untrusted: kept only through `chatLineOf`, and only when
 *   its text is typable text, `ChatText`); kept with the conversation and announced to the view (`onIncoming`:
 *   the terminal rings, the window marks its title, zenity opens a dialog).
 * - `send(text)` (the customer's « Envoyer », the terminal's line, zenity's answer): checked (`ChatText`: 1 to
 *   `CHAT_MAX_CHARS` characters once trimmed, typable), sent with `device:chat`, acknowledged by the server within
 *   `CHAT_ACK_TIMEOUT_MS`; the stored line of the acknowledgement joins the conversation as the customer's own, a
 *   refusal (the server's rate, a lost link, a timeout) is kept as `error`, a French sentence.
 * - Only once a technician is joined (`device:state`'s `technicianName`) and the link is up (`available`).
 *
 * The conversation is kept in memory only, the last `CHAT_HISTORY` lines; its text is shown on screen and sent on
 * the socket, never written to a log, a notice or stderr.
 */
import { CHAT_MESSAGES, ChatText, chatLineOf, type ChatAck, type ChatLine } from "#app/remote-support/chat-protocol.ts";
import type { DeviceState } from "#app/remote-support/device-protocol.ts";
import type { DeviceSocket } from "./connection.ts";

/** How many lines of the conversation the app keeps (older ones are dropped). */
export const CHAT_HISTORY = 50;
/** How long the app waits for the server's acknowledgement of a send (ms). */
export const CHAT_ACK_TIMEOUT_MS = 10_000;

/** What the app says about its own sends (French, shown as is). */
export const CHAT_TEXTS = {
  offline: "Connexion au serveur perdue : le message n'a pas été envoyé.",
  sending: "Un message est déjà en cours d'envoi : patientez un instant.",
} as const;

/** What the views show of the chat (in `ScreenModel.chat`). */
export type ChatModel = {
  /** The conversation, oldest first, at most `CHAT_HISTORY` lines. */
  lines: readonly ChatLine[];
  /** The customer can write now: a technician is joined and the link is up. */
  available: boolean;
  /** A send awaits the server's acknowledgement. */
  sending: boolean;
  /** Why the last send failed (French), null after a success or before any send. */
  error: string | null;
};

/** What the chat needs of the app's link (`DeviceConnection`). */
export type ChatLink = {
  readonly socket: Pick<DeviceSocket, "on" | "off" | "timeout" | "connected">;
  readonly state: DeviceState | null;
  readonly phase: string;
};

/** The result of a send: accepted (the line is in the conversation) or refused (`message`, also in `error`). */
export type ChatSendResult = { ok: true } | { ok: false; message: string };

/** The French sentence for a text `ChatText` refuses (its zod message: empty, too long, untypable). */
export function chatRefusal(text: string): string | null {
  const checked = ChatText.safeParse(text);
  return checked.success ? null : (checked.error.issues[0]?.message ?? CHAT_MESSAGES.invalid);
}

/** One link's conversation (see the module comment). `start()` once, `close()` at the end. */
export class SessionChat {
  readonly #link: ChatLink;
  readonly #onChange: () => void;
  readonly #onIncoming: (line: ChatLine) => void;
  readonly #timeoutMs: number;
  #lines: ChatLine[] = [];
  #sending = false;
  #error: string | null = null;
  #closed = false;
  readonly #listener = (payload: unknown) => this.#receive(payload);

  /**
   * `onChange`: the model changed (redraw). `onIncoming`: a technician's new line (after `onChange`).
   * `timeoutMs`: the acknowledgement's limit (default `CHAT_ACK_TIMEOUT_MS`; tests shorten it).
   */
  constructor(
    link: ChatLink,
    events: { onChange: () => void; onIncoming?: (line: ChatLine) => void },
    timeoutMs = CHAT_ACK_TIMEOUT_MS,
  ) {
    this.#link = link;
    this.#onChange = events.onChange;
    this.#onIncoming = events.onIncoming ?? (() => {});
    this.#timeoutMs = timeoutMs;
  }

  /** Whether the customer can write now: a technician joined (`device:state`) and the link connected. */
  get available(): boolean {
    return !this.#closed && this.#link.phase === "connected" && Boolean(this.#link.state?.technicianName);
  }

  /** What the views show (a fresh object; its `lines` array is not changed afterwards). */
  get model(): ChatModel {
    return { lines: this.#lines, available: this.available, sending: this.#sending, error: this.#error };
  }

  /** Starts listening to the server's `device:chat`. */
  start(): void {
    this.#link.socket.on("device:chat", this.#listener);
  }

  /**
   * Sends `text` as the customer (issue 38 §1). Resolves once the server answered, refused, or did not answer
   * within the timeout; never rejects. A refusal's French sentence is also kept in `model.error`.
   */
  async send(text: string): Promise<ChatSendResult> {
    if (this.#sending) return { ok: false, message: CHAT_TEXTS.sending };
    const refused = (message: string): ChatSendResult => {
      this.#error = message;
      this.#onChange();
      return { ok: false, message };
    };
    if (!this.available) return refused(CHAT_MESSAGES.notConnected);
    const checked = ChatText.safeParse(text);
    if (!checked.success) return refused(checked.error.issues[0]?.message ?? CHAT_MESSAGES.invalid);
    if (!this.#link.socket.connected) return refused(CHAT_TEXTS.offline);
    this.#sending = true;
    this.#error = null;
    this.#onChange();
    let ack: ChatAck;
    try {
      ack = await new Promise<ChatAck>((resolve) =>
        this.#link.socket
          .timeout(this.#timeoutMs)
          .emit("device:chat", { text: checked.data }, (error: Error | null, result: ChatAck) =>
            resolve(error || !result ? { ok: false, message: CHAT_MESSAGES.failed } : result),
          ),
      );
    } finally {
      this.#sending = false;
    }
    if (!ack.ok) return refused(typeof ack.message === "string" ? ack.message : CHAT_MESSAGES.failed);
    // The stored line, as the server answered it (untrusted as any input); else the text sent, as sent.
    const line = chatLineOf(ack.line) ?? {
      id: `local-${Date.now()}`,
      from: "customer" as const,
      name: null,
      text: checked.data,
      at: new Date().toISOString(),
    };
    this.#add({ ...line, from: "customer" });
    this.#onChange();
    return { ok: true };
  }

  /** Stops listening; later sends are refused. */
  close(): void {
    this.#closed = true;
    this.#link.socket.off("device:chat", this.#listener);
  }

  #receive(payload: unknown): void {
    const line = chatLineOf(payload);
    // The server checked the text already; the app checks again (typable text only), being what shows it.
    if (!line || line.from !== "technician" || !ChatText.safeParse(line.text).success || this.#closed) return;
    if (!this.#add(line)) return;
    this.#onChange();
    this.#onIncoming(line);
  }

  /** Adds `line` unless a line with its id is there; keeps the last `CHAT_HISTORY`. */
  #add(line: ChatLine): boolean {
    if (this.#lines.some((known) => known.id === line.id)) return false;
    this.#lines = [...this.#lines, line].slice(-CHAT_HISTORY);
    return true;
  }
}

/** The time of a line as the views show it: "14:05" (local time), or "" when `at` is not a date. */
export function chatTime(at: string): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return "";
  return `${String(date.getHours()).padStart(2, "0")}:${String(date.getMinutes()).padStart(2, "0")}`;
}

/** Who wrote a line, as the views name them: "Julien (technicien)", "Le technicien", or "Vous". */
export function chatAuthor(line: ChatLine): string {
  if (line.from === "customer") return "Vous";
  return line.name ? `${line.name} (technicien)` : "Le technicien";
}

/**
 * A line's text for a terminal or a one-line label: tabs and carriage returns become spaces, C1 controls and
 * direction overrides (which a terminal or a label would obey) are removed; line feeds are kept.
 */
export function chatDisplayText(text: string): string {
  return text.replace(/[\t\r]/g, " ").replace(UNPRINTABLE, "");
}

// C0 controls but line feed, DEL, C1 controls (U+009B is a terminal's CSI), direction embeddings and isolates.
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;
