/**
 * Issue 29, « Prices in the dashboard »: the catalogue API under `/api/catalogue` (table in
 * `app/catalogue/prices-protocol.ts`), mounted before the forms router (whose catch-all answers 404).
 *
 * - `GET /api/catalogue/recherche`: the model finder's index of the current catalogue, for anyone, with a
 *   strong ETag and `Cache-Control: no-cache` (the browser asks again on each page and gets a 304 while
 *   nothing changed), so a price edit reaches the finder at the next page load (docs/decisions/026).
 * - The « Tarifs » routes: behind `shop:manage` (the manager: 401 « Utilisateur non connecté », 403
 *   « Réservé au gérant de l'atelier. »), `Cache-Control: no-store`; each change counts against
 *   `EDIT_LIMIT` per account.
 *
 * Bodies: JSON only, at most `CATALOGUE_BODY_LIMIT_BYTES`; unreadable JSON 400, too large 413, another type
 * 415: never a 5xx for bad bytes. Logs carry the user id, never a price.
 */
import express, { type Request, type Response } from "express";
import { CATALOGUE_MESSAGES, CATALOGUE_PATHS } from "#app/catalogue/prices-protocol.ts";
import { createGuards, type Caller } from "#server/access.ts";
import type { Auth } from "#server/auth.ts";
import { isJsonRequest, jsonApiErrors } from "#server/json-api.ts";
import { consume, createRateLimiter, MEMORY_STORE, type RateLimitStore } from "#server/rate-limit.ts";
import type { CatalogueService, EditOutcome, Editor } from "./service.ts";

/** Largest body: a model's name and its prices in JSON, with room to spare. */
export const CATALOGUE_BODY_LIMIT_BYTES = 4 * 1024;
/** Changes per account and window: a whole brand's prices re-typed in one sitting fits. */
export const EDIT_LIMIT = { points: 300, durationSeconds: 600 } as const;

const editorOf = (caller: Caller): Editor => ({ userId: caller.userId, name: caller.name });

function send(res: Response, outcome: EditOutcome): void {
  if (outcome.ok) return void res.json({ message: outcome.message });
  res.status(outcome.status).json({ message: outcome.message, fieldErrors: outcome.fieldErrors });
}

/** The router of `/api/catalogue/…`; `rateLimits`: where edits are counted (default memory). */
export function createCatalogueRouter({
  auth,
  catalogue,
  rateLimits = MEMORY_STORE,
}: {
  auth: Auth;
  catalogue: CatalogueService;
  rateLimits?: RateLimitStore;
}): express.Router {
  const router = express.Router();
  const json = express.json({ limit: CATALOGUE_BODY_LIMIT_BYTES });
  const { requirePermission } = createGuards(auth);
  const limiter = createRateLimiter(rateLimits, { name: "catalogue-edits", ...EDIT_LIMIT });

  router.get(CATALOGUE_PATHS.search.replace("/api", ""), (req, res) => {
    const { body, etag } = catalogue.searchIndex();
    res.setHeader("Cache-Control", "no-cache");
    res.setHeader("ETag", etag);
    if (req.headers["if-none-match"] === etag) return void res.status(304).end();
    res.type("application/json").send(body);
  });

  router.get(
    CATALOGUE_PATHS.prices.replace("/api", ""),
    requirePermission("shop:manage", async (_req, res) => {
      res.json(catalogue.pricesView());
    }),
  );
  router.get(
    CATALOGUE_PATHS.history.replace("/api", ""),
    requirePermission("shop:manage", async (req, res) => {
      try {
        res.json({ entries: await catalogue.history() });
      } catch (error) {
        req.log?.error({ err: error }, "catalogue history unreadable");
        res.status(500).json({ message: CATALOGUE_MESSAGES.failed });
      }
    }),
  );

  /** A change: JSON only, counted per account, then handed to the service (which never throws). */
  const change = (run: (editor: Editor, body: unknown) => Promise<EditOutcome>) =>
    requirePermission("shop:manage", async (req: Request, res: Response, caller: Caller) => {
      if (!isJsonRequest(req, res)) return;
      const outcome = await consume(limiter, caller.userId).catch(() => ({ allowed: true as const }));
      if (!outcome.allowed) {
        res.setHeader("Retry-After", String(outcome.retryAfterSeconds));
        return void res.status(429).json({ message: CATALOGUE_MESSAGES.tooMany });
      }
      send(res, await run(editorOf(caller), req.body as unknown));
    });
  router.put(CATALOGUE_PATHS.price.replace("/api", ""), json, change(catalogue.setPrice));
  router.post(CATALOGUE_PATHS.models.replace("/api", ""), json, change(catalogue.addModel));
  router.post(CATALOGUE_PATHS.visibility.replace("/api", ""), json, change(catalogue.setVisibility));

  router.use(
    "/catalogue",
    jsonApiErrors("catalogue API request failed", { status: 500, message: CATALOGUE_MESSAGES.failed }),
  );
  return router;
}
