/**
 * The app's terminal interface (issue 15, "What the customer does"; issue 26):
 * plain French, redrawn whole on every change (no log flood): the session
 * code in large letters while nobody has joined, who is connected, whether
 * the technician sees the screen and controls it, the keys to allow and take
 * back, why something is impossible, how to stop. Every line is wrapped at
 * spaces to the terminal's width. Once stopped, only what happened remains.
 * Issue 38 §1: the last messages of the session chat, the line being typed after M, and the M key.
 * Issue 38 §2: the file question (O/N), each transfer's progress line, the path typed after F, the keys F, X, D.
 * `renderScreen` is pure; `TerminalView` writes it.
 */
import type { DeviceQueuePlace, DeviceState, Injection } from "#app/remote-support/device-protocol.ts";
import type { Capture } from "#app/remote-support/screen-protocol.ts";
import { formatSessionCode } from "#app/remote-support/protocol.ts";
import { queuePlaceText } from "#app/remote-support/queue.ts";
import { defaultShop, formatOpeningHours } from "#app/config/shop.ts";
import { bigLetters, bigLettersWidth } from "./big-letters.ts";
import type { LinkPhase } from "./connection.ts";
import { APP_NAME, APP_VERSION } from "./version.ts";
import type { ChatModel } from "./chat.ts";
import { CHAT_LABELS, shownChat, terminalChatLines } from "./views/chat-texts.ts";
// Issue 27: the sentences the window and the dialogs say too.
import {
  CODE_HINT,
  controlLine,
  elevationLines,
  FINAL_PHASES,
  joinedLine,
  PHASE_TEXT,
  technicianOf,
  viewLines,
} from "./views/texts.ts";
import { rebootKeyLines, rebootLines, type RebootState } from "./reboot/reboot-texts.ts";
import { fileKeyLines, type FilesModel, terminalFileLines } from "./files/file-texts.ts";

/** Everything the screen shows. */
export type ScreenModel = {
  server: string;
  computerName: string;
  /** "pairing" before the link exists. */
  phase: LinkPhase | "pairing";
  customerName: string | null;
  state: DeviceState | null;
  injection: Injection | null;
  withdrawnHere: boolean;
  /** Last short notes (newest last), at most a few. */
  notices: readonly string[];
  /** Whether the keys (V, C, R, Ctrl+C) work (stdin is a terminal). */
  keys: boolean;
  /** Issue 26: the session code to read to the technician (a session started by this app), else null. */
  sessionCode?: string | null;
  /** Issue 26: the customer allowed, here, the technician to see the screen. */
  viewAllowed?: boolean;
  /** Issue 26: the picture is being sent now. */
  streaming?: boolean;
  /** Issue 26: whether the screen can be captured here (null: unknown or no capture in this build). */
  capture?: Capture | null;
  /**
   * Issue 27: the customer can send the clipboard's text to the technician now (control allowed, a technician
   * joined): key P here, a button in a window.
   */
  clipboardSendable?: boolean;
  /**
   * Issue 27: the customer's place in the technicians' waiting queue (`device:queue`), null when not waiting;
   * issue 29: with the shop's opening hours as the server knows them (absent from older servers).
   */
  waiting?: DeviceQueuePlace | null;
  /**
   * Issue 36 §4: the technician asked to relaunch the app as administrator (`asked`: key A, a button), or the
   * relaunch is under way (`relaunching`: the UAC prompt); null otherwise.
   */
  elevation?: "asked" | "relaunching" | null;
  /** Issue 38 §3: the technician's restart of the computer, asked or under way (`reboot/reboot-texts.ts`). */
  reboot?: RebootState;
  /** Issue 38 §1: the session chat (`chat.ts`), absent before the link exists. */
  chat?: ChatModel | null;
  /** Issue 38 §1, the terminal only: the message being typed after M, null when the customer is not writing. */
  chatDraft?: string | null;
  /** Issue 38 §2: files both ways (`files/transfers.ts`), absent before the link exists. */
  files?: FilesModel | null;
  /** Issue 38 §2, the terminal only: the path being typed after F, null when the customer is not typing one. */
  fileDraft?: string | null;
  /** Terminal width, columns (default 80). */
  columns?: number;
};

/** The whole screen as text lines (no colours: readable in any terminal and in logs). */
export function renderScreen(model: ScreenModel): string {
  const width = Math.max(40, Math.min(model.columns ?? 80, 120) - 1);
  const rule = (symbol: string) => symbol.repeat(Math.min(60, width));
  const lines = [`${APP_NAME} — version ${APP_VERSION}`, rule("="), ""];
  lines.push(`Ordinateur : ${model.computerName}`);
  lines.push(`Serveur : ${model.server}`);
  lines.push(`État : ${PHASE_TEXT[model.phase]}`);
  if (FINAL_PHASES.has(model.phase)) return fit(lines, width).join("\n");

  const state = model.state;
  const technician = technicianOf(model);
  const joined = joinedLine(model);
  if (model.sessionCode && !joined) lines.push("", ...codeBlock(model.sessionCode, width));
  const waiting = waitingLines(model);
  if (waiting.length > 0) lines.push("", ...waiting);
  lines.push("");
  if (model.customerName || state) lines.push(`Session de : ${state?.customerName || model.customerName}`);
  if (state) {
    // Issue 40: « Julien, technicien de l'atelier, est connecté. »
    lines.push(joined ?? "Technicien : en attente du technicien…");
    lines.push("");
    lines.push(...viewLines(model, technician));
    lines.push(controlLine(state, model.withdrawnHere, model.keys ? "keys" : false));
    lines.push(...elevationLines(model, model.keys ? "keys" : false));
    lines.push(...rebootLines(model, model.keys ? "keys" : false));
  }
  if (model.capture && !model.capture.ok) {
    lines.push("", "⚠ Le technicien ne peut pas voir cet écran :", `  ${model.capture.reason}`);
  }
  if (model.injection && !model.injection.ok) {
    lines.push("", "⚠ Prise de contrôle impossible sur cet ordinateur :", `  ${model.injection.reason}`);
  }
  if (model.notices.length > 0) {
    lines.push("");
    for (const notice of model.notices) lines.push(`• ${notice}`);
  }
  // Issue 38 §1: the last messages, and the line being typed.
  const chat = terminalChatLines(model, width, model.chatDraft ?? null);
  if (chat.length > 0) lines.push("", ...chat);
  // Issue 38 §2: the file question, each transfer's progress, the path being typed.
  const files = terminalFileLines(model.files, model.fileDraft ?? null);
  if (files.length > 0) lines.push("", ...files);
  lines.push("", rule("-"));
  if (model.keys) lines.push(...keyLines(model));
  lines.push("Pour arrêter : Ctrl+C, ou fermez cette fenêtre. Le technicien perd alors tout accès.");
  return fit(lines, width).join("\n");
}

/**
 * Issue 27: while nobody has joined, the customer's place in the waiting queue and the estimated wait, or the
 * shop's hours when it is closed (`queuePlaceText`: the same words as the site's page); none otherwise. `now`
 * decides open or closed (default: the clock). Issue 29: open, closed and the hours said follow the hours the
 * server sent with the place (« Boutique »); the build's defaults only when it sent none (a server older than
 * issue 29), since one build serves every shop.
 */
export function waitingLines(model: ScreenModel, now = new Date()): string[] {
  if (!model.waiting || model.state?.technicianName) return [];
  const slots = model.waiting.openingHours ?? defaultShop.openingHours;
  return queuePlaceText(model.waiting, { now, slots, hours: formatOpeningHours(slots) });
}

/** The session code, large, and what to do with it; issue 40: written « K7W 9GA », as the pages write it. */
function codeBlock(code: string, width: number): string[] {
  const big = bigLettersWidth(code) + 2 <= width ? bigLetters(code).map((row) => `  ${row}`) : [];
  const written = `  Code de session : ${formatSessionCode(code)}`;
  return [CODE_HINT, "", ...big, ...(big.length ? [""] : []), written];
}

/**
 * The keys that do something now. As the window's buttons (issue 40), « V : autoriser… » and « C : autoriser… »
 * only once a technician joined: before, there is nobody to allow; taking back what was allowed stays listed.
 */
function keyLines(model: ScreenModel): string[] {
  const lines: string[] = [];
  const joined = Boolean(model.state?.technicianName);
  if (model.capture?.ok && (joined || model.viewAllowed))
    lines.push(
      model.viewAllowed ? "V : ne plus montrer l'écran au technicien." : "V : autoriser le technicien à voir l'écran.",
    );
  const consent = model.state?.consent === true && !model.withdrawnHere;
  if (model.state && (joined || consent)) {
    lines.push(
      consent
        ? "R : reprendre la main (le technicien ne contrôle plus la souris ni le clavier)."
        : "C : autoriser le technicien à prendre le contrôle de la souris et du clavier.",
    );
  }
  if (model.clipboardSendable) lines.push("P : envoyer au technicien le texte copié (presse-papiers).");
  if (model.elevation === "asked")
    lines.push("A : relancer le logiciel en administrateur (Windows demandera votre accord).");
  lines.push(...rebootKeyLines(model));
  if (shownChat(model)?.available && (model.chatDraft ?? null) === null) lines.push(CHAT_LABELS.key);
  lines.push(...fileKeyLines(model.files, model.fileDraft ?? null));
  return lines;
}

/** Every line wrapped at spaces to `width` columns; continuation lines keep the first line's indentation. */
function fit(lines: readonly string[], width: number): string[] {
  return lines.flatMap((line) => {
    if (line.length <= width) return [line];
    const indent = /^\s*(?:• )?/.exec(line)?.[0] ?? "";
    const pad = " ".repeat(indent.length);
    return wrap(line.slice(indent.length), width - indent.length).map((part, index) =>
      index === 0 ? indent + part : pad + part,
    );
  });
}

/** Splits `text` into lines of at most `width` characters, at spaces. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** Minimal writable terminal (process.stdout or a test double). */
export type Output = { write(text: string): unknown; isTTY?: boolean };

/**
 * Writes the screen: on a terminal, clears and redraws it in place; else
 * (output piped to a file) writes it again only when it changed.
 */
export class TerminalView {
  readonly #out: Output;
  #last = "";

  constructor(out: Output) {
    this.#out = out;
  }

  draw(model: ScreenModel): void {
    const text = renderScreen(model);
    if (text === this.#last) return;
    this.#last = text;
    // Cursor home + clear screen: the view replaces itself instead of scrolling.
    if (this.#out.isTTY) this.#out.write(`\x1b[H\x1b[2J${text}\n`);
    else this.#out.write(`${text}\n\n`);
  }

  /** A final line after the view (the app is exiting). */
  say(text: string): void {
    this.#out.write(`\n${text}\n`);
  }
}
