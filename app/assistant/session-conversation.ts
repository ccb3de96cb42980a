/**
 * Issue 18 §4 "Parler à un technicien": the customer's assistant conversation
 * handed to a remote-support session, shared by the browser and the server.
 * The server takes the snapshot itself from the stored conversation (the
 * browser never sends it), keeps it on the session's row
 * (`sessions.assistant_conversation`, migration 0012) and shows it to the
 * session's customer and its joined technician only. Pure: no server or
 * browser APIs.
 */
import { SHOP_TIME_ZONE } from "#app/booking/time-zone.ts";
import type { SessionView } from "#app/remote-support/protocol.ts";

/** Most messages handed over: the latest, oldest first. */
export const SESSION_CONVERSATION_LIMIT = 20;

/** One message of the snapshot, as stored when the session was asked for (`createdAt` ISO 8601). */
export type SessionConversationMessage = { role: "user" | "assistant"; content: string; createdAt: string };

/**
 * `POST /api/sessions/from-assistant`: the session (as `POST /api/sessions`
 * answers it) and how many messages were attached to it.
 */
export type SessionFromAssistantResponse = {
  session: SessionView;
  attached: number;
};

/** `GET /api/sessions/:code/conversation`: the snapshot, or null when the session was started without one. */
export type SessionConversationResponse = { conversation: SessionConversationMessage[] | null };

/** The French texts of the feature. */
export const HANDOFF_MESSAGES = {
  button: "Parler à un technicien",
  busy: "Création de la session…",
  /** Said once the session exists: its code, spelled out as the session panel shows it. */
  created: (code: string) =>
    `Session d'assistance prête : communiquez le code ${code} au technicien. Il verra cette conversation en la rejoignant.`,
  heading: "Conversation avec l'assistant",
  customer: "Client",
  assistant: "Assistant",
} as const;

/** "24/11/2026 14:05", the time of a message in fr-FR (the shop's wall clock, as on the server's page). */
export function formatMessageTime(iso: string): string {
  return new Date(iso).toLocaleString("fr-FR", { dateStyle: "short", timeStyle: "short", timeZone: SHOP_TIME_ZONE });
}
