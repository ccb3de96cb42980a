/**
 * What the desktop app needs of an interface (issue 27, "The window"): the
 * terminal (`terminal.ts`), the window (`window.ts`, a webview in a second
 * process) and the zenity dialogs (`zenity.ts`) all implement `AppView`, and
 * `app.ts` drives whichever `choose.ts` picked without knowing which.
 */
import type { ChatLine } from "#app/remote-support/chat-protocol.ts";
import type { ScreenModel } from "../ui.ts";
import type { FactsChoice } from "../facts/consent.ts";
import type { StartTyped } from "../start-answer.ts";

/** The interfaces, as `--interface` names them. */
export type InterfaceKind = "fenetre" | "zenity" | "terminal";
export const INTERFACE_KINDS: readonly InterfaceKind[] = ["fenetre", "zenity", "terminal"];

/**
 * What the customer can ask for while the session runs: the terminal's keys
 * (V, C, R, P, A, M, Ctrl+C) and the window's buttons call the same functions.
 * `sendClipboard` exists once the clipboard transfer is wired (issue 27).
 */
export type ViewActions = {
  view(): void;
  allowControl(): void;
  withdraw(): void;
  stop(): void;
  sendClipboard?(): void;
  /** Issue 36 §4: the customer accepts to relaunch the app as administrator (key A, a button, a dialog). */
  elevate?(): void;
  /** Issue 36 §4: the customer declines it (a dialog's « Refuser »). */
  declineElevation?(): void;
  /** Issue 38 §3: the customer accepts the technician's restart of the computer (key O, a button, a dialog). */
  acceptReboot?(): void;
  /** Issue 38 §3: the customer declines it (key N, a button, a dialog). */
  declineReboot?(): void;
  /**
   * Issue 38 §1: sends the customer's message to the technician (« Envoyer », the terminal's line after M,
   * zenity's answer). Resolves true once the server stored it, false when refused (the French reason is then in
   * the model's `chat.error`); never rejects.
   */
  sendChat?(text: string): Promise<boolean>;
  /**
   * Issue 38 §2 (`files/transfers.ts`): answers the file question shown (the « fichiers » permission, or a file
   * offered): the window's « Accepter »/« Refuser », the terminal's O/N, zenity's question. False when none waited.
   */
  answerFile?(accept: boolean): boolean;
  /** Issue 38 §2: sends the file at `path` (typed) to the technician; without one, opens the system's chooser. */
  sendFile?(path?: string): void;
  /** Issue 38 §2: cancels transfer `id` (default: the first under way); its partial file is removed. */
  cancelFile?(id?: string): void;
  /** Issue 38 §2: shows the Downloads folder, where received files are saved. */
  openFolder?(): void;
};

/** Given to a view when it opens: how it reports that the customer closed it (a stop, as Ctrl+C). */
export type ViewHooks = { onClose(): void };

export interface AppView {
  readonly kind: InterfaceKind;
  /**
   * Asks the customer's first name or a pairing code (`readStartAnswer`
   * reads the answer). Resolves with the text typed (maybe empty) and its field (issue 40: the first name's, or the
   * pairing code's the customer opened with « J'ai un code d'appairage »), or null
   * when the customer closed or cancelled (the view then called `onClose`)
   * or input ended. Issue 38 §4: `facts` (`facts/consent.ts`), the box « Envoyer les informations de l'ordinateur
   * au technicien », shown as `facts.send` says and set to the customer's answer before resolving.
   */
  askStart(facts?: FactsChoice): Promise<StartTyped | null>;
  /** A short message before the session exists (a refused code, a typing mistake), shown with the next question. */
  tell(message: string): void;
  /** Shows the model (called on every change; a view skips what did not change). */
  draw(model: ScreenModel): void;
  /**
   * Issue 38 §1: a technician's new message arrived (already in the model drawn just before): the view makes it
   * noticeable (the terminal rings, the window marks its title, zenity opens a dialog to read and answer it).
   */
  chatReceived?(line: ChatLine): void;
  /** Starts taking the customer's requests; returns a function that stops it. */
  listen(actions: ViewActions): () => void;
  /** The last words once the app stops (the link is closed, control withdrawn). */
  say(text: string): void;
  /** An error that ends the app (network, refused code…): the terminal writes it to stderr, the window shows it. */
  fail(message: string): void;
  /**
   * Closes the interface. `linger`: the app stopped by itself (the session
   * ended, an error), not at the customer's request: a window then keeps its
   * last words until the customer closes it (bounded); otherwise it goes at once.
   */
  close(linger: boolean): Promise<void>;
}
