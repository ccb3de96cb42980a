/**
 * The assistant's calls to an OpenAI-compatible chat completions server
 * (issue 7; spec §7 "AI chat", §8 chat messages, §9 chat constants), with the
 * official `openai` SDK, from the server only.
 *
 * - Request: the French system prompt, then at most the latest
 *   `HISTORY_LIMIT` messages; `CHAT_SETTINGS` (temperature 0.7, max_tokens
 *   500, presence and frequency penalties); two tools answering from
 *   `knowledge.ts` (repair prices, shop facts), at most `MAX_TOOL_ROUNDS`
 *   rounds.
 * - Retries: the SDK's own are off (`maxRetries: 0`) so they do not
 *   multiply. A call that fails before any text arrived with a retryable
 *   error (408, 409, 429, 5xx, connection error, timeout) is tried again
 *   after 1 000 ms × (attempt + 1), `MAX_ATTEMPTS` attempts in all; then
 *   `retriesExhausted`. Any other failure gives `failed`; no text at all
 *   gives `emptyReply` (spec §8, verbatim).
 * - Every piece of text goes through the `PriceGuard` before `onText`.
 */
import OpenAI from "openai";
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import { ASSISTANT_MESSAGES } from "../../app/assistant/protocol.ts";
import { lookupRepairPrice, shopFacts, TECHNICIAN_HOURLY_RATE_EUROS } from "./knowledge.ts";
import { PriceGuard } from "./price-guard.ts";

/** Spec §9: temperature 0.7, reply capped at 500 tokens; the penalties' values are not given, these are ours. */
export const CHAT_SETTINGS = { temperature: 0.7, max_tokens: 500, presence_penalty: 0.6, frequency_penalty: 0.5 } as const;
/** Spec §9: the system message plus the latest messages, up to 10 entries. */
export const HISTORY_LIMIT = 10;
/** Spec §9 "up to 3 retries": three attempts in all, the message of spec §8 after the third failure. */
export const MAX_ATTEMPTS = 3;
/** Spec §9: delay 1000 ms × (attempt number + 1), attempts numbered from 0. */
export const retryDelayMs = (attempt: number) => 1000 * (attempt + 1);
/** Tool rounds before the model must answer in text. */
export const MAX_TOOL_ROUNDS = 3;

/** Spec §9: the prompt, in French; grounding rules of issue 7 added. */
export function systemPrompt(): string {
  const facts = shopFacts();
  return [
    `Tu es l'assistant virtuel de ${facts.name}, atelier de réparation, de vente et d'assistance informatique en France.`,
    "Tu réponds en français, avec des phrases courtes et des étapes numérotées quand il y a une manipulation à faire.",
    "Tu aides pour Windows, macOS et Linux : dépannage matériel et logiciel, sécurité (virus, mots de passe, sauvegardes), réseaux (Wi-Fi, box, imprimantes) et maintenance préventive.",
    `Tu proposes l'intervention d'un technicien (${TECHNICIAN_HOURLY_RATE_EUROS} € de l'heure, à distance ou à l'atelier) seulement quand c'est nécessaire : matériel à ouvrir, données en danger, ou problème que le client ne peut pas résoudre seul.`,
    "Pour un prix de réparation (smartphone, tablette, console), appelle toujours l'outil lookup_repair_price et donne le prix « à partir de » qu'il renvoie avec le lien de la page.",
    "N'écris JAMAIS un montant en euros qu'un outil ne t'a pas donné dans cette conversation : sans prix trouvé, invite à demander un devis gratuit.",
    "Pour les horaires, l'adresse, le téléphone ou l'assistance à distance, appelle l'outil shop_information.",
  ].join("\n");
}

const TOOLS: ChatCompletionTool[] = [
  {
    type: "function",
    function: {
      name: "lookup_repair_price",
      description:
        "Cherche dans le catalogue de l'atelier le prix d'une réparation (à partir de, en euros) et le lien de la page, pour un modèle de smartphone, de tablette ou de console.",
      parameters: {
        type: "object",
        properties: { question: { type: "string", description: "Marque, modèle et réparation, ex. « port HDMI PS5 »" } },
        required: ["question"],
      },
    },
  },
  {
    type: "function",
    function: {
      name: "shop_information",
      description: "Horaires, adresse, téléphone, e-mail de l'atelier, tarif horaire du technicien et comment démarrer une assistance à distance.",
      parameters: { type: "object", properties: {} },
    },
  },
];

export type ProviderConfig = {
  /** `OPENAI_API_KEY`; servers without keys (Ollama, llama.cpp) get a placeholder the SDK requires. */
  apiKey?: string;
  /** `OPENAI_BASE_URL`, e.g. "http://127.0.0.1:11434/v1"; unset: OpenAI. */
  baseURL?: string;
  /** `AI_MODEL`. */
  model: string;
  /** `AI_STREAM`: ask for a streamed reply (true) or one JSON answer. */
  stream: boolean;
  /** Per attempt, ms. */
  timeoutMs: number;
};

export type ChatTurn = { role: "user" | "assistant"; content: string };

export type ReplyOptions = {
  client: OpenAI;
  config: ProviderConfig;
  /** The conversation, oldest first, ending with the customer's new message. */
  history: readonly ChatTurn[];
  /** Amounts already grounded in this conversation (earlier checked replies), € */
  grounded: ReadonlySet<number>;
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

export function createClient(config: ProviderConfig): OpenAI {
  return new OpenAI({
    apiKey: config.apiKey ?? "sans-cle",
    baseURL: config.baseURL,
    maxRetries: 0,
    timeout: config.timeoutMs,
  });
}

/** Spec §8: 408, 409, 429, 5xx, connection errors and timeouts are retried; nothing else. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof OpenAI.APIUserAbortError) return false;
  if (error instanceof OpenAI.APIConnectionError) return true; // includes timeouts
  if (error instanceof OpenAI.APIError) {
    const status = error.status ?? 0;
    return status === 408 || status === 409 || status === 429 || status >= 500;
  }
  return false;
}

class RetriesExhausted extends Error {}

type ToolCall = { id: string; name: string; arguments: string };
type Round = { text: string; toolCalls: ToolCall[] };

function runTool(call: ToolCall, grounded: Set<number>): string {
  if (call.name === "shop_information") return JSON.stringify(shopFacts());
  if (call.name === "lookup_repair_price") {
    let question = "";
    try {
      question = String((JSON.parse(call.arguments || "{}") as { question?: unknown }).question ?? "");
    } catch {
      question = call.arguments;
    }
    const result = lookupRepairPrice(question);
    if (result.found) for (const repair of result.repairs) grounded.add(repair.euros);
    return JSON.stringify(result.found ? result : { found: false, conseil: "Modèle non trouvé : proposer un devis gratuit." });
  }
  return JSON.stringify({ erreur: `outil inconnu : ${call.name}` });
}

/**
 * Generates the reply to the last message of `history`, streaming it to
 * `onText`. Never throws: failures become the spec's messages.
 */
export async function generateReply(options: ReplyOptions): Promise<ReplyOutcome> {
  const { client, config, onText } = options;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const grounded = new Set<number>([...options.grounded, TECHNICIAN_HOURLY_RATE_EUROS]);
  const guard = new PriceGuard(grounded);
  const messages: ChatCompletionMessageParam[] = [
    { role: "system", content: systemPrompt() },
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
  async function call(withTools: boolean): Promise<Round> {
    for (let attempt = 0; ; attempt++) {
      try {
        calls++;
        return await oneCall(withTools);
      } catch (error) {
        if (!isRetryable(error) || received) throw error;
        if (attempt + 1 >= MAX_ATTEMPTS) throw new RetriesExhausted("nouvelles tentatives épuisées", { cause: error });
        await sleep(retryDelayMs(attempt));
      }
    }
  }

  async function oneCall(withTools: boolean): Promise<Round> {
    const body = {
      model: config.model,
      messages,
      ...CHAT_SETTINGS,
      ...(withTools ? { tools: TOOLS } : {}),
    };
    if (!config.stream) {
      const completion = await client.chat.completions.create({ ...body, stream: false }, { signal: options.signal });
      const message = completion.choices[0]?.message;
      const toolCalls = (message?.tool_calls ?? [])
        .filter((toolCall) => toolCall.type === "function")
        .map((toolCall) => ({ id: toolCall.id, name: toolCall.function.name, arguments: toolCall.function.arguments }));
      const text = message?.content ?? "";
      if (toolCalls.length === 0 && text) {
        received = true;
        show(guard.push(text));
      }
      return { text, toolCalls };
    }
    const stream = await client.chat.completions.create({ ...body, stream: true }, { signal: options.signal });
    let text = "";
    const toolCalls: ToolCall[] = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      if (!delta) continue;
      if (delta.content) {
        received = true;
        text += delta.content;
        show(guard.push(delta.content));
      }
      for (const piece of delta.tool_calls ?? []) {
        const slot = (toolCalls[piece.index] ??= { id: "", name: "", arguments: "" });
        if (piece.id) slot.id = piece.id;
        if (piece.function?.name) slot.name += piece.function.name;
        if (piece.function?.arguments) slot.arguments += piece.function.arguments;
      }
    }
    return { text, toolCalls };
  }

  try {
    for (let round = 0; ; round++) {
      const { text, toolCalls } = await call(round < MAX_TOOL_ROUNDS);
      if (toolCalls.length === 0) break;
      messages.push({
        role: "assistant",
        content: text || null,
        tool_calls: toolCalls.map((toolCall) => ({
          id: toolCall.id,
          type: "function" as const,
          function: { name: toolCall.name, arguments: toolCall.arguments },
        })),
      });
      for (const toolCall of toolCalls) messages.push({ role: "tool", tool_call_id: toolCall.id, content: runTool(toolCall, grounded) });
    }
    show(guard.flush());
  } catch (error) {
    const kind = error instanceof RetriesExhausted ? "retries-exhausted" : "failed";
    const message = kind === "retries-exhausted" ? ASSISTANT_MESSAGES.retriesExhausted : ASSISTANT_MESSAGES.failed;
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
