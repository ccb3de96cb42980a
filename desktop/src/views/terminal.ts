/**
 * The terminal interface (issues 15, 26; an `AppView` since issue 27): the
 * screen of `ui.ts` redrawn in place, the first question on one line
 * (readline), and single keys while the session runs: V shows or hides the
 * screen, C allows control, R takes it back, P sends the clipboard (when
 * wired), A relaunches as administrator when the technician asked (issue 36 §4), Ctrl+C stops. When stdin is not a terminal (a pipe: a launcher, a
 * test), the same letters are read a line at a time; signals still stop the
 * app. Also the last fallback of `choose.ts`.
 * Issue 38 §1: M (once a technician is joined) starts a line of message to the technician, typed into the
 * redrawn screen (`terminal-chat.ts`) and sent with Entrée; a technician's message rings the terminal's bell.
 * Issue 38 §2: O/N answer a file question (before the restart's), F starts the path of a file to send (typed like
 * a message, Entrée sends it), X cancels the transfer under way, D opens the Downloads folder.
 */
import { createInterface } from "node:readline";
import { type Output, type ScreenModel, TerminalView } from "../ui.ts";
import { START_TEXTS } from "./texts.ts";
import { ChatComposer } from "./terminal-chat.ts";
import type { AppView, ViewActions, ViewHooks } from "./view.ts";
import { FACTS_CONSENT_TEXTS, type FactsChoice } from "../facts/consent.ts";
import type { StartTyped } from "../start-answer.ts";

/** The terminal input: process.stdin or a test double. */
export type Input = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };

const ETX = "\u0003"; // Ctrl+C in raw mode
const BELL = "\u0007";

/** The terminal as an `AppView`; `stderr` receives fatal errors (`fail`). */
export class TerminalAppView implements AppView {
  readonly kind = "terminal" as const;
  readonly #stdin: Input;
  readonly #stdout: Output;
  readonly #stderr: Output;
  readonly #hooks: ViewHooks;
  readonly #screen: TerminalView;
  #model: ScreenModel | null = null;
  /** Issue 38 §1: the message being typed after M, null when the customer is not writing. */
  #draft: string | null = null;
  /** Issue 38 §2: the path being typed after F, null when the customer is not typing one. */
  #fileDraft: string | null = null;

  constructor(io: { stdin: Input; stdout: Output; stderr: Output }, hooks: ViewHooks) {
    this.#stdin = io.stdin;
    this.#stdout = io.stdout;
    this.#stderr = io.stderr;
    this.#hooks = hooks;
    this.#screen = new TerminalView(io.stdout);
  }

  async askStart(facts?: FactsChoice): Promise<StartTyped | null> {
    const text = await promptStart(this.#stdin, this.#stdout, () => this.#hooks.onClose(), facts);
    // One field here: the first name's, which takes a pairing code too (`readStartAnswer`).
    return text === null ? null : { text, field: "name" };
  }

  tell(message: string): void {
    this.#stdout.write(`${message}\n`);
  }

  draw(model: ScreenModel): void {
    this.#model = model;
    this.#screen.draw({ ...model, chatDraft: this.#draft, fileDraft: this.#fileDraft });
  }

  listen(actions: ViewActions): () => void {
    return listenKeys(
      this.#stdin,
      actions,
      {
        available: () => Boolean(this.#model?.chat?.available),
        onDraft: (draft) => {
          this.#draft = draft;
          if (this.#model) this.draw(this.#model);
        },
      },
      {
        available: () => Boolean(this.#model?.files?.available),
        onDraft: (draft) => {
          this.#fileDraft = draft;
          if (this.#model) this.draw(this.#model);
        },
      },
    );
  }

  /** Issue 38 §1: the bell, on a terminal (the message itself is in the screen drawn just before). */
  chatReceived(): void {
    if (this.#stdout.isTTY) this.#stdout.write(BELL);
  }

  say(text: string): void {
    this.#screen.say(text);
  }

  fail(message: string): void {
    this.#stderr.write(`${message}\n`);
  }

  async close(_linger: boolean): Promise<void> {}
}

/**
 * Asks for the name or a pairing code on the terminal; null when input ends (Ctrl+D, no terminal) or Ctrl+C.
 * Issue 38 §4: with `facts`, a line says whether the computer's facts will be sent, and how to refuse.
 * Issue 40: the question is « Votre prénom »; the pairing code, a line under it, is typed in its place.
 */
export function promptStart(
  stdin: Input,
  stdout: Output,
  onInterrupt: () => void,
  facts?: FactsChoice,
): Promise<string | null> {
  return new Promise((resolve) => {
    const rl = createInterface({
      input: stdin,
      output: stdout as NodeJS.WritableStream,
      terminal: Boolean(stdin.isTTY),
    });
    let answered = false;
    rl.on("SIGINT", () => {
      // readline swallows Ctrl+C while it reads: hand it on as a stop.
      onInterrupt();
      rl.close();
    });
    rl.on("close", () => {
      if (!answered) resolve(null);
    });
    // readline hands on its input's errors (Windows' unreadable fd 0: `launcher.ts`); unheard they end the app.
    rl.on("error", () => rl.close());
    stdout.write(
      "\nTapez votre prénom (facultatif) et appuyez sur Entrée : un code de session va s'afficher, à donner au " +
        "technicien.\n" +
        `${START_TEXTS.codeInstead}\n` +
        (facts ? `${facts.send ? FACTS_CONSENT_TEXTS.terminalOn : FACTS_CONSENT_TEXTS.terminalOff}\n` : ""),
    );
    rl.question(`${START_TEXTS.label} : `, (answer) => {
      answered = true;
      rl.close();
      resolve(answer);
    });
  });
}

/** Issue 38 §1: the answer line's hooks (`available`: M is offered now; `onDraft`: redraw with the draft). */
export type ChatKeys = { available(): boolean; onDraft(draft: string | null): void };

/**
 * Reads single keys (raw mode) while the session runs (see the module
 * comment); with `chat` (issue 38 §1), M starts a message. Returns a function restoring the terminal.
 */
export function listenKeys(stdin: Input, actions: ViewActions, chat?: ChatKeys, files?: ChatKeys): () => void {
  const raw = Boolean(stdin.isTTY && stdin.setRawMode);
  if (raw) stdin.setRawMode?.(true);
  const composer = chat
    ? new ChatComposer(raw, {
        onDraft: (draft) => chat.onDraft(draft),
        onSend: (text) => void actions.sendChat?.(text),
      })
    : null;
  // Issue 38 §2: after F, the path of the file to send, typed like a message.
  const paths = files
    ? new ChatComposer(raw, { onDraft: (draft) => files.onDraft(draft), onSend: (text) => actions.sendFile?.(text) })
    : null;
  /**
   * Hands `text` to the message or path being typed, else reads it as keys. From a pipe, the first line alone:
   * « f » and the path after it may come in one chunk, and a path or a message may hold any letter (the « m » of
   * « /tmp » started a message instead of sending the file).
   */
  const dispatch = (text: string): void => {
    if (!text) return;
    if (composer?.composing) return dispatch(composer.feed(text));
    if (paths?.composing) return dispatch(paths.feed(text));
    const end = raw ? -1 : text.indexOf("\n");
    if (end === -1 || end === text.length - 1) return onKeys(text);
    onKeys(text.slice(0, end + 1));
    dispatch(text.slice(end + 1));
  };
  const onData = (chunk: Buffer | string) => {
    const text = chunk.toString();
    if (!text.includes(ETX)) return dispatch(text);
    composer?.cancel();
    paths?.cancel();
    actions.stop();
  };
  const onKeys = (text: string): void => {
    if (!text) return;
    const letter = /m/i.exec(text);
    if (letter && composer && chat?.available() && !/[vcrpa]/i.test(text.slice(0, letter.index)))
      onKeys(composer.begin(text.slice(letter.index + 1)));
    else if (paths && files?.available() && /^[^vcrpam]*f/i.test(text))
      onKeys(paths.begin(text.slice(text.search(/f/i) + 1)));
    else if (/v/i.test(text)) actions.view();
    else if (/c/i.test(text)) actions.allowControl();
    else if (/r/i.test(text)) actions.withdraw();
    else if (/p/i.test(text)) actions.sendClipboard?.();
    else if (/a/i.test(text)) actions.elevate?.();
    // Issue 38 §3: N before O, so that a piped « non » declines.
    // Issue 38 §2: O/N answer a file question first (the permission, a file offered), else the restart's.
    else if (/n/i.test(text)) {
      if (!actions.answerFile?.(false)) actions.declineReboot?.();
    } else if (/o/i.test(text)) {
      if (!actions.answerFile?.(true)) actions.acceptReboot?.();
    } else if (/x/i.test(text)) actions.cancelFile?.();
    else if (/d/i.test(text)) actions.openFolder?.();
  };
  stdin.on("data", onData);
  stdin.resume();
  return () => {
    composer?.cancel();
    paths?.cancel();
    stdin.off("data", onData);
    if (raw) stdin.setRawMode?.(false);
    stdin.pause();
  };
}
