/**
 * Issue 40, « The manager »: the routes of `app/go-live/protocol.ts`.
 * - `GET /api/mail/status` (`requests:read`: every staff member, whose views say « envoyé » or not): whether
 *   mail leaves the server.
 * - `POST /api/mail/test` (`shop:manage`): the test mail to the signed-in manager's own address, at most
 *   `TEST_MAIL_LIMIT` per manager (429 with `Retry-After`); 200 sent, 409 mail not configured, 502 refused
 *   by the mail server (its reason in French, no secret).
 * - `GET /api/go-live` (`shop:manage`): the « Mise en ligne » checklist (`checklist.ts`).
 * Every answer is `Cache-Control: no-store` (the guards set it).
 */
import express from "express";
import {
  GO_LIVE_PATH,
  MAIL_MESSAGES,
  MAIL_STATUS_PATH,
  TEST_MAIL_LIMIT,
  TEST_MAIL_PATH,
  type GoLiveChecklist,
  type MailStatus,
} from "#app/go-live/protocol.ts";
import { defaultShop, type ShopSource } from "#app/config/shop.ts";
import { createGuards } from "#server/access.ts";
import type { Auth } from "#server/auth.ts";
import { aiConfigFromEnv } from "#server/assistant/config.ts";
import { backupStatusView } from "#server/backup/api.ts";
import type { Env } from "#server/env.ts";
import { jsonApiErrors } from "#server/json-api.ts";
import type { MailService } from "#server/outbox/mail-service.ts";
import { consume, createRateLimiter, MEMORY_STORE, type RateLimitStore } from "#server/rate-limit.ts";
import { goLiveChecklist } from "./checklist.ts";

const STATUS = { sent: 200, "not-configured": 409, failed: 502 } as const;

export function createGoLiveRouter({
  auth,
  env,
  mail,
  shop,
  rateLimits = MEMORY_STORE,
}: {
  auth: Auth;
  env: Env;
  mail: MailService;
  shop?: ShopSource;
  rateLimits?: RateLimitStore;
}): express.Router {
  const router = express.Router();
  const { requirePermission } = createGuards(auth);
  const limiter = createRateLimiter(rateLimits, { name: "test-mail", ...TEST_MAIL_LIMIT });
  const path = (full: string) => full.replace(/^\/api/, "");

  router.get(
    path(MAIL_STATUS_PATH),
    requirePermission("requests:read", async (_req, res) => {
      res.json({ configured: mail.configured } satisfies MailStatus);
    }),
  );
  router.post(
    path(TEST_MAIL_PATH),
    requirePermission("shop:manage", async (_req, res, caller) => {
      const limit = await consume(limiter, caller.userId);
      if (!limit.allowed) {
        res.setHeader("Retry-After", String(limit.retryAfterSeconds));
        return void res.status(429).json({ message: MAIL_MESSAGES.tooMany });
      }
      const answer = await mail.sendTest({ name: caller.name, email: caller.email });
      res.status(STATUS[answer.outcome]).json(answer);
    }),
  );
  router.get(
    path(GO_LIVE_PATH),
    requirePermission("shop:manage", async (_req, res) => {
      const checklist = goLiveChecklist({
        shop: shop?.current() ?? defaultShop,
        mailConfigured: mail.configured,
        backup: await backupStatusView(env),
        aiConfigured: aiConfigFromEnv(env) !== null,
        now: new Date(),
      });
      res.json(checklist satisfies GoLiveChecklist);
    }),
  );
  for (const prefix of ["/mail", "/go-live"])
    router.use(prefix, jsonApiErrors("go-live API request failed", { status: 503, message: MAIL_MESSAGES.failed }));
  return router;
}
