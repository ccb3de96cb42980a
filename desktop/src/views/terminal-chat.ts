/**
 * Issue 38 §1, the terminal's answer line: after M, what the customer types goes into a one-line draft (shown in
 * the redrawn screen by `ui.ts`) instead of being read as keys; Entrée sends it, Échap (or an empty line) cancels,
 * Retour arrière erases. In a terminal (raw mode) the keys come one at a time; through a pipe, the line after the
 * one holding M is the message. The draft is never written anywhere but the screen.
 */
import { CHAT_MAX_CHARS } from "#app/remote-support/protocol.ts";

/** What the composer reports: the draft changed (null: no longer writing), or a line to send. */
export type ComposerEvents = { onDraft(draft: string | null): void; onSend(text: string): void };

const ESC = "\u001b";

/** One terminal's answer line (see the module comment). */
export class ChatComposer {
  readonly #events: ComposerEvents;
  readonly #raw: boolean;
  #draft: string | null = null;

  /** `raw`: stdin is a terminal in raw mode (keys one at a time), else a pipe (lines). */
  constructor(raw: boolean, events: ComposerEvents) {
    this.#raw = raw;
    this.#events = events;
  }

  /** Whether the customer is writing a message now (keys go to the draft). */
  get composing(): boolean {
    return this.#draft !== null;
  }

  /**
   * Starts writing, `text` being what came after the M in the same chunk (through a pipe, the rest of M's line
   * is dropped). @returns what is left of `text` once the message was sent or cancelled (keys to read as keys).
   */
  begin(text: string): string {
    this.#draft = "";
    this.#events.onDraft(this.#draft);
    if (this.#raw) return this.feed(text);
    const newline = text.indexOf("\n");
    return newline < 0 ? "" : this.feed(text.slice(newline + 1));
  }

  /**
   * Types `text` into the draft. @returns what follows the Entrée (or the Échap) that ended the message, to be
   * read as keys, or "" while the customer is still writing.
   */
  feed(text: string): string {
    let draft = this.#draft ?? "";
    const characters = [...text];
    for (let index = 0; index < characters.length; index++) {
      const character = characters[index]!;
      if (character === "\r" || character === "\n") {
        this.#end();
        if (draft.trim()) this.#events.onSend(draft);
        const rest = characters.slice(index + 1).join("");
        return character === "\r" && rest.startsWith("\n") ? rest.slice(1) : rest;
      }
      if (character === ESC) {
        // Alone: the Échap key, a cancel. Followed by more: an arrow or function key's sequence, ignored.
        if (index === characters.length - 1) {
          this.#end();
          return "";
        }
        break;
      }
      if (character === "\u007f" || character === "\b") draft = [...draft].slice(0, -1).join("");
      else if (character === "\t") draft += " ";
      else if (character >= " " && [...draft].length < CHAT_MAX_CHARS) draft += character;
    }
    this.#draft = draft;
    this.#events.onDraft(draft);
    return "";
  }

  /** Stops writing without sending (the app stops). */
  cancel(): void {
    if (this.#draft !== null) this.#end();
  }

  #end(): void {
    this.#draft = null;
    this.#events.onDraft(null);
  }
}
