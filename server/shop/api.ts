/**
 * Issue 29 « Boutique »: `GET /api/shop/identity` (the form's values and their date) and `PUT
 * /api/shop/identity` (a full identity as JSON), both behind `shop:manage` (401 « Utilisateur non
 * connecté », 403 for other accounts). Mounted before the forms router (whose catch-all answers 404).
 *
 * Bodies: JSON only, at most `SHOP_BODY_LIMIT_BYTES`: unreadable JSON 400, too large 413, another type
 * 415, invalid values 400 with French messages per field (`fieldErrors`), too many changes 429 with
 * `Retry-After`: never a 5xx for any bytes sent; 503 only when the database fails. `no-store` throughout.
 */
import express from "express";
import { SHOP_IDENTITY_PATH, type ShopIdentityResponse } from "#app/shop/protocol.ts";
import { createGuards } from "#server/access.ts";
import type { Auth } from "#server/auth.ts";
import { isJsonRequest, jsonApiErrors } from "#server/json-api.ts";
import { consume, createRateLimiter, MEMORY_STORE, type RateLimitStore } from "#server/rate-limit.ts";
import type { ShopIdentityService } from "./identity.ts";

/** Largest body: the identity is about 2 KB with 14 opening lines; room to spare. */
export const SHOP_BODY_LIMIT_BYTES = 16 * 1024;
/** Changes per account and window: a manager correcting a typo many times, never a script. */
export const SHOP_UPDATE_LIMIT = { name: "shop-identity", points: 30, durationSeconds: 600 } as const;

const UNAVAILABLE = "Les informations de la boutique sont momentanément indisponibles. Réessayez dans un instant.";

/** The router of `SHOP_IDENTITY_PATH`; `rateLimits`: where the per-account count lives (memory by default). */
export function createShopRouter({
  auth,
  identity,
  rateLimits = MEMORY_STORE,
}: {
  auth: Auth;
  identity: ShopIdentityService;
  rateLimits?: RateLimitStore;
}): express.Router {
  const router = express.Router();
  const json = express.json({ limit: SHOP_BODY_LIMIT_BYTES });
  const { requirePermission } = createGuards(auth);
  const limiter = createRateLimiter(rateLimits, SHOP_UPDATE_LIMIT);
  const path = SHOP_IDENTITY_PATH.replace(/^\/api/, "");

  router.get(
    path,
    requirePermission("shop:manage", async (_req, res) => {
      res.json({ identity: identity.stored() } satisfies ShopIdentityResponse);
    }),
  );
  router.put(
    path,
    json,
    requirePermission("shop:manage", async (req, res, caller) => {
      if (!isJsonRequest(req, res)) return;
      const limit = await consume(limiter, caller.userId);
      if (!limit.allowed) {
        res.setHeader("Retry-After", String(limit.retryAfterSeconds));
        return void res
          .status(429)
          .json({ message: "Trop de modifications d'affilée. Réessayez dans quelques minutes." });
      }
      try {
        const outcome = await identity.update(req.body, caller.userId);
        if (!outcome.ok) {
          return void res.status(400).json({ message: outcome.message, fieldErrors: outcome.fieldErrors });
        }
        res.json({ identity: outcome.stored } satisfies ShopIdentityResponse);
      } catch (error) {
        req.log?.error({ err: error }, "identité de la boutique non enregistrée");
        res.status(503).json({ message: UNAVAILABLE });
      }
    }),
  );

  router.use(path, jsonApiErrors("shop API request failed", { status: 503, message: UNAVAILABLE }));
  return router;
}
