/**
 * The assistant's rules (issue 7), behind `/api/assistant/…`: one
 * conversation per signed-in account, stored; each new message rate-limited
 * per account, answered by the AI provider when one is configured
 * (`reply.ts` through a `ChatProvider`, issue 14), else by the offline
 * assistant (`offline.ts`); the reply streamed to the caller and stored as
 * shown, a provider's with its bare site paths written as named links
 * (issue 40, `nameBarePaths`; the final `done` event carries that text).
 *
 * Methods never throw: a database failure becomes `{ ok: false, reason:
 * "failed" }`; a provider failure is already one of the spec's messages.
 */
import { desc, eq } from "drizzle-orm";
import type { Logger } from "pino";
import { ASSISTANT_MESSAGES, assistantShopMessages, type AssistantMessage } from "#app/assistant/protocol.ts";
import { nameBarePaths, sitePathName, withoutNotice } from "#app/assistant/reply-links.ts";
import { defaultShop, type ShopSource } from "#app/config/shop.ts";
import { brands as seedBrands } from "#app/catalogue/index.ts";
import type { Brand } from "#app/catalogue/shapes.ts";
import type { AppDatabase } from "#database/connection.ts";
import { assistantMessages } from "#database/schema.ts";
import { consume, createRateLimiter, MEMORY_STORE, type RateLimitStore } from "#server/rate-limit.ts";
import { offlineAnswer } from "./offline.ts";
import { amountsIn } from "./price-guard.ts";
import type { ChatProvider } from "./provider.ts";
import { generateReply, HISTORY_LIMIT } from "./reply.ts";

/** Most messages shown when a conversation is reloaded. */
export const CONVERSATION_LIMIT = 200;

type Row = typeof assistantMessages.$inferSelect;
const toView = (row: Row): AssistantMessage => ({
  id: row.id,
  role: row.role,
  content: row.content,
  createdAt: row.createdAt.toISOString(),
});

export type AssistantRefusal = {
  ok: false;
  reason: "rate-limited" | "failed";
  message: string;
  retryAfterSeconds?: number;
};

export type AssistantService = {
  /** Whether answers come from an AI provider (false: the offline assistant). */
  readonly online: boolean;
  conversation(userId: string): Promise<{ ok: true; messages: AssistantMessage[] } | AssistantRefusal>;
  /** "Nouvelle conversation": forgets the account's messages. */
  clear(userId: string): Promise<{ ok: true } | AssistantRefusal>;
  /**
   * Stores `content`, then answers it: `onUser` gets the stored message,
   * `onText` each piece of the reply as it is written; resolves with the
   * stored reply. An empty message is answered by spec §5's sentence.
   */
  reply(
    userId: string,
    content: string,
    handlers: { onUser: (message: AssistantMessage) => void; onText: (text: string) => void; signal?: AbortSignal },
  ): Promise<{ ok: true; message: AssistantMessage } | AssistantRefusal>;
};

export type AssistantServiceOptions = {
  db: AppDatabase;
  logger: Logger;
  /** The model answering (`config.ts` chooses it); null: the offline assistant. */
  provider: ChatProvider | null;
  /** Messages per account and window; counted in `store` (`services.rateLimits`, issue 13 §10; default memory). */
  rateLimit: { points: number; durationSeconds: number; store?: RateLimitStore };
  /** Injected by tests (fake clock for retry delays). */
  sleep?: (ms: number) => Promise<void>;
  /**
   * Issue 29: the brands prices are quoted from, read for each message (the catalogue service's current
   * visible brands, edited in « Tarifs »); default the JSON seed, for tests that need no edited prices.
   */
  catalogue?: () => readonly Brand[];
  /** Issue 29: the shop's identity, read for each message (facts, failure messages); the defaults when absent. */
  shop?: ShopSource;
};

/** The assistant's rules over `options.db`; answers come from `options.provider`, or offline when it is null. */
export function createAssistantService(options: AssistantServiceOptions): AssistantService {
  const { db, logger, provider } = options;
  const brandsNow = options.catalogue ?? (() => seedBrands);
  const shopNow = () => options.shop?.current() ?? defaultShop;
  const limiter = createRateLimiter(options.rateLimit.store ?? MEMORY_STORE, {
    name: "assistant-account",
    points: options.rateLimit.points,
    durationSeconds: options.rateLimit.durationSeconds,
  });
  const failed = (error: unknown, message: string): AssistantRefusal => {
    logger.error({ err: error }, message);
    return { ok: false, reason: "failed", message: assistantShopMessages(shopNow()).failed };
  };

  return {
    online: provider !== null,

    async conversation(userId) {
      try {
        const rows = await db
          .select()
          .from(assistantMessages)
          .where(eq(assistantMessages.userId, userId))
          .orderBy(desc(assistantMessages.createdAt))
          .limit(CONVERSATION_LIMIT);
        return { ok: true, messages: rows.reverse().map(toView) };
      } catch (error) {
        return failed(error, "conversation de l'assistant illisible");
      }
    },

    async clear(userId) {
      try {
        await db.delete(assistantMessages).where(eq(assistantMessages.userId, userId));
        return { ok: true };
      } catch (error) {
        return failed(error, "conversation de l'assistant non effacée");
      }
    },

    async reply(userId, content, handlers) {
      let outcome;
      try {
        outcome = await consume(limiter, userId);
      } catch (error) {
        return failed(error, "limite de l'assistant illisible");
      }
      if (!outcome.allowed) {
        return {
          ok: false,
          reason: "rate-limited",
          message: ASSISTANT_MESSAGES.tooManyMessages,
          retryAfterSeconds: outcome.retryAfterSeconds,
        };
      }
      let history: Row[];
      try {
        const [stored] = await db.insert(assistantMessages).values({ userId, role: "user", content }).returning();
        handlers.onUser(toView(stored!));
        history = (
          await db
            .select()
            .from(assistantMessages)
            .where(eq(assistantMessages.userId, userId))
            .orderBy(desc(assistantMessages.createdAt))
            .limit(HISTORY_LIMIT)
        ).reverse();
      } catch (error) {
        return failed(error, "message de l'assistant non enregistré");
      }

      let answer: string;
      if (!content.trim()) {
        answer = ASSISTANT_MESSAGES.emptyMessage;
        handlers.onText(answer);
      } else if (!provider) {
        answer = offlineAnswer(content, brandsNow(), shopNow());
        handlers.onText(answer);
      } else {
        // Amounts of earlier replies were checked when they were written: they stay allowed.
        const grounded = new Set(
          history.filter((row) => row.role === "assistant").flatMap((row) => amountsIn(row.content)),
        );
        const brands = brandsNow();
        const outcome = await generateReply({
          provider,
          // Issue 40: answers stored before still start with the old notice; the model must not copy it.
          history: history.map((row) => ({ role: row.role, content: withoutNotice(row.content) })),
          grounded,
          brands,
          shop: shopNow(),
          onText: handlers.onText,
          sleep: options.sleep,
          signal: handlers.signal,
        });
        if (outcome.kind === "failed" || outcome.kind === "retries-exhausted") {
          logger.warn(
            { err: outcome.cause, kind: outcome.kind, calls: outcome.calls },
            "assistant : le fournisseur d'IA a échoué",
          );
        }
        if (outcome.replaced.length > 0)
          logger.warn({ amounts: outcome.replaced }, "assistant : montant non vérifié remplacé");
        // Issue 40: stored (and sent in `done`) with its bare paths named from this catalogue, without the notice.
        answer = nameBarePaths(withoutNotice(outcome.content), (path) => sitePathName(path, brands));
      }
      try {
        const [stored] = await db
          .insert(assistantMessages)
          .values({ userId, role: "assistant", content: answer })
          .returning();
        return { ok: true, message: toView(stored!) };
      } catch (error) {
        return failed(error, "réponse de l'assistant non enregistrée");
      }
    },
  };
}
