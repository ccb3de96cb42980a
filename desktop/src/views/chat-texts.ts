/**
 * Issue 38 §1: what every interface says about the session chat (the window's « Messages » area, the terminal's
 * block, zenity's dialog), from the `ChatModel` of `chat.ts`. Pure: no I/O. Texts from the server are made safe
 * to print here (`chatDisplayText`): no control character reaches a terminal or a label.
 */
import { CHAT_MESSAGES } from "#app/remote-support/chat-protocol.ts";
import { CHAT_MAX_CHARS } from "#app/remote-support/protocol.ts";
import { chatAuthor, chatDisplayText, chatTime, type ChatModel } from "../chat.ts";
import type { ScreenModel } from "../ui.ts";
import { FINAL_PHASES } from "./texts.ts";

/** The chat's labels, the same in every interface. */
export const CHAT_LABELS = {
  heading: "Messages",
  field: "Votre message",
  send: "Envoyer",
  /** Before a technician joined (the protocol's sentence). */
  unavailable: CHAT_MESSAGES.notConnected,
  empty: "Aucun message pour l'instant. Vous pouvez écrire au technicien ici.",
  /** The window's title while a technician's message is unread: "(2) Nouveau message — <title>". */
  unread: (count: number, title: string) =>
    `(${count}) ${count > 1 ? "Nouveaux messages" : "Nouveau message"} — ${title}`,
  /** The terminal's key. */
  key: "M : écrire un message au technicien (Entrée pour l'envoyer).",
  /** The terminal's line being typed. */
  typing: `Votre message (Entrée : envoyer, Échap : annuler, ${CHAT_MAX_CHARS} caractères au plus) :`,
  sending: "Envoi du message…",
} as const;

/** How many of the last lines the terminal shows, and how many rows they may take at most. */
export const TERMINAL_CHAT_LINES = 5;
const TERMINAL_CHAT_ROWS = 14;

/** The chat of `model` when it is shown at all: a session runs (not before it, not after its end). */
export function shownChat(model: ScreenModel): ChatModel | null {
  if (!model.chat || !model.state || FINAL_PHASES.has(model.phase)) return null;
  return model.chat;
}

/** One line as a header and its text: "Julien (technicien), 14:05" and the text (safe to print). */
export function chatEntry(line: ChatModel["lines"][number]): { author: string; time: string; text: string } {
  return { author: chatAuthor(line), time: chatTime(line.at), text: chatDisplayText(line.text) };
}

/**
 * The terminal's chat block (issue 38 §1), wrapped later by `ui.ts`: « Messages : », the last lines (the newest
 * kept whole when they do not all fit in `TERMINAL_CHAT_ROWS` rows of `width` columns), the last refusal, and the
 * line being typed (`draft`, null when the customer is not writing). Empty when the chat is not shown.
 */
export function terminalChatLines(model: ScreenModel, width: number, draft: string | null): string[] {
  const chat = shownChat(model);
  if (!chat) return [];
  const lines = [`${CHAT_LABELS.heading} :`];
  if (chat.lines.length === 0) lines.push(`  ${chat.available ? CHAT_LABELS.empty : CHAT_LABELS.unavailable}`);
  const rows = (text: string) => Math.max(1, Math.ceil(text.length / Math.max(20, width - 4)));
  const shown: string[][] = [];
  let used = 0;
  for (const line of chat.lines.slice(-TERMINAL_CHAT_LINES).reverse()) {
    const { author, time, text } = chatEntry(line);
    const [first = "", ...rest] = text.split("\n");
    const block = [`  ${author}${time ? ` ${time}` : ""} : ${first}`, ...rest.map((part) => `    ${part}`)];
    const cost = block.reduce((sum, row) => sum + rows(row), 0);
    if (shown.length > 0 && used + cost > TERMINAL_CHAT_ROWS) break;
    used += cost;
    shown.unshift(block);
  }
  lines.push(...shown.flat());
  if (chat.sending) lines.push(`  ${CHAT_LABELS.sending}`);
  if (chat.error) lines.push(`  ⚠ ${chat.error}`);
  if (draft !== null) lines.push("", CHAT_LABELS.typing, `> ${chatDisplayText(draft).replace(/\n/g, " ")}_`);
  return lines;
}

/** The zenity dialog's text for technician lines (plain text; the caller escapes the markup). */
export function zenityChatText(lines: ChatModel["lines"], error: string | null): string {
  const parts = lines.map((line) => {
    const { author, time, text } = chatEntry(line);
    return `${author}${time ? `, ${time}` : ""} :\n${text}`;
  });
  return [...parts, ...(error ? [`⚠ ${error}`] : []), `${CHAT_LABELS.field} (facultatif) :`].join("\n\n");
}
