/**
 * Issue 38 §1, the session chat in zenity's interface: each technician's message opens a `zenity --entry` dialog
 * (its own process, beside the status and consent dialogs, so nothing else waits for it) showing the message and
 * a field for the answer: « Envoyer » sends it, « Fermer » (or closing) answers nothing. Messages that arrive while
 * the dialog is open are shown by the next one, opened when it closes. A refused answer (the server's rate, a lost
 * link) opens the dialog again with the reason and the text typed, to send again or drop.
 *
 * Limitation: zenity takes its text as an argument, so the technician's message is on the dialog process's
 * command line while the dialog is open (readable by other accounts of this computer through `ps`).
 */
import type { ChildProcess } from "node:child_process";
import type { ChatLine } from "#app/remote-support/chat-protocol.ts";
import { CHAT_LABELS, zenityChatText } from "./chat-texts.ts";

/** A zenity run: its process and its outcome (exit code, standard output). */
export type ZenityRun = { child: ChildProcess; done: Promise<{ code: number | null; output: string }> };

/** What the chat dialogs need of `ZenityAppView`. */
export type ZenityChatOptions = {
  /** Starts zenity with `args`. */
  run(args: string[]): ZenityRun;
  /** The dialog's title. */
  title: string;
  /** Text → Pango markup (zenity's labels read markup). */
  escape(text: string): string;
  /** Sends the customer's answer (`ViewActions.sendChat`); undefined until the app listens. */
  send(): ((text: string) => Promise<boolean>) | undefined;
  /** Why the last send failed (the model's `chat.error`). */
  error(): string | null;
};

/** How many messages one dialog shows at most (the newest). */
const DIALOG_LINES = 5;

/** The chat dialogs of one zenity interface (see the module comment). */
export class ZenityChat {
  readonly #options: ZenityChatOptions;
  #waiting: ChatLine[] = [];
  #dialog: ChildProcess | null = null;
  #closed = false;

  constructor(options: ZenityChatOptions) {
    this.#options = options;
  }

  /** A technician's message: shown now, or by the next dialog if one is open. */
  received(line: ChatLine): void {
    if (this.#closed) return;
    this.#waiting.push(line);
    this.#waiting = this.#waiting.slice(-DIALOG_LINES);
    if (!this.#dialog) this.#next();
  }

  /** Closes the open dialog; no other opens (the app stops). */
  close(): void {
    this.#closed = true;
    this.#dialog?.kill();
    this.#dialog = null;
  }

  #next(): void {
    const lines = this.#waiting;
    this.#waiting = [];
    if (lines.length > 0) this.#open(lines, null, "");
  }

  /** Shows `lines` with `error` (a refused answer) and the field holding `draft`. */
  #open(lines: ChatLine[], error: string | null, draft: string): void {
    const run = this.#options.run([
      "--entry",
      `--title=${this.#options.title}`,
      `--text=${this.#options.escape(zenityChatText(lines, error))}`,
      `--ok-label=${CHAT_LABELS.send}`,
      "--cancel-label=Fermer",
      "--width=460",
      ...(draft ? [`--entry-text=${draft}`] : []),
    ]);
    const child = run.child;
    this.#dialog = child;
    void run.done.then(async ({ code, output }) => {
      if (this.#dialog !== child || this.#closed) return;
      const text = output.replace(/\r?\n$/, "");
      const send = this.#options.send();
      if (code === 0 && text.trim() && send && !(await send(text)) && !this.#closed) {
        return this.#open(lines, this.#options.error(), text);
      }
      this.#dialog = null;
      if (!this.#closed) this.#next();
    });
  }
}
