/**
 * The terminal interface (issues 15, 26; an `AppView` since issue 27): the
 * screen of `ui.ts` redrawn in place, the first question on one line
 * (readline), and single keys while the session runs: V shows or hides the
 * screen, C allows control, R takes it back, P sends the clipboard (when
 * wired), A relaunches as administrator when the technician asked (issue 36 §4), Ctrl+C stops. When stdin is not a terminal (a pipe: a launcher, a
 * test), the same letters are read a line at a time; signals still stop the
 * app. Also the last fallback of `choose.ts`.
 */
import { createInterface } from "node:readline";
import { type Output, type ScreenModel, TerminalView } from "../ui.ts";
import { START_TEXTS } from "./texts.ts";
import type { AppView, ViewActions, ViewHooks } from "./view.ts";

/** The terminal input: process.stdin or a test double. */
export type Input = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };

const ETX = "\u0003"; // Ctrl+C in raw mode

/** The terminal as an `AppView`; `stderr` receives fatal errors (`fail`). */
export class TerminalAppView implements AppView {
  readonly kind = "terminal" as const;
  readonly #stdin: Input;
  readonly #stdout: Output;
  readonly #stderr: Output;
  readonly #hooks: ViewHooks;
  readonly #screen: TerminalView;

  constructor(io: { stdin: Input; stdout: Output; stderr: Output }, hooks: ViewHooks) {
    this.#stdin = io.stdin;
    this.#stdout = io.stdout;
    this.#stderr = io.stderr;
    this.#hooks = hooks;
    this.#screen = new TerminalView(io.stdout);
  }

  askStart(): Promise<string | null> {
    return promptStart(this.#stdin, this.#stdout, () => this.#hooks.onClose());
  }

  tell(message: string): void {
    this.#stdout.write(`${message}\n`);
  }

  draw(model: ScreenModel): void {
    this.#screen.draw(model);
  }

  listen(actions: ViewActions): () => void {
    return listenKeys(this.#stdin, actions);
  }

  say(text: string): void {
    this.#screen.say(text);
  }

  fail(message: string): void {
    this.#stderr.write(`${message}\n`);
  }

  async close(_linger: boolean): Promise<void> {}
}

/** Asks for the name or a pairing code on the terminal; null when input ends (Ctrl+D, no terminal) or Ctrl+C. */
export function promptStart(stdin: Input, stdout: Output, onInterrupt: () => void): Promise<string | null> {
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
    stdout.write(
      "\nSi la page de votre session sur notre site affiche un code d'appairage (ex. ACDE-3479), tapez-le ici.\n" +
        "Sinon, tapez votre prénom (facultatif) et appuyez sur Entrée : un code de session va s'afficher.\n",
    );
    rl.question(`${START_TEXTS.label} : `, (answer) => {
      answered = true;
      rl.close();
      resolve(answer);
    });
  });
}

/**
 * Reads single keys (raw mode) while the session runs (see the module
 * comment). Returns a function restoring the terminal.
 */
export function listenKeys(stdin: Input, actions: ViewActions): () => void {
  const raw = Boolean(stdin.isTTY && stdin.setRawMode);
  if (raw) stdin.setRawMode?.(true);
  const onData = (chunk: Buffer | string) => {
    const text = chunk.toString();
    if (text.includes(ETX)) actions.stop();
    else if (/v/i.test(text)) actions.view();
    else if (/c/i.test(text)) actions.allowControl();
    else if (/r/i.test(text)) actions.withdraw();
    else if (/p/i.test(text)) actions.sendClipboard?.();
    else if (/a/i.test(text)) actions.elevate?.();
  };
  stdin.on("data", onData);
  stdin.resume();
  return () => {
    stdin.off("data", onData);
    if (raw) stdin.setRawMode?.(false);
    stdin.pause();
  };
}
