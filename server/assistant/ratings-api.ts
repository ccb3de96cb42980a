/**
 * The ratings routes (issue 17 §4), added to the assistant's router
 * (`api.ts`, mounted at `/api`) so they share its JSON parser bound and
 * error handler:
 *
 * | Method, path                                  | Permission        | Success                       |
 * |-----------------------------------------------|-------------------|-------------------------------|
 * | PUT /api/assistant/messages/:id/rating `{ rating, comment? }` | `assistant:use` | 200 `RatingResponse` |
 * | GET /api/assistant/ratings?avis=pas-utile\|tous&avant=<ISO> | `assistant:review` | 200 `RatingsListResponse` |
 *
 * Refusals are `{ message }` in French: 400 malformed id, body or query (never
 * a 5xx), 401/403 from the guard, 404 "Réponse introuvable." for an answer
 * that is not the caller's own, 429 per-account limit (`Retry-After`, s),
 * 500 database failure.
 */
import type express from "express";
import type { RequestHandler, Response } from "express";
import { RatedMessageId, RatingBody, RatingsQuery } from "#app/assistant/rating-schemas.ts";
import { RATING_FILTERS, RATINGS_PAGE_SIZE, type RatingResponse } from "#app/assistant/ratings-protocol.ts";
import { SESSION_MESSAGES } from "#app/remote-support/protocol.ts";
import type { GuardedHandler, Permission } from "#server/access.ts";
import type { AssistantRatingService, RatingRefusal } from "./ratings.ts";

const STATUS: Record<RatingRefusal["reason"], number> = { "not-found": 404, "rate-limited": 429, failed: 500 };

function refuse(res: Response, refusal: RatingRefusal): void {
  if (refusal.retryAfterSeconds !== undefined) res.setHeader("Retry-After", String(refusal.retryAfterSeconds));
  res.status(STATUS[refusal.reason]).json({ message: refusal.message });
}

const badRequest = (res: Response, message: string | undefined) =>
  void res.status(400).json({ message: message ?? SESSION_MESSAGES.badBody });

/**
 * Adds the two ratings routes to `router`. `json` is the router's body
 * parser; `requirePermission` its guard factory (`createGuards`).
 */
export function addRatingRoutes(
  router: express.Router,
  {
    ratings,
    json,
    requirePermission,
  }: {
    ratings: AssistantRatingService;
    json: RequestHandler;
    requirePermission: (permission: Permission, handler: GuardedHandler) => RequestHandler;
  },
): void {
  router.put(
    "/assistant/messages/:id/rating",
    json,
    requirePermission("assistant:use", async (req, res, caller) => {
      const id = RatedMessageId.safeParse(req.params.id);
      if (!id.success) return badRequest(res, id.error.issues[0]?.message);
      // A body that is not an object (array, number, null) gets the generic French message.
      const body = RatingBody.safeParse(req.body ?? {}, { error: () => SESSION_MESSAGES.badBody });
      if (!body.success) return badRequest(res, body.error.issues[0]?.message);
      const result = await ratings.rate(caller.userId, id.data, body.data);
      if (!result.ok) return refuse(res, result);
      res.json({ rating: result.rating } satisfies RatingResponse);
    }),
  );

  router.get(
    "/assistant/ratings",
    requirePermission("assistant:review", async (req, res) => {
      const query = RatingsQuery.safeParse(req.query ?? {}, { error: () => SESSION_MESSAGES.badBody });
      if (!query.success) return badRequest(res, query.error.issues[0]?.message);
      const result = await ratings.ratingsForStaff({
        filter: RATING_FILTERS[query.data.avis],
        limit: RATINGS_PAGE_SIZE,
        before: query.data.avant,
      });
      if (!result.ok) return refuse(res, result);
      const { ok: _ok, ...list } = result;
      res.json(list);
    }),
  );
}
