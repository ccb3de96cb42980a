/**
 * The assistant's reply from a model (issue 7; spec §7 "AI chat", §8 chat
 * messages, §9 chat constants), through any `ChatProvider` (issue 14).
 *
 * - Request: the French system prompt, then at most the latest
 *   `HISTORY_LIMIT` messages; `CHAT_SETTINGS`; the two tools of `prompt.ts`,
 *   at most `MAX_TOOL_ROUNDS` rounds.
 * - Retries: a call that fails before any text arrived with a retryable
 *   `ChatProviderError` (408, 409, 429, 5xx, connection error, timeout) is
 *   tried again after 1 000 ms × (attempt + 1), `MAX_ATTEMPTS` attempts in
 *   all; then `retriesExhausted`. Any other failure gives `failed`; no text at
 *   all gives `emptyReply` (spec §8, verbatim).
 * - Every piece of text goes through the `PriceGuard` before `onText`.
 */
import { ASSISTANT_MESSAGES, assistantShopMessages } from "#app/assistant/protocol.ts";
import { defaultShop, type ShopIdentity } from "#app/config/shop.ts";
import { FACT_AMOUNTS } from "./facts.ts";
import { PriceGuard } from "./price-guard.ts";
import type { Brand } from "#app/catalogue/shapes.ts";
import { runTool, systemPrompt, TOOLS } from "./prompt.ts";
import {
  ChatProviderError,
  type ChatMessage,
  type ChatProvider,
  type ChatResult,
  type ChatSettings,
} from "./provider.ts";

/** Spec §9: temperature 0.7, reply capped at 500 tokens; the penalties' values are not given, these are ours. */
export const CHAT_SETTINGS: ChatSettings = {
  temperature: 0.7,
  maxTokens: 500,
  presencePenalty: 0.6,
  frequencyPenalty: 0.5,
};
/** Spec §9: the system message plus the latest messages, up to 10 entries. */
export const HISTORY_LIMIT = 10;
/** Spec §9 "up to 3 retries": three attempts in all, the message of spec §8 after the third failure. */
export const MAX_ATTEMPTS = 3;
/** Spec §9: delay 1000 ms × (attempt number + 1), attempts numbered from 0. */
export const retryDelayMs = (attempt: number) => 1000 * (attempt + 1);
/** Tool rounds before the model must answer in text. */
export const MAX_TOOL_ROUNDS = 3;

export type ChatTurn = { role: "user" | "assistant"; content: string };

export type ReplyOptions = {
  provider: ChatProvider;
  /** The conversation, oldest first, ending with the customer's new message. */
  history: readonly ChatTurn[];
  /** Amounts already grounded in this conversation (earlier checked replies), € */
  grounded: ReadonlySet<number>;
  /** Issue 29: the catalogue the price tool answers from (the server's current one). */
  brands: readonly Brand[];
  /** Issue 29: the shop's identity when the message came (facts, failure messages); the defaults when absent. */
  shop?: ShopIdentity;
  /** Receives the reply as it is written (already checked). */
  onText: (text: string) => void;
  /** Waits `ms` (tests pass a fake clock). */
  sleep?: (ms: number) => Promise<void>;
  signal?: AbortSignal;
};

export type ReplyOutcome = {
  /** The whole reply shown (after the price check), or the spec's failure message. */
  content: string;
  kind: "answer" | "empty" | "retries-exhausted" | "failed";
  /** Calls made to the provider (attempts, tool rounds included). */
  calls: number;
  /** Amounts the guard replaced. */
  replaced: number[];
  /** The provider's error behind a failure message, for the logs. */
  cause?: unknown;
};

class RetriesExhausted extends Error {}

/**
 * Generates the reply to the last message of `history`, streaming it to
 * `onText`. Never throws: failures become the spec's messages.
 */
export async function generateReply(options: ReplyOptions): Promise<ReplyOutcome> {
  const { provider, onText } = options;
  const shop = options.shop ?? defaultShop;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const grounded = new Set<number>([...options.grounded, ...FACT_AMOUNTS]);
  const guard = new PriceGuard(grounded);
  const messages: ChatMessage[] = [
    { role: "system", content: systemPrompt(shop) },
    ...options.history.slice(-HISTORY_LIMIT).map((turn) => ({ role: turn.role, content: turn.content })),
  ];
  let shown = "";
  let calls = 0;
  /** Whether any text came from the provider: after that, a retry would repeat it. */
  let received = false;
  const show = (text: string) => {
    if (!text) return;
    shown += text;
    onText(text);
  };

  /** One call, retried while nothing was shown yet; resolves with its text and tool calls. */
  async function call(withTools: boolean): Promise<ChatResult> {
    for (let attempt = 0; ; attempt++) {
      try {
        calls++;
        return await provider.complete({
          // A copy: the rounds below add to `messages` after this call.
          messages: [...messages],
          tools: withTools ? TOOLS : [],
          settings: CHAT_SETTINGS,
          signal: options.signal,
          onText: (text) => {
            received = true;
            show(guard.push(text));
          },
        });
      } catch (error) {
        if (!(error instanceof ChatProviderError && error.retryable) || received) throw error;
        if (attempt + 1 >= MAX_ATTEMPTS) throw new RetriesExhausted("nouvelles tentatives épuisées", { cause: error });
        await sleep(retryDelayMs(attempt));
      }
    }
  }

  try {
    for (let round = 0; ; round++) {
      const { text, toolCalls } = await call(round < MAX_TOOL_ROUNDS);
      if (toolCalls.length === 0) break;
      messages.push({ role: "assistant", content: text, toolCalls });
      for (const toolCall of toolCalls)
        messages.push({
          role: "tool",
          toolCallId: toolCall.id,
          content: runTool(toolCall, grounded, options.brands, shop),
        });
    }
    show(guard.flush());
  } catch (error) {
    const kind = error instanceof RetriesExhausted ? "retries-exhausted" : "failed";
    const failures = assistantShopMessages(shop);
    const message = kind === "retries-exhausted" ? failures.retriesExhausted : failures.failed;
    // Text already shown stays; the message follows it.
    const content = shown ? `${shown}\n\n${message}` : message;
    onText(shown ? `\n\n${message}` : message);
    return { content, kind, calls, replaced: guard.replaced, cause: error };
  }
  if (!shown.trim()) {
    onText(ASSISTANT_MESSAGES.emptyReply);
    return { content: ASSISTANT_MESSAGES.emptyReply, kind: "empty", calls, replaced: guard.replaced };
  }
  return { content: shown, kind: "answer", calls, replaced: guard.replaced };
}
