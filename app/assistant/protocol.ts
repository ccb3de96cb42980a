/**
 * The assistant's protocol (issue 7; spec §2 "Assistant virtuel", §5 chat,
 * §8 chat messages, §9 chat constants), shared by the browser and the
 * server: the French messages (verbatim, with the shop's phone and e-mail),
 * the JSON shapes of `/api/assistant/…` and the server-sent events of a
 * streamed reply. Pure: no server or browser APIs.
 */
import { z } from "zod";
import type { ShopIdentity } from "#app/config/shop.ts";
import { typedString } from "#app/utils/text.ts";
import type { AnswerRating } from "./ratings-protocol.ts";

/**
 * Spec §2, §5 and §8, verbatim: the messages naming the shop ({product} is its name, {phone} and {email} its
 * contacts), of the identity given (issue 29: the current one, « Boutique »).
 */
export function assistantShopMessages(shop: Pick<ShopIdentity, "name" | "phone" | "email">) {
  return {
    greeting: `Bonjour je suis l'assistant IA de ${shop.name}, comment puis-je vous aider ?`,
    retriesExhausted: `Je rencontre actuellement des difficultés techniques. Je vous invite à réessayer dans quelques instants ou à contacter directement notre support au ${shop.phone.display}.`,
    failed: `Je suis désolé, mais je rencontre des difficultés techniques. Pour une assistance immédiate, vous pouvez nous contacter au ${shop.phone.display} ou par email à ${shop.email}`,
  };
}

/** Spec §2, §5 and §8, verbatim: the messages that name nothing of the shop. */
export const ASSISTANT_MESSAGES = {
  placeholder: "Tapez votre message...",
  emptyReply: "Désolé, je n'ai pas pu générer une réponse. Pouvez-vous reformuler votre question ?",
  emptyMessage: "Je n'ai pas bien compris votre message. Pouvez-vous me donner plus de détails sur votre besoin ?",
  /** Replaces a euro amount of a reply that no catalogue lookup of the conversation returned. */
  unsupportedPrice: "un prix à confirmer (demandez-nous un devis gratuit)",
  tooManyMessages: "Vous avez envoyé beaucoup de messages. Patientez quelques minutes avant de continuer.",
  tooLong: "Votre message est trop long (2 000 caractères au plus).",
} as const;

/** Longest customer message, characters. */
export const ASSISTANT_MESSAGE_MAX_CHARS = 2000;

/**
 * One message of the conversation as the API gives it (oldest first); times
 * ISO 8601. `rating`: the account's own rating of an answer (issue 17 §4), in
 * `GET /api/assistant/messages` only.
 */
export type AssistantMessage = {
  id: string;
  role: "user" | "assistant";
  content: string;
  createdAt: string;
  rating?: AnswerRating;
};
/** `GET /api/assistant/messages`. */
export type AssistantConversationResponse = { messages: AssistantMessage[] };

/** `POST /api/assistant/messages`: the customer's message (an empty one is answered by `emptyMessage`). */
export const AssistantMessageBody = z.object({
  // Typable text only (issue 13 §7): a NUL made the insert fail with a 500.
  content: typedString({ error: "Le message est obligatoire." }).max(ASSISTANT_MESSAGE_MAX_CHARS, {
    error: ASSISTANT_MESSAGES.tooLong,
  }),
});

/**
 * The server-sent events of `POST /api/assistant/messages` (text/event-stream):
 * - `user`: the stored customer message (`AssistantMessage`);
 * - `delta`: `{ text }`, the next piece of the reply, to append;
 * - `done`: the stored reply (`AssistantMessage`), whose content is final
 *   (it may differ from the deltas when the server corrected an amount).
 */
export type AssistantStreamEvent =
  | { event: "user"; data: AssistantMessage }
  | { event: "delta"; data: { text: string } }
  | { event: "done"; data: AssistantMessage };
