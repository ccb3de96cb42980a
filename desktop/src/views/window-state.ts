/**
 * What the window shows, computed in the main process (issue 27, "The
 * window"), and the JSON lines the two processes exchange. Pure.
 *
 * The window is the same executable started a second time with
 * `WINDOW_FLAG` (`window-child.ts`, a webview): its run loop blocks its
 * JavaScript thread, and macOS wants windows on the main thread, so the
 * session logic stays in the main process and the window only draws a
 * `WindowState` and reports clicks.
 * - main → window, on the child's stdin: `{"type":"state","state":WindowState}`, `{"type":"quit"}`.
 * - window → main, on its stdout: `ready` (the page is up), `drawn` (a state
 *   is on screen, with its code), `start` (the form's text), `action`,
 *   `unavailable` (no webview: the main process falls back), `closed`; issue 38 §1: `chat` (the message field's
 *   text and the page's number for it) and `focus` (the window gained or lost the keyboard focus).
 */
import type { ChatLine } from "#app/remote-support/chat-protocol.ts";
import { formatSessionCode } from "#app/remote-support/protocol.ts";
import { APP_NAME } from "../version.ts";
import { FACTS_CONSENT_TEXTS, type FactsChoice } from "../facts/consent.ts";
import { CHAT_LABELS, chatEntry, shownChat } from "./chat-texts.ts";
import { type ScreenModel, waitingLines } from "../ui.ts";
import { REBOOT_TEXTS, rebootLines } from "../reboot/reboot-texts.ts";
import { type FileWindowEvent, parseFileEvent } from "../files/file-page.ts";
import { type WindowFiles, windowFiles } from "../files/file-texts.ts";
import {
  availableActions,
  BUTTON_LABELS,
  CODE_HINT,
  CONSENT_LATER_TEXT,
  controlLine,
  elevationLines,
  FINAL_PHASES,
  joinedLine,
  PHASE_TEXT,
  problems,
  signText,
  START_TEXTS,
  technicianOf,
  viewLines,
} from "./texts.ts";

/** The hidden first argument that makes the executable the window. */
export const WINDOW_FLAG = "--fenetre";

/**
 * Environment variable naming the webview library to load instead of the
 * built-in one (`webview-native.ts`): a packager's own build, or a missing
 * file to test the fallbacks.
 */
export const WEBVIEW_LIBRARY_ENV = "ATELIER_WEBVIEW_LIBRARY";

/** What a button asks for (`ViewActions`, plus `close` once the app has stopped). */
export type WindowAction =
  "view" | "control" | "withdraw" | "clipboard" | "elevate" | "acceptReboot" | "declineReboot" | "stop" | "close";

export type WindowButton = { action: WindowAction; label: string; kind: "primary" | "normal" | "danger" };

/** Everything the page draws; every text is French and final. */
export type WindowState = {
  /** The window's title: starts with "● " while someone watches or controls. */
  title: string;
  heading: string;
  /** The link's state. */
  status: string;
  /** The session code to read out ("K7W 9GA", `formatSessionCode`), or null. */
  code: string | null;
  codeHint: string | null;
  lines: string[];
  warnings: string[];
  notices: string[];
  /** The sign while the technician sees or controls (also keeps the window above the others), else null. */
  sign: string | null;
  buttons: WindowButton[];
  /** The first question (name or pairing code), with the last mistake, or null once answered. */
  ask: {
    explain: string;
    label: string;
    button: string;
    error: string | null;
    attempt: number;
    /** Issue 38 §4 (`facts/consent.ts`): the box « Envoyer les informations… », ticked when `send`; null: not asked. */
    facts?: { label: string; detail: string; send: boolean } | null;
    /**
     * Issue 40: the pairing code's field, shown instead of the first name's by the link `link` (the secondary way
     * in: a session started on the website); `back` returns to the first name's.
     */
    pairing: { explain: string; label: string; link: string; back: string };
    /** Issue 40: the field shown when the question appears: the pairing code's after a refused code. */
    field: "name" | "code";
  } | null;
  /** Nothing more will happen: only « Fermer » remains. */
  final: boolean;
  /** Issue 38 §1: the « Messages » area, null before a session exists and after it ended. */
  chat: WindowChat | null;
  /** Issue 38 §2 (`files/file-texts.ts`): the « Fichiers » area, null before a session exists and after it ended. */
  files?: WindowFiles | null;
};

/** Issue 38 §1: what the window's « Messages » area shows (every text French and final). */
export type WindowChat = {
  heading: string;
  label: string;
  button: string;
  lines: { id: string; from: ChatLine["from"]; author: string; time: string; text: string }[];
  /** The field and « Envoyer » work (a technician is joined). */
  enabled: boolean;
  /** A message awaits the server's answer: « Envoyer » waits (the field keeps the focus). */
  sending: boolean;
  /** Under the list: why the field is disabled, or that nothing was written yet; null otherwise. */
  hint: string | null;
  /** Why the last message was refused (the field keeps its text), else null. */
  error: string | null;
  /** The page's number of the last message the server stored: the page empties its field up to it. */
  accepted: number;
};

/** What the main process adds to a model for the window (issue 38 §1). */
export type WindowExtras = {
  /** The technician's messages that arrived while the window did not have the focus. */
  unread?: number;
  /** The page's number of the last message the server stored. */
  accepted?: number;
};

/** What the window shows while the app gets ready, before anything else. */
export function startingState(): WindowState {
  return { ...askingState(null, 0), status: "Démarrage…", ask: null };
}

/**
 * What the window shows while the first question is asked (no session yet); `attempt` counts the questions;
 * `facts` (issue 38 §4): the consent box's state, when it is asked; `field` (issue 40): the field shown first.
 */
export function askingState(
  error: string | null,
  attempt: number,
  facts?: FactsChoice,
  field: "name" | "code" = "name",
): WindowState {
  return {
    title: APP_NAME,
    heading: APP_NAME,
    status: "Bienvenue. Pour commencer :",
    code: null,
    codeHint: null,
    lines: [],
    warnings: [],
    notices: [],
    sign: null,
    buttons: [],
    ask: {
      explain: START_TEXTS.explain,
      label: START_TEXTS.label,
      button: BUTTON_LABELS.start,
      error,
      attempt,
      ...(facts
        ? { facts: { label: FACTS_CONSENT_TEXTS.label, detail: FACTS_CONSENT_TEXTS.detail, send: facts.send } }
        : {}),
      pairing: {
        explain: START_TEXTS.codeExplain,
        label: START_TEXTS.codeLabel,
        link: START_TEXTS.codeLink,
        back: START_TEXTS.nameLink,
      },
      field,
    },
    final: false,
    chat: null,
  };
}

/**
 * The window's state for a model; `finalText`: the app's last words once it stopped; `extras` (issue 38 §1): the
 * unread count, which marks the title « (1) Nouveau message — … », and the last message accepted.
 */
export function windowState(
  model: ScreenModel,
  finalText: string | null = null,
  extras: WindowExtras = {},
): WindowState {
  const final = finalText !== null || FINAL_PHASES.has(model.phase);
  const technician = technicianOf(model);
  const joined = joinedLine(model);
  const state = model.state;
  const lines: string[] = [];
  if (!final) {
    // Issue 27, the queue: the place and the estimated wait, or the shop's hours, until a technician joins.
    lines.push(...waitingLines(model));
    if (model.customerName || state) lines.push(`Session de : ${state?.customerName || model.customerName}`);
    if (state) {
      lines.push(joined ?? "En attente du technicien…");
      // Issue 40: before a technician, nothing to allow yet (unless allowed already, e.g. on the session's page).
      if (joined || state.consent || model.viewAllowed)
        lines.push(...viewLines(model, technician), controlLine(state, model.withdrawnHere, "buttons"));
      else lines.push(CONSENT_LATER_TEXT);
      lines.push(...elevationLines(model, "buttons"), ...rebootLines(model, "buttons"));
    }
  }
  if (finalText) lines.push(finalText);
  const sign = final ? null : signText(model);
  const code = !final && model.sessionCode && !joined ? formatSessionCode(model.sessionCode) : null;
  const title = sign ? `● ${APP_NAME}` : APP_NAME;
  const unread = final ? 0 : (extras.unread ?? 0);
  return {
    title: unread > 0 ? CHAT_LABELS.unread(unread, title) : title,
    heading: APP_NAME,
    status: PHASE_TEXT[model.phase],
    code,
    codeHint: code ? CODE_HINT : null,
    lines,
    warnings: final ? [] : problems(model).map(({ title, reason }) => `${title} ${reason}`),
    notices: final ? [] : [...model.notices],
    sign,
    buttons: final ? [{ action: "close", label: BUTTON_LABELS.close, kind: "normal" }] : buttonsFor(model),
    ask: null,
    final,
    chat: final ? null : windowChat(model, extras.accepted ?? 0),
    files: final ? null : windowFiles(model.files),
  };
}

/** Issue 38 §1: the « Messages » area for a model (null when no session runs). */
function windowChat(model: ScreenModel, accepted: number): WindowChat | null {
  const chat = shownChat(model);
  if (!chat) return null;
  return {
    heading: CHAT_LABELS.heading,
    label: CHAT_LABELS.field,
    button: CHAT_LABELS.send,
    lines: chat.lines.map((line) => ({ id: line.id, from: line.from, ...chatEntry(line) })),
    enabled: chat.available,
    sending: chat.sending,
    hint: !chat.available ? CHAT_LABELS.unavailable : chat.lines.length === 0 ? CHAT_LABELS.empty : null,
    error: chat.error,
    accepted,
  };
}

/**
 * The window's buttons for a model, « Arrêter l'assistance » last. Issue 40: the « Autoriser… » ones only once a
 * technician joined (then the primary actions): before, nothing to allow is the thing to press.
 */
function buttonsFor(model: ScreenModel): WindowButton[] {
  const joined = Boolean(model.state?.technicianName);
  const offered = availableActions(model).filter((name) => joined || (name !== "view" && name !== "control"));
  const buttons = offered.map((name): WindowButton => {
    switch (name) {
      case "view":
        return { action: "view", label: BUTTON_LABELS.view, kind: "primary" };
      case "hide":
        return { action: "view", label: BUTTON_LABELS.hide, kind: "normal" };
      case "control":
        return { action: "control", label: BUTTON_LABELS.control, kind: "primary" };
      case "withdraw":
        return { action: "withdraw", label: BUTTON_LABELS.withdraw, kind: "normal" };
      case "clipboard":
        return { action: "clipboard", label: BUTTON_LABELS.clipboard, kind: "normal" };
      case "elevate":
        return { action: "elevate", label: BUTTON_LABELS.elevate, kind: "primary" };
      case "acceptReboot":
        return { action: "acceptReboot", label: REBOOT_TEXTS.accept, kind: "primary" };
      case "declineReboot":
        return { action: "declineReboot", label: REBOOT_TEXTS.decline, kind: "normal" };
    }
  });
  return [...buttons, { action: "stop", label: BUTTON_LABELS.stop, kind: "danger" }];
}

/**
 * Where a button of the page is, in CSS pixels from the window's top left corner (`start`: the form's; issue 40:
 * `field`, its link between the first name's field and the pairing code's).
 */
export type DrawnButton = {
  action: WindowAction | "start" | "field" | `file${string}`;
  x: number;
  y: number;
  width: number;
  height: number;
};

/** A line from the window process. */
export type WindowEvent =
  | { type: "ready" }
  | {
      type: "drawn";
      code: string | null;
      sign: string | null;
      asking: boolean;
      buttons: DrawnButton[];
      /** Issue 38 §2: the « Fichiers » area's visible buttons (`files/file-page.ts`). */
      files?: DrawnButton[];
    }
  | {
      type: "start";
      text: string;
      /** Issue 38 §4: the consent box, when it was shown. */
      facts?: boolean;
      /** Issue 40: the field the text was typed in (absent: the first name's). */
      field?: "name" | "code";
    }
  | { type: "action"; action: WindowAction }
  | { type: "unavailable"; reason: string }
  | { type: "closed" }
  | { type: "chat"; text: string; seq: number }
  | { type: "focus"; focused: boolean }
  | FileWindowEvent;

const ACTIONS = new Set<WindowAction>([
  "view",
  "control",
  "withdraw",
  "clipboard",
  "elevate",
  "acceptReboot",
  "declineReboot",
  "stop",
  "close",
]);

/** Reads one line of the window's stdout; null for anything else (a library's stray output). */
export function parseWindowEvent(line: string): WindowEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const event = value as Record<string, unknown>;
  switch (event.type) {
    case "ready":
    case "closed":
      return { type: event.type };
    case "drawn":
      return {
        type: "drawn",
        code: typeof event.code === "string" ? event.code : null,
        sign: typeof event.sign === "string" ? event.sign : null,
        asking: event.asking === true,
        buttons: Array.isArray(event.buttons) ? (event.buttons as DrawnButton[]) : [],
        ...(Array.isArray(event.files) ? { files: event.files as DrawnButton[] } : {}),
      };
    case "start":
      if (typeof event.text !== "string") return null;
      return {
        type: "start",
        text: event.text.slice(0, 200),
        ...(typeof event.facts === "boolean" ? { facts: event.facts } : {}),
        ...(event.field === "code" || event.field === "name" ? { field: event.field } : {}),
      };
    case "action":
      return ACTIONS.has(event.action as WindowAction)
        ? { type: "action", action: event.action as WindowAction }
        : null;
    case "unavailable":
      return { type: "unavailable", reason: String(event.reason ?? "") };
    case "chat":
      // Bounded here; `chat.ts` checks the text itself (1 to 1000 characters).
      return typeof event.text === "string" && Number.isSafeInteger(event.seq)
        ? { type: "chat", text: event.text.slice(0, 4_000), seq: event.seq as number }
        : null;
    case "focus":
      return { type: "focus", focused: event.focused === true };
    case "file":
      // Issue 38 §2: the « Fichiers » area's clicks (`files/file-page.ts`).
      return parseFileEvent(event);
    default:
      return null;
  }
}
