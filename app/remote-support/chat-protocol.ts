/**
 * Issue 38 §1, the session chat over the server's Socket.IO link, for every session (started on the site or from
 * the desktop app), in one module shared by the browser, the server and the app (`desktop/`). Pure: zod only.
 *
 * - A browser (the session's customer or its joined technician) emits `chat:send` (`ChatSend`) on its usual
 *   socket; the app emits `device:chat` (`DeviceChatSend`) on its `/device` socket.
 * - The server checks the sender is a participant of a connected session, the text (`ChatText`: typable text,
 *   1 to `CHAT_MAX_CHARS` characters once trimmed), the participant's budget (the session record's event budget,
 *   issue 28 §8), stores the line with the session as every chat line is (kind `chat`), then pushes it
 *   (`ChatLine`) as `session:chat` to the session's customer account and technician (every tab), and as
 *   `device:chat` to the session's app. The sender gets the stored line in its acknowledgement (`ChatAck`).
 * - The text is stored (the report shows the conversation) and never logged; refusals are French sentences.
 */
import { z } from "zod";
import { CHAT_MAX_CHARS, SessionCode } from "./protocol.ts";
import { typedString } from "#app/utils/text.ts";

export { CHAT_MAX_CHARS };

/** One line of the conversation as every side shows it. `at`: ISO 8601. `name`: the technician's, else null. */
export type ChatLine = {
  id: string;
  from: "customer" | "technician";
  /** The technician's display name on a line of theirs (the customer's side names them), else null. */
  name: string | null;
  text: string;
  at: string;
};

/** The message's text: what a person can type, trimmed, 1 to `CHAT_MAX_CHARS` characters. */
export const ChatText = typedString({ error: "Le message est vide." })
  .trim()
  .min(1, { error: "Le message est vide." })
  .max(CHAT_MAX_CHARS, { error: `Le message dépasse ${CHAT_MAX_CHARS} caractères.` });

/** `chat:send` from a browser: the session's code and the text. */
export const ChatSend = z.object({ code: SessionCode, text: ChatText });
export type ChatSend = z.infer<typeof ChatSend>;

/** `device:chat` from the app: the text (its session is its connection's). */
export const DeviceChatSend = z.object({ text: ChatText });
export type DeviceChatSend = z.infer<typeof DeviceChatSend>;

/** The answer to either send: the line as stored (shown by the sender), or why it was refused (French). */
export type ChatAck = { ok: true; line: ChatLine } | { ok: false; message: string };

/** `session:chat` to a browser: the line and the session it belongs to. */
export type SessionChatPush = { code: string; line: ChatLine };

/** What the sides say (French, shown as is), besides the session record's refusals. */
export const CHAT_MESSAGES = {
  notConnected: "Les messages sont possibles une fois un technicien connecté à la session.",
  failed: "Le message n'a pas pu être envoyé. Réessayez.",
  invalid: "Message invalide.",
  tooMany: "Trop de messages : patientez quelques secondes.",
} as const;

/**
 * What the app keeps of a `device:chat` push (untrusted input from the server): the line, or null when `value`
 * is not one.
 */
export function chatLineOf(value: unknown): ChatLine | null {
  const checked = ChatLineSchema.safeParse(value);
  return checked.success ? checked.data : null;
}

const ChatLineSchema = z.object({
  id: z.string().min(1).max(64),
  from: z.enum(["customer", "technician"]),
  name: z.string().max(200).nullable(),
  text: z.string().min(1).max(CHAT_MAX_CHARS),
  at: z.string().max(40),
});

/** Browser → server (merged into `ClientToServerEvents`). */
export type ChatClientToServerEvents = {
  /** The session's customer or joined technician writes; acknowledged with the stored line or a refusal. */
  "chat:send": (message: ChatSend, ack: (result: ChatAck) => void) => void;
};

/** Server → browser (merged into `ServerToClientEvents`). */
export type ChatServerToClientEvents = {
  /** A line of session `code`, to its customer account and its technician (every tab, the sender's too). */
  "session:chat": (push: SessionChatPush) => void;
};

/** App → server (merged into `DeviceToServerEvents`). */
export type ChatDeviceToServerEvents = {
  /** The customer writes from the app; acknowledged with the stored line or a refusal. */
  "device:chat": (message: DeviceChatSend, ack: (result: ChatAck) => void) => void;
};

/** Server → app (merged into `ServerToDeviceEvents`). */
export type ChatServerToDeviceEvents = {
  /** A line of the technician's (the app's own lines come back in its acknowledgements only). */
  "device:chat": (line: ChatLine) => void;
};
