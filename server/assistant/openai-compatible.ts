/**
 * `ChatProvider` for any OpenAI-compatible chat completions server (OpenAI,
 * Ollama, llama.cpp, vLLM…), with the official `openai` SDK (issue 7, spec §7
 * "AI chat"; the interface is issue 14's). The only module importing `openai`.
 *
 * - The SDK's own retries are off (`maxRetries: 0`): the assistant
 *   (`reply.ts`) retries, and two layers would multiply the attempts.
 * - `timeoutMs` bounds each call until its answer starts (the SDK's timeout), then each wait between two
 *   streamed chunks: a provider whose stream stalls after its headers would otherwise hold the customer's
 *   question open until they leave. A timeout is a retryable `ChatProviderError`.
 * - `stream: true` asks for server-sent chunks and passes each text piece on
 *   as it arrives; `false` asks for one JSON answer, whose text is passed on
 *   only when it asks for no tool.
 */
import OpenAI from "openai";
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import {
  ChatProviderError,
  type ChatMessage,
  type ChatProvider,
  type ChatRequest,
  type ChatResult,
  type ToolCall,
} from "./provider.ts";

export type OpenAICompatibleConfig = {
  /** `OPENAI_API_KEY`; servers without keys (Ollama, llama.cpp) get a placeholder the SDK requires. */
  apiKey?: string;
  /** `OPENAI_BASE_URL`, e.g. "http://127.0.0.1:11434/v1"; unset: OpenAI. */
  baseURL?: string;
  /** `AI_MODEL`. */
  model: string;
  /** `AI_STREAM`: ask for a streamed reply (true) or one JSON answer. */
  stream: boolean;
  /** Per call, ms. */
  timeoutMs: number;
};

/** Spec §8: 408, 409, 429, 5xx, connection errors and timeouts may succeed if sent again; nothing else. */
function isRetryable(error: unknown): boolean {
  if (error instanceof OpenAI.APIUserAbortError) return false;
  if (error instanceof OpenAI.APIConnectionError) return true; // includes timeouts
  if (error instanceof OpenAI.APIError) {
    const status = error.status ?? 0;
    return status === 408 || status === 409 || status === 429 || status >= 500;
  }
  return false;
}

function toWire(message: ChatMessage): ChatCompletionMessageParam {
  if (message.role === "tool") return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
  if (message.role === "assistant" && message.toolCalls) {
    return {
      role: "assistant",
      content: message.content || null,
      tool_calls: message.toolCalls.map((call) => ({
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: call.arguments },
      })),
    };
  }
  return { role: message.role, content: message.content };
}

/** The provider for `config`; `client` is for tests that bring their own SDK client. */
export function createOpenAICompatibleProvider(config: OpenAICompatibleConfig, client?: OpenAI): ChatProvider {
  const sdk =
    client ??
    new OpenAI({
      apiKey: config.apiKey ?? "sans-cle",
      baseURL: config.baseURL,
      maxRetries: 0,
      timeout: config.timeoutMs,
    });

  async function call(request: ChatRequest): Promise<ChatResult> {
    const tools: ChatCompletionTool[] = request.tools.map((tool) => ({ type: "function", function: { ...tool } }));
    const { settings } = request;
    const body = {
      model: config.model,
      messages: request.messages.map(toWire),
      temperature: settings.temperature,
      max_tokens: settings.maxTokens,
      presence_penalty: settings.presencePenalty,
      frequency_penalty: settings.frequencyPenalty,
      ...(tools.length > 0 ? { tools } : {}),
    };
    if (!config.stream) {
      const completion = await sdk.chat.completions.create({ ...body, stream: false }, { signal: request.signal });
      const message = completion.choices[0]?.message;
      const toolCalls = (message?.tool_calls ?? [])
        .filter((toolCall) => toolCall.type === "function")
        .map((toolCall) => ({ id: toolCall.id, name: toolCall.function.name, arguments: toolCall.function.arguments }));
      const text = message?.content ?? "";
      if (toolCalls.length === 0 && text) request.onText(text);
      return { text, toolCalls };
    }
    const stalled = new AbortController();
    const signal = request.signal ? AbortSignal.any([request.signal, stalled.signal]) : stalled.signal;
    let timer = setTimeout(() => stalled.abort(), config.timeoutMs);
    const rearm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => stalled.abort(), config.timeoutMs);
    };
    const stall = (cause?: unknown) =>
      new ChatProviderError("le fournisseur d'IA ne répond plus", { retryable: true, cause });
    try {
      const result = await readStream(await sdk.chat.completions.create({ ...body, stream: true }, { signal }), rearm);
      // The SDK's stream ends quietly when aborted: a stalled one is not a complete answer.
      if (stalled.signal.aborted && !request.signal?.aborted) throw stall();
      return result;
    } catch (error) {
      if (stalled.signal.aborted && !request.signal?.aborted && !(error instanceof ChatProviderError))
        throw stall(error);
      throw error;
    } finally {
      clearTimeout(timer);
    }

    /** The streamed reply, each text piece passed on as it comes; `onChunk` after every chunk. */
    async function readStream(stream: AsyncIterable<OpenAI.ChatCompletionChunk>, onChunk: () => void) {
      let text = "";
      const toolCalls: ToolCall[] = [];
      for await (const chunk of stream) {
        onChunk();
        const delta = chunk.choices[0]?.delta;
        if (!delta) continue;
        if (delta.content) {
          text += delta.content;
          request.onText(delta.content);
        }
        // A tool call arrives in pieces, each naming the call it continues by index.
        for (const piece of delta.tool_calls ?? []) {
          const slot = (toolCalls[piece.index] ??= { id: "", name: "", arguments: "" });
          if (piece.id) slot.id = piece.id;
          if (piece.function?.name) slot.name += piece.function.name;
          if (piece.function?.arguments) slot.arguments += piece.function.arguments;
        }
      }
      return { text, toolCalls };
    }
  }

  return {
    logFields: { model: config.model, host: config.baseURL ? new URL(config.baseURL).host : "api.openai.com" },
    async complete(request) {
      try {
        return await call(request);
      } catch (error) {
        if (error instanceof ChatProviderError) throw error;
        throw new ChatProviderError("appel au fournisseur d'IA échoué", {
          retryable: isRetryable(error),
          cause: error,
        });
      }
    },
  };
}
