/**
 * The assistant's HTTP API (issue 7), mounted at `/api` before the forms
 * router, for accounts with the `assistant:use` permission (customers and
 * technicians; the guard of `server/access.ts`, issue 14): 401 "Utilisateur
 * non connecté" without a session, 403 without the permission:
 *
 * | Method, path                   | Success                                              |
 * |--------------------------------|------------------------------------------------------|
 * | GET    /api/assistant/messages | 200 `AssistantConversationResponse` (oldest first)   |
 * | DELETE /api/assistant/messages | 204 ("Nouvelle conversation")                        |
 * | POST   /api/assistant/messages `{ content }` | 200 `text/event-stream`: `user`, `delta`…, `done` (`AssistantStreamEvent`) |
 *
 * Refusals are `{ message }` in French: 400 bad body, 413 too large, 429
 * per-account limit (`Retry-After`, s), 500. Nothing about the provider (key,
 * URL, model) is ever sent.
 *
 * Issue 17 §4: with `ratings`, each answer of the GET carries the account's
 * own rating (`rating`), and the ratings routes of `ratings-api.ts` are added.
 */
import express, { type ErrorRequestHandler, type Response } from "express";
import {
  AssistantMessageBody,
  ASSISTANT_MESSAGES,
  assistantShopMessages,
  type AssistantStreamEvent,
} from "#app/assistant/protocol.ts";
import { defaultShop, type ShopSource } from "#app/config/shop.ts";
import { SESSION_MESSAGES } from "#app/remote-support/protocol.ts";
import type { Auth } from "#server/auth.ts";
import { createGuards, type GuardedHandler } from "#server/access.ts";
import type { AssistantService } from "./service.ts";
import { addRatingRoutes } from "./ratings-api.ts";
import type { AssistantRatingService } from "./ratings.ts";

/** Largest body: a 2 000-character message in JSON. */
export const ASSISTANT_BODY_LIMIT_BYTES = 16 * 1024;

function sendError(res: Response, status: number, message: string): void {
  res.status(status).json({ message });
}

/** One server-sent event. */
function writeEvent(res: Response, { event, data }: AssistantStreamEvent): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

export function createAssistantRouter({
  auth,
  assistant,
  ratings,
  shop,
}: {
  auth: Auth;
  assistant: AssistantService;
  /** Issue 29: the shop's identity (its contacts in the failure message); the defaults when absent. */
  shop?: ShopSource;
  /** Issue 17 §4: answers' ratings; absent, no ratings routes and no `rating` in the conversation. */
  ratings?: AssistantRatingService;
}): express.Router {
  const router = express.Router();
  const json = express.json({ limit: ASSISTANT_BODY_LIMIT_BYTES });

  const { requirePermission } = createGuards(auth);
  const route = (handler: GuardedHandler) => requirePermission("assistant:use", handler);

  router.get(
    "/assistant/messages",
    route(async (_req, res, caller) => {
      const result = await assistant.conversation(caller.userId);
      if (!result.ok) return sendError(res, 500, result.message);
      if (!ratings) return void res.json({ messages: result.messages });
      const answers = result.messages.filter((message) => message.role === "assistant").map((message) => message.id);
      const rated = await ratings.ratingsOf(caller.userId, answers);
      // The conversation matters more than its ratings: without them (logged), it is still shown.
      const byId = rated.ok ? rated.ratings : new Map();
      res.json({
        messages: result.messages.map((message) =>
          byId.has(message.id) ? { ...message, rating: byId.get(message.id) } : message,
        ),
      });
    }),
  );

  router.delete(
    "/assistant/messages",
    route(async (_req, res, caller) => {
      const result = await assistant.clear(caller.userId);
      if (!result.ok) return sendError(res, 500, result.message);
      res.status(204).end();
    }),
  );

  router.post(
    "/assistant/messages",
    json,
    route(async (req, res, caller) => {
      const body = AssistantMessageBody.safeParse(req.body ?? {}, { error: () => SESSION_MESSAGES.badBody });
      if (!body.success) return sendError(res, 400, body.error.issues[0]?.message ?? SESSION_MESSAGES.badBody);
      const abort = new AbortController();
      // The customer left: stop asking the provider.
      res.on("close", () => {
        if (!res.writableFinished) abort.abort();
      });
      let streaming = false;
      const start = () => {
        if (streaming) return;
        streaming = true;
        res.status(200);
        res.setHeader("Content-Type", "text/event-stream; charset=utf-8");
        res.setHeader("X-Accel-Buffering", "no");
        res.flushHeaders();
      };
      const result = await assistant.reply(caller.userId, body.data.content, {
        onUser: (message) => {
          start();
          writeEvent(res, { event: "user", data: message });
        },
        onText: (text) => {
          start();
          writeEvent(res, { event: "delta", data: { text } });
          // compression buffers by default: each piece must leave now.
          (res as Response & { flush?: () => void }).flush?.();
        },
        signal: abort.signal,
      });
      if (!result.ok) {
        if (streaming) {
          writeEvent(res, { event: "delta", data: { text: result.message } });
          return void res.end();
        }
        if (result.retryAfterSeconds !== undefined) res.setHeader("Retry-After", String(result.retryAfterSeconds));
        return sendError(res, result.reason === "rate-limited" ? 429 : 500, result.message);
      }
      writeEvent(res, { event: "done", data: result.message });
      res.end();
    }),
  );

  if (ratings) addRatingRoutes(router, { ratings, json, requirePermission });

  const onError: ErrorRequestHandler = (error, req, res, next) => {
    if (res.headersSent) return next(error);
    res.setHeader("Cache-Control", "no-store");
    if (error?.type === "entity.parse.failed") return sendError(res, 400, SESSION_MESSAGES.badJson);
    if (error?.type === "entity.too.large") return sendError(res, 413, ASSISTANT_MESSAGES.tooLong);
    if (typeof error?.status === "number" && error.status >= 400 && error.status < 500)
      return sendError(res, error.status, SESSION_MESSAGES.badBody);
    req.log?.error({ err: error }, "assistant API request failed");
    sendError(res, 500, assistantShopMessages(shop?.current() ?? defaultShop).failed);
  };
  router.use(onError);
  return router;
}
