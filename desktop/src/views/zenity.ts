/**
 * The zenity interface (issue 27, "The window": the fallback on Linux when
 * the webview library cannot load, e.g. no WebKitGTK 6): a few GTK dialogs
 * of the `zenity` program, each a process of its own.
 * - The first question: `zenity --entry` « Votre prénom » (« Démarrer » / « Annuler »), issue 40: « J'ai un code
 *   d'appairage » opens the pairing code's entry (`zenity-start.ts`); issue 38 §4: then `zenity --question`
 *   « Envoyer les informations de l'ordinateur au technicien ? » (« Envoyer », the default / « Ne pas envoyer »).
 * - The status: `zenity --progress --pulsate`, its text rewritten through
 *   its stdin (`#…` lines): the link, the session code, who is there; its
 *   button is « Arrêter l'assistance » (closing it stops too).
 * - Consent: a `zenity --question` when a technician is there and could see
 *   the screen (« Autoriser à voir l'écran »), and each time the technician
 *   asks for control (« Autoriser le contrôle »).
 * - Issue 36 §4: a `zenity --question` each time the technician asks to relaunch the app as administrator
 *   (« Relancer en administrateur » / « Refuser »).
 * - The sign while the technician sees or controls: a `zenity --info` saying
 *   so, whose buttons take control back or stop showing the screen (and send
 *   the clipboard when possible).
 * - Issue 38 §1: each technician's message in a `zenity --entry` of its own, to read and answer
 *   (`zenity-chat.ts`); the status dialog says the last messages' count and a refused answer.
 * - Issue 38 §2: a `zenity --question` for the « fichiers » permission and each file offered
 *   (`files/zenity-files.ts`); each transfer's line in the status dialog; `--file-selection` to send one.
 * The texts come from `texts.ts`, as in the terminal and the window.
 */
import { spawn, type ChildProcess } from "node:child_process";
import type { ChatLine } from "#app/remote-support/chat-protocol.ts";
import { type ScreenModel, waitingLines } from "../ui.ts";
import { REBOOT_TEXTS, rebootLines } from "../reboot/reboot-texts.ts";
import { APP_NAME } from "../version.ts";
import { formatSessionCode } from "#app/remote-support/protocol.ts";
import type { StartTyped } from "../start-answer.ts";
import { askStartEntries } from "./zenity-start.ts";
import {
  availableActions,
  BUTTON_LABELS,
  CODE_HINT,
  controlLine,
  ELEVATION_TEXTS,
  elevationLines,
  FINAL_PHASES,
  joinedLine,
  PHASE_TEXT,
  problems,
  signText,
  technicianOf,
  viewLines,
} from "./texts.ts";
import type { AppView, ViewActions, ViewHooks } from "./view.ts";
import { CHAT_LABELS, shownChat } from "./chat-texts.ts";
import { ZenityChat } from "./zenity-chat.ts";
import { zenityFileLines } from "../files/file-texts.ts";
import { ZenityFiles } from "../files/zenity-files.ts";
import { FACTS_CONSENT_TEXTS, type FactsChoice } from "../facts/consent.ts";

/** The dialogs' titles (tests find the dialogs by them). */
export const ZENITY_TITLES = {
  start: `${APP_NAME} — Démarrer`,
  /** Issue 40: the pairing code's entry, behind « J'ai un code d'appairage ». */
  pairing: `${APP_NAME} — Code d'appairage`,
  /** Issue 38 §4: « Envoyer les informations de l'ordinateur au technicien ? » after the first question. */
  facts: `${APP_NAME} — Informations`,
  status: APP_NAME,
  view: `${APP_NAME} — Écran`,
  control: `${APP_NAME} — Contrôle`,
  elevate: `${APP_NAME} — Administrateur`,
  /** Issue 38 §3. */
  reboot: `${APP_NAME} — ${REBOOT_TEXTS.title}`,
  sign: `${APP_NAME} — En cours`,
  /** Issue 38 §1: a technician's message, with the field to answer. */
  chat: `${APP_NAME} — Message du technicien`,
  /** Issue 38 §2: the « fichiers » permission and each file offered. */
  files: `${APP_NAME} — Fichiers`,
  end: `${APP_NAME} — Fin`,
} as const;

/** Issue 38 §4: the question after the first one, « Envoyer » by default (`facts/consent.ts`). */
export function factsQuestion(): string[] {
  return [
    "--question",
    `--title=${ZENITY_TITLES.facts}`,
    `--text=${escapeMarkup(`${FACTS_CONSENT_TEXTS.question}\n\n${FACTS_CONSENT_TEXTS.detail}`)}`,
    `--ok-label=${FACTS_CONSENT_TEXTS.send}`,
    `--cancel-label=${FACTS_CONSENT_TEXTS.refuse}`,
    "--width=460",
  ];
}

/** Text for a zenity label, which reads Pango markup. */
export function escapeMarkup(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The status dialog's text for a model (markup). */
export function zenityStatus(model: ScreenModel): string {
  const lines = [escapeMarkup(PHASE_TEXT[model.phase])];
  const technician = technicianOf(model);
  const joined = joinedLine(model);
  if (model.sessionCode && !joined && !FINAL_PHASES.has(model.phase)) {
    lines.push("", escapeMarkup(CODE_HINT));
    lines.push(`<span size="xx-large" weight="bold">${escapeMarkup(formatSessionCode(model.sessionCode))}</span>`);
  }
  const waiting = waitingLines(model);
  if (waiting.length > 0) lines.push("", ...waiting.map(escapeMarkup));
  const state = model.state;
  if (state) {
    lines.push("", escapeMarkup(joined ?? "En attente du technicien…"));
    for (const line of viewLines(model, technician)) lines.push(escapeMarkup(line));
    lines.push(escapeMarkup(controlLine(state, model.withdrawnHere, "buttons")));
    for (const line of elevationLines(model, false)) lines.push(escapeMarkup(line));
    for (const line of rebootLines(model, false)) lines.push(escapeMarkup(line));
  }
  for (const { title, reason } of problems(model)) lines.push("", escapeMarkup(`⚠ ${title} ${reason}`));
  for (const notice of model.notices) lines.push(escapeMarkup(`• ${notice}`));
  // Issue 38 §1: the messages come in dialogs of their own; here only how many and a refused answer.
  const chat = shownChat(model);
  if (chat) {
    const received = chat.lines.filter((line) => line.from === "technician").length;
    if (received > 0) lines.push("", escapeMarkup(`${CHAT_LABELS.heading} du technicien reçus : ${received}`));
    if (chat.error) lines.push(escapeMarkup(`⚠ ${chat.error}`));
  }
  // Issue 38 §2: each transfer's line (the questions come in dialogs of their own, `files/zenity-files.ts`).
  const files = zenityFileLines(model.files);
  if (files.length > 0) lines.push("", ...files.map(escapeMarkup));
  return lines.join("\n");
}

type Dialog = { key: string; child: ChildProcess; superseded: boolean };
type Answer = { code: number | null; output: string };

export class ZenityAppView implements AppView {
  readonly kind = "zenity" as const;
  readonly #zenity: string;
  readonly #env: NodeJS.ProcessEnv;
  readonly #hooks: ViewHooks;
  readonly #stderr: { write(text: string): unknown };
  #error: string | null = null;
  /** Issue 40: the field of the last answer (`askStart`). */
  #field: StartTyped["field"] = "name";
  #status: ChildProcess | null = null;
  #statusText = "";
  #dialog: Dialog | null = null;
  #actions: ViewActions | null = null;
  #model: ScreenModel | null = null;
  /** Questions already answered (by key), not asked again. */
  readonly #answered = new Set<string>();
  #controlRequests = 0;
  #requested = false;
  /** Issue 36 §4: how many times the technician asked to relaunch as administrator. */
  #elevationRequests = 0;
  #elevationAsked = false;
  /** Issue 38 §3: how many times the technician asked to restart the computer. */
  #rebootRequests = 0;
  #rebootAsked = false;
  #stopped = false;
  readonly #chat: ZenityChat;
  readonly #files: ZenityFiles;

  constructor(zenity: string, env: NodeJS.ProcessEnv, hooks: ViewHooks, stderr: { write(text: string): unknown }) {
    this.#zenity = zenity;
    this.#env = env;
    this.#hooks = hooks;
    this.#stderr = stderr;
    this.#chat = new ZenityChat({
      run: (args) => this.#run(args),
      title: ZENITY_TITLES.chat,
      escape: escapeMarkup,
      send: () => this.#actions?.sendChat,
      error: () => this.#model?.chat?.error ?? null,
    });
    this.#files = new ZenityFiles({ run: (args) => this.#run(args), title: ZENITY_TITLES.files, escape: escapeMarkup });
  }

  async askStart(facts?: FactsChoice): Promise<StartTyped | null> {
    const titles = { name: ZENITY_TITLES.start, code: ZENITY_TITLES.pairing };
    // Issue 40: a refused code is asked again in the pairing code's entry.
    const field = this.#error ? this.#field : "name";
    const answer = await askStartEntries((args) => this.#run(args), titles, this.#error, field, escapeMarkup);
    this.#error = null;
    if (!answer) {
      this.#hooks.onClose();
      return null;
    }
    this.#field = answer.field;
    // Issue 38 §4: « Envoyer » (the default button) keeps the box ticked; « Ne pas envoyer » or closing unticks it.
    if (facts?.send) facts.send = (await this.#run(factsQuestion()).done).code === 0;
    return answer;
  }

  tell(message: string): void {
    this.#error = message;
  }

  draw(model: ScreenModel): void {
    this.#model = model;
    if (this.#stopped) return;
    this.#showStatus(zenityStatus(model));
    this.#updateDialog(model);
    this.#updateFiles(model);
  }

  /** Issue 38 §2: the file question of the model, in a dialog of its own. */
  #updateFiles(model: ScreenModel): void {
    const actions = this.#actions;
    this.#files.update(model.files, actions?.answerFile && ((accept) => actions.answerFile?.(accept) ?? false));
  }

  /** Issue 38 §1: a dialog shows the technician's message and takes the answer. */
  chatReceived(line: ChatLine): void {
    if (!this.#stopped) this.#chat.received(line);
  }

  listen(actions: ViewActions): () => void {
    this.#actions = actions;
    if (this.#model) this.#updateDialog(this.#model);
    if (this.#model) this.#updateFiles(this.#model);
    return () => {
      this.#actions = null;
    };
  }

  say(text: string): void {
    this.#stopped = true;
    this.#chat.close();
    this.#files.close();
    this.#closeDialog();
    this.#status?.kill();
    this.#status = null;
    this.#run(["--info", `--title=${ZENITY_TITLES.end}`, `--text=${escapeMarkup(text)}`, "--ok-label=Fermer"]);
  }

  fail(message: string): void {
    this.#stderr.write(`${message}\n`);
    this.#stopped = true;
    this.#run(["--error", `--title=${ZENITY_TITLES.end}`, `--text=${escapeMarkup(message)}`, "--ok-label=Fermer"]);
  }

  async close(_linger: boolean): Promise<void> {
    this.#stopped = true;
    this.#chat.close();
    this.#files.close();
    this.#closeDialog();
    this.#status?.kill();
    this.#status = null;
  }

  /** The status dialog, started once and then rewritten through its stdin. */
  #showStatus(text: string): void {
    if (text === this.#statusText) return;
    this.#statusText = text;
    if (!this.#status) {
      const run = this.#run([
        "--progress",
        "--pulsate",
        `--title=${ZENITY_TITLES.status}`,
        `--text=${text}`,
        `--cancel-label=${BUTTON_LABELS.stop}`,
        "--width=460",
      ]);
      this.#status = run.child;
      run.done.then(() => {
        if (this.#status === run.child) this.#status = null;
        // « Arrêter l'assistance », or the dialog closed: a stop.
        if (!this.#stopped) this.#hooks.onClose();
      });
      return;
    }
    // A `#` line replaces the text; a label cannot hold a line break there, so each line becomes a space.
    this.#status.stdin?.write(`#${text.replace(/\n+/g, "   ")}\n`);
  }

  /** The one question or sign dialog the model calls for now, if any. */
  #updateDialog(model: ScreenModel): void {
    const actions = this.#actions;
    const state = model.state;
    if (state?.controlRequested && !this.#requested) this.#controlRequests += 1;
    this.#requested = Boolean(state?.controlRequested);
    if (model.elevation === "asked" && !this.#elevationAsked) this.#elevationRequests += 1;
    this.#elevationAsked = model.elevation === "asked";
    if (model.reboot === "asked" && !this.#rebootAsked) this.#rebootRequests += 1;
    this.#rebootAsked = model.reboot === "asked";
    const available = availableActions(model);
    const technician = technicianOf(model);
    let wanted: { key: string; args: string[]; answer: (answer: Answer) => void } | null = null;
    const sign = signText(model);
    if (!actions || !technician) wanted = null;
    else if (available.includes("elevate") && !this.#answered.has(`elevate-${this.#elevationRequests}`)) {
      wanted = {
        key: `elevate-${this.#elevationRequests}`,
        args: this.#question(
          ZENITY_TITLES.elevate,
          `${ELEVATION_TEXTS.asked} Windows vous demandera votre accord.`,
          BUTTON_LABELS.elevate,
          BUTTON_LABELS.declineElevation,
        ),
        answer: ({ code }) => (code === 0 ? actions.elevate?.() : actions.declineElevation?.()),
      };
    } else if (available.includes("acceptReboot") && !this.#answered.has(`reboot-${this.#rebootRequests}`)) {
      wanted = {
        key: `reboot-${this.#rebootRequests}`,
        args: this.#question(ZENITY_TITLES.reboot, REBOOT_TEXTS.asked, REBOOT_TEXTS.accept, REBOOT_TEXTS.decline),
        answer: ({ code }) => (code === 0 ? actions.acceptReboot?.() : actions.declineReboot?.()),
      };
    } else if (
      available.includes("control") &&
      state?.controlRequested &&
      !this.#answered.has(`control-${this.#controlRequests}`)
    ) {
      wanted = {
        key: `control-${this.#controlRequests}`,
        args: this.#question(
          ZENITY_TITLES.control,
          `${technician}, technicien, demande à contrôler votre souris et votre clavier.`,
          BUTTON_LABELS.control,
          "Refuser",
        ),
        answer: ({ code }) => code === 0 && actions.allowControl(),
      };
    } else if (available.includes("view") && !this.#answered.has(`view-${technician}`)) {
      wanted = {
        key: `view-${technician}`,
        args: this.#question(
          ZENITY_TITLES.view,
          `${technician}, technicien, voudrait voir votre écran.`,
          BUTTON_LABELS.view,
          "Pas maintenant",
        ),
        answer: ({ code }) => code === 0 && actions.view(),
      };
    } else if (sign) {
      const extra = [
        ...(available.includes("withdraw") && available.includes("hide") ? [BUTTON_LABELS.hide] : []),
        ...(available.includes("clipboard") ? [BUTTON_LABELS.clipboard] : []),
      ];
      const ok = available.includes("withdraw") ? BUTTON_LABELS.withdraw : BUTTON_LABELS.hide;
      wanted = {
        key: `sign-${sign}-${ok}-${extra.join("/")}`,
        args: [
          "--info",
          `--title=${ZENITY_TITLES.sign}`,
          `--text=${escapeMarkup(sign)}`,
          `--ok-label=${ok}`,
          ...extra.map((label) => `--extra-button=${label}`),
          "--width=420",
        ],
        answer: ({ code, output }) => {
          const pressed = code === 0 ? ok : output.trim();
          if (pressed === BUTTON_LABELS.withdraw) actions.withdraw();
          else if (pressed === BUTTON_LABELS.hide) actions.view();
          else if (pressed === BUTTON_LABELS.clipboard) actions.sendClipboard?.();
        },
      };
    }
    if (this.#dialog && this.#dialog.key === wanted?.key) return;
    this.#closeDialog();
    if (!wanted) return;
    const { key, answer } = wanted;
    const run = this.#run(wanted.args);
    const dialog: Dialog = { key, child: run.child, superseded: false };
    this.#dialog = dialog;
    run.done.then((result) => {
      if (dialog.superseded) return;
      this.#dialog = null;
      if (!key.startsWith("sign-")) this.#answered.add(key);
      answer(result);
      if (this.#model && !this.#stopped) this.#updateDialog(this.#model);
    });
  }

  #question(title: string, text: string, ok: string, cancel: string): string[] {
    return [
      "--question",
      `--title=${title}`,
      `--text=${escapeMarkup(text)}`,
      `--ok-label=${ok}`,
      `--cancel-label=${cancel}`,
      "--width=420",
    ];
  }

  #closeDialog(): void {
    if (!this.#dialog) return;
    this.#dialog.superseded = true;
    this.#dialog.child.kill();
    this.#dialog = null;
  }

  #run(args: string[]): { child: ChildProcess; done: Promise<Answer> } {
    const child = spawn(this.#zenity, args, { env: this.#env, stdio: ["pipe", "pipe", "ignore"] });
    child.stdin?.on("error", () => {});
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const done = new Promise<Answer>((resolve) => {
      child.once("error", () => resolve({ code: null, output }));
      child.once("close", (code) => resolve({ code, output }));
    });
    return { child, done };
  }
}
