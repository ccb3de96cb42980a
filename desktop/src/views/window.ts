/**
 * The window as an `AppView`, on the main process's side (issue 27, "The
 * window"): starts the window process (`window-child.ts`: this executable
 * again with `--fenetre`, or Bun running the sources), sends it a
 * `WindowState` for every change and turns its lines into the app's actions.
 *
 * Closing the window (or the window process dying) stops the app exactly
 * like Ctrl+C (`ViewHooks.onClose`: consent withdrawn, keys released, exit).
 * Once the app has stopped for another reason (the session ended, an error),
 * the window shows the last words with « Fermer » and `close(true)` waits for
 * the customer to close it, `FINAL_WAIT_MS` at most; then the process is killed.
 *
 * Issue 38 §1: the page's « Envoyer » reaches `ViewActions.sendChat`; a technician's message arriving while the
 * window does not have the focus (as the page reports it) marks the title « (1) Nouveau message — … » until the
 * customer comes back to the window.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { NATIVE_FOLDER_ENV, nativeFolder } from "../native/private-folder.ts";
import type { ScreenModel } from "../ui.ts";
import type { AppView, ViewActions, ViewHooks } from "./view.ts";
import type { FactsChoice } from "../facts/consent.ts";
import type { StartTyped } from "../start-answer.ts";
import { applyFileEvent } from "../files/file-page.ts";
import {
  askingState,
  parseWindowEvent,
  startingState,
  type WindowEvent,
  type WindowState,
  windowState,
} from "./window-state.ts";

/** How long a final message stays up before the window is closed for the customer, in milliseconds. */
export const FINAL_WAIT_MS = 120_000;
/** How long the window may take to show its first state before the app gives up on it (WebKitGTK: 2–13 s). */
export const WINDOW_START_TIMEOUT_MS = 30_000;

export type WindowOptions = {
  /** The window process's command: `[executable, ...args]` (`launcher.ts`'s `windowCommand`). */
  command: readonly string[];
  env: NodeJS.ProcessEnv;
  hooks: ViewHooks;
  /** Where fatal errors are also written (the terminal, if any). */
  stderr: { write(text: string): unknown };
  startTimeoutMs?: number;
};

/** The environment of the window process: what made WebKitGTK ready in 2 s instead of 11–13 (decision 022). */
export function windowEnv(env: NodeJS.ProcessEnv, nativeFolderPath?: string): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env };
  // Issue 36 §1: the window writes its webview library into the app's folder, which the app removes at exit.
  if (nativeFolderPath) out[NATIVE_FOLDER_ENV] = nativeFolderPath;
  out.WEBKIT_DISABLE_DMABUF_RENDERER ??= "1";
  // The app controls X11 sessions only; an X11 window can be kept above the others (EWMH).
  if (env.DISPLAY && !env.GDK_BACKEND) out.GDK_BACKEND = "x11";
  return out;
}

/**
 * Starts the window and waits until it shows its first state. @returns the
 * view, or `{ unavailable }` with the French reason (no webview library, no
 * display, the process failed or was too slow) so that the caller falls back.
 */
export async function openWindow(options: WindowOptions): Promise<WindowAppView | { unavailable: string }> {
  const [file, ...args] = options.command;
  if (!file) return { unavailable: "Aucune commande pour la fenêtre." };
  let child: ChildProcess;
  try {
    // Both throw at once: no room in the temporary folder for the private folder, or a command spawn refuses.
    const env = windowEnv(options.env, nativeFolder().path());
    child = spawn(file, args, { env, stdio: ["pipe", "pipe", "pipe"] });
  } catch (error) {
    return {
      unavailable: `La fenêtre n'a pas pu démarrer (${error instanceof Error ? error.message : String(error)}).`,
    };
  }
  const view = new WindowAppView(child, options);
  const outcome = await view.started(options.startTimeoutMs ?? WINDOW_START_TIMEOUT_MS);
  if (outcome === "ready") return view;
  view.kill();
  return { unavailable: outcome.unavailable };
}

export class WindowAppView implements AppView {
  readonly kind = "fenetre" as const;
  readonly #child: ChildProcess;
  readonly #options: WindowOptions;
  readonly #listeners = new Set<(event: WindowEvent) => void>();
  readonly #exited: Promise<void>;
  #gone = false;
  #shown = false;
  #stopped = false;
  #sent = "";
  #model: ScreenModel | null = null;
  #error: string | null = null;
  #attempt = 0;
  /** Issue 40: the field of the last answer, shown first when the question comes again (a refused code). */
  #field: "name" | "code" = "name";
  #stderr = "";
  /** Issue 38 §1: whether the window has the keyboard focus (the page says so), the unread count, the accepted. */
  #focused = false;
  #unread = 0;
  #accepted = 0;

  constructor(child: ChildProcess, options: WindowOptions) {
    this.#child = child;
    this.#options = options;
    child.stdin?.on("error", () => {}); // EPIPE once the window is gone: its exit says so.
    child.stderr?.on("data", (chunk: Buffer) => (this.#stderr = (this.#stderr + chunk.toString()).slice(-2_000)));
    createInterface({ input: child.stdout! })
      .on("line", (line) => {
        const event = parseWindowEvent(line);
        if (event) for (const listener of this.#listeners) listener(event);
      })
      // A read error of the window's output: its exit follows and says so (`#exited`).
      .on("error", () => {});
    this.#exited = new Promise<void>((resolve) => {
      child.once("error", () => resolve());
      // "close", not "exit": its output is read to the end first, so a window that cannot open has said why
      // (issue 36: under Wine the exit came before the line saying WebView2 is missing).
      child.once("close", () => resolve());
    }).then(() => {
      this.#gone = true;
      // Closed by the customer (or crashed) while the app still runs: a stop, like Ctrl+C. A window that never
      // showed is not the customer's doing: the app falls back to another interface instead.
      if (this.#shown && !this.#stopped) options.hooks.onClose();
    });
    this.#send({ type: "state", state: startingState() });
  }

  /** Resolves with "ready" once the page showed a state, else why not. */
  started(timeoutMs: number): Promise<"ready" | { unavailable: string }> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish({ unavailable: "La fenêtre ne s'est pas ouverte à temps." }), timeoutMs);
      const finish = (outcome: "ready" | { unavailable: string }) => {
        clearTimeout(timer);
        this.#listeners.delete(listener);
        resolve(outcome);
      };
      const listener = (event: WindowEvent) => {
        if (event.type === "ready") {
          this.#shown = true;
          finish("ready");
        }
        if (event.type === "unavailable") finish({ unavailable: event.reason });
      };
      this.#listeners.add(listener);
      void this.#exited.then(() => {
        const detail = this.#stderr.trim().split("\n").at(-1) ?? "";
        finish({ unavailable: `La fenêtre s'est fermée au démarrage${detail ? ` (${detail})` : ""}.` });
      });
    });
  }

  askStart(facts?: FactsChoice): Promise<StartTyped | null> {
    this.#attempt += 1;
    this.#state(askingState(this.#error, this.#attempt, facts, this.#error ? this.#field : "name"));
    this.#error = null;
    return new Promise((resolve) => {
      const listener = (event: WindowEvent) => {
        if (event.type !== "start") return;
        this.#listeners.delete(listener);
        // Issue 38 §4: the customer's answer to « Envoyer les informations de l'ordinateur au technicien ».
        if (facts && typeof event.facts === "boolean") facts.send = event.facts;
        this.#field = event.field ?? "name";
        resolve({ text: event.text, field: this.#field });
      };
      this.#listeners.add(listener);
      void this.#exited.then(() => {
        this.#listeners.delete(listener);
        resolve(null);
      });
    });
  }

  tell(message: string): void {
    this.#error = message;
  }

  draw(model: ScreenModel): void {
    this.#model = model;
    if (!this.#stopped) this.#state(this.#windowState(model));
  }

  /** Issue 38 §1: a technician's message; marks the title while the window is not the one in use. */
  chatReceived(): void {
    if (this.#focused) return;
    this.#unread += 1;
    if (this.#model) this.draw(this.#model);
  }

  listen(actions: ViewActions): () => void {
    const listener = (event: WindowEvent) => {
      if (event.type === "chat") return this.#chat(actions, event.text, event.seq);
      if (event.type === "focus") return this.#focus(event.focused);
      if (event.type === "file") return applyFileEvent(actions, event);
      if (event.type !== "action") return;
      if (event.action === "view") actions.view();
      else if (event.action === "control") actions.allowControl();
      else if (event.action === "withdraw") actions.withdraw();
      else if (event.action === "clipboard") actions.sendClipboard?.();
      else if (event.action === "elevate") actions.elevate?.();
      else if (event.action === "acceptReboot") actions.acceptReboot?.();
      else if (event.action === "declineReboot") actions.declineReboot?.();
      else if (event.action === "stop") actions.stop();
    };
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  say(text: string): void {
    this.#stopped = true;
    this.#state(this.#model ? this.#windowState(this.#model, text) : { ...startingState(), status: text, ask: null });
  }

  fail(message: string): void {
    this.#options.stderr.write(`${message}\n`);
    this.say(message);
  }

  async close(linger: boolean): Promise<void> {
    this.#stopped = true;
    if (this.#gone) return;
    if (linger) {
      await Promise.race([this.#exited, new Promise((resolve) => setTimeout(resolve, FINAL_WAIT_MS).unref())]);
    }
    this.kill();
    await this.#exited;
  }

  /** Ends the window process at once. */
  kill(): void {
    this.#stopped = true;
    if (!this.#gone) this.#child.kill("SIGKILL");
  }

  /** Every event of the window process (tests, the benchmark). */
  onEvent(listener: (event: WindowEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #windowState(model: ScreenModel, finalText: string | null = null): WindowState {
    return windowState(model, finalText, { unread: this.#unread, accepted: this.#accepted });
  }

  /** « Envoyer »: the text to the app; once stored, the page empties its field (message `seq`). */
  #chat(actions: ViewActions, text: string, seq: number): void {
    void actions.sendChat?.(text).then((ok) => {
      if (!ok || seq <= this.#accepted) return;
      this.#accepted = seq;
      if (this.#model) this.draw(this.#model);
    });
  }

  #focus(focused: boolean): void {
    this.#focused = focused;
    if (!focused || this.#unread === 0) return;
    this.#unread = 0;
    if (this.#model) this.draw(this.#model);
  }

  #state(state: WindowState): void {
    const text = JSON.stringify(state);
    if (text === this.#sent) return;
    this.#sent = text;
    this.#send({ type: "state", state });
  }

  #send(message: { type: "state"; state: WindowState } | { type: "quit" }): void {
    if (!this.#gone) this.#child.stdin?.write(`${JSON.stringify(message)}\n`);
  }
}
