/**
 * Which model answers the assistant, from the environment (issue 7 variables
 * `OPENAI_API_KEY`, `OPENAI_BASE_URL`, `AI_MODEL`, `AI_STREAM`,
 * `AI_TIMEOUT_MS`; moved out of `app/` by issue 14). The one place a
 * `ChatProvider` implementation is chosen: another provider = its own module
 * and the line below.
 */
import type { Env } from "#server/env.ts";
import { createOpenAICompatibleProvider, type OpenAICompatibleConfig } from "./openai-compatible.ts";
import type { ChatProvider } from "./provider.ts";

/** The provider's settings, or null (the offline assistant) when neither a key nor a base URL is set. */
export function aiConfigFromEnv(env: Env): OpenAICompatibleConfig | null {
  if (!env.OPENAI_API_KEY && !env.OPENAI_BASE_URL) return null;
  return {
    apiKey: env.OPENAI_API_KEY,
    baseURL: env.OPENAI_BASE_URL,
    model: env.AI_MODEL,
    stream: env.AI_STREAM,
    timeoutMs: env.AI_TIMEOUT_MS,
  };
}

/** The assistant's `ChatProvider` for `env`, or null for the offline assistant. */
export function chatProviderFromEnv(env: Env): ChatProvider | null {
  const config = aiConfigFromEnv(env);
  return config && createOpenAICompatibleProvider(config);
}
