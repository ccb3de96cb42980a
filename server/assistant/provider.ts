/**
 * The boundary between the assistant and whatever model answers it (issue 14:
 * "a small provider interface between the assistant and the SDK; the prompt
 * and the tools stay on our side of it").
 *
 * Everything here is in our own types. The assistant (`reply.ts`) builds the
 * messages, the system prompt and the tool definitions (`prompt.ts`), runs the
 * tools, checks prices and decides on retries; a `ChatProvider` only carries
 * one call to a model and back. Swapping providers = one file implementing
 * `ChatProvider` (as `openai-compatible.ts` does) + the line in `config.ts`
 * that chooses it.
 */

/** One tool call the model asked for. `arguments` is the JSON text the model wrote, unparsed (it may be invalid). */
export type ToolCall = { id: string; name: string; arguments: string };

/** A message of the conversation sent to the model, oldest first. */
export type ChatMessage =
  | { role: "system" | "user"; content: string }
  /** A reply of the model; `toolCalls` when it asked for tools in that round (`content` may then be ""). */
  | { role: "assistant"; content: string; toolCalls?: readonly ToolCall[] }
  /** What our tool returned for the call `toolCallId` (JSON text). */
  | { role: "tool"; toolCallId: string; content: string };

/** A tool the model may call: `parameters` is a JSON Schema object describing its arguments. */
export type ToolDefinition = { name: string; description: string; parameters: Record<string, unknown> };

/** Sampling settings of spec §9; `maxTokens` caps the reply's length in tokens. */
export type ChatSettings = {
  temperature: number;
  maxTokens: number;
  presencePenalty: number;
  frequencyPenalty: number;
};

export type ChatRequest = {
  messages: readonly ChatMessage[];
  /** Tools offered in this call; empty: the model must answer in text. */
  tools: readonly ToolDefinition[];
  settings: ChatSettings;
  /**
   * Receives the reply's text meant for the customer, piece by piece as it
   * arrives (one piece when the provider does not stream). Text that only
   * accompanies tool calls in a single non-streamed answer is not passed.
   */
  onText: (text: string) => void;
  /** Aborts the call (the customer left). */
  signal?: AbortSignal;
};

/** The outcome of one call: all of its text (passed to `onText` or not) and the tool calls asked for, in order. */
export type ChatResult = { text: string; toolCalls: ToolCall[] };

/** A model behind one call at a time; implementations own their transport, credentials and timeouts. */
export interface ChatProvider {
  /**
   * One call to the model with `request`, the text streamed to
   * `request.onText`. Implementations do not retry: the assistant does.
   * @throws ChatProviderError when the call fails (a retryable one when it may
   *   succeed if sent again: rate limit, server error, connection error, timeout).
   */
  complete(request: ChatRequest): Promise<ChatResult>;
  /** What the logs may say about the provider (e.g. model, server host); never a secret. */
  readonly logFields: Readonly<Record<string, string>>;
}

/**
 * A failed call, in our terms. `retryable` (spec §8): the same call may
 * succeed later (408, 409, 429, 5xx, connection errors, timeouts); an
 * aborted call or any other refusal is not. `cause` keeps the provider's own
 * error for the logs.
 */
export class ChatProviderError extends Error {
  readonly retryable: boolean;
  constructor(message: string, options: { retryable: boolean; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = "ChatProviderError";
    this.retryable = options.retryable;
  }
}
