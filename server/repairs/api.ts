/**
 * The staff API of repair tracking (issue 18 §2), mounted at `/api` before
 * the forms router (whose catch-all answers 404), every route but `/repairs/mine` behind the
 * `repairs:manage` permission (technicians; `server/access.ts`): 401
 * "Utilisateur non connecté", 403 "Réservé aux techniciens." otherwise.
 *
 * | Method, path                              | Body                                   | Success                  |
 * |-------------------------------------------|----------------------------------------|--------------------------|
 * | GET  /api/repairs?etat=ouvertes\|toutes    |                                        | 200 `RepairListResponse` |
 * | POST /api/repairs                          | `{ appointmentId, … }` or a walk-in's fields (`WalkInTicket`) | 201 `RepairTicketResponse` |
 * | GET  /api/repairs/:id (or its code, issue 40) |                                     | 200 `RepairTicketResponse` |
 * | POST /api/repairs/:id/status               | `{ status, note? }`                    | 200 `RepairTicketResponse` |
 * | POST /api/repairs/:id/quote                | `{ description, amountEuros, note? }`  | 200 `RepairTicketResponse` |
 * | POST /api/repairs/:id/decision             | `{ decision: "accepted" \| "refused" }` (given by phone) | 200 `RepairTicketResponse` |
 * | POST /api/repairs/:id/drop-off (issue 40)  | `{ conditionNotes?, accessories? }` (`DropOffEdit`) | 200 `RepairTicketResponse` |
 * | GET  /api/repairs/mine (any signed-in account) |                                    | 200 `CustomerRepairsResponse` |
 * | POST /api/repairs/mine (any signed-in account) | `{ code, contact }`                | 200 `CustomerRepairsResponse` / 404 / 409 in another account / 429 |
 *
 * Refusals are `{ message, fieldErrors? }` in French: 400 unreadable or
 * invalid body (never a 5xx for bad bytes), 404 unknown ticket or
 * appointment, 409 a move the rules refuse, 413 too large, 500 database failure.
 */
import express, { type Response } from "express";
import type { CustomerRepairsResponse, RepairListResponse, RepairTicketResponse } from "#app/repairs/protocol.ts";
import { SESSION_MESSAGES } from "#app/remote-support/protocol.ts";
import type { Auth } from "#server/auth.ts";
import { createGuards } from "#server/access.ts";
import { jsonApiErrors } from "#server/json-api.ts";
import type { RepairRefusal, RepairService, TicketResult } from "./service.ts";

/** Largest body: a quote's 2 000 characters and notes, in JSON, with room to spare. */
export const REPAIRS_BODY_LIMIT_BYTES = 32 * 1024;

const STATUS: Record<RepairRefusal["reason"], number> = { invalid: 400, "not-found": 404, conflict: 409, failed: 500 };

function refuse(res: Response, refusal: RepairRefusal): void {
  res.status(STATUS[refusal.reason]).json({ message: refusal.message, fieldErrors: refusal.fieldErrors });
}

function answer(res: Response, result: TicketResult, status = 200): void {
  if (!result.ok) return refuse(res, result);
  res.status(status).json({ ticket: result.ticket } satisfies RepairTicketResponse);
}

/** The router of the table above; `repairs` holds the rules, `auth` resolves the caller. */
export function createRepairsRouter({ auth, repairs }: { auth: Auth; repairs: RepairService }): express.Router {
  const router = express.Router();
  const json = express.json({ limit: REPAIRS_BODY_LIMIT_BYTES });
  const { requireCaller, requirePermission } = createGuards(auth);
  // Express gives `undefined` for a body of another type: the service answers it in French (400).
  const body = (req: express.Request): unknown => req.body;

  // Before "/repairs/:id", which only staff may read. Any signed-in account: its own repairs (issue 18 §2).
  router.get(
    "/repairs/mine",
    requireCaller(async (_req, res, caller) => {
      const result = await repairs.account.mine(caller.userId);
      if (!result.ok) return void res.status(500).json({ message: result.message });
      res.json({ repairs: result.repairs } satisfies CustomerRepairsResponse);
    }),
  );
  router.post(
    "/repairs/mine",
    json,
    requireCaller(async (req, res, caller) => {
      const result = await repairs.account.claim(caller.userId, body(req), { ip: req.ip ?? "inconnue" });
      if (result.ok) return void res.json({ repairs: result.repairs } satisfies CustomerRepairsResponse);
      const status = { invalid: 400, "not-found": 404, "rate-limited": 429, taken: 409, failed: 500 }[result.reason];
      if (result.retryAfterSeconds !== undefined) res.setHeader("Retry-After", String(result.retryAfterSeconds));
      res.status(status).json({ message: result.message });
    }),
  );

  router.get(
    "/repairs",
    requirePermission("repairs:manage", async (req, res) => {
      const all = req.query.etat === "toutes";
      const result = await repairs.list({ all });
      if (!result.ok) return refuse(res, result);
      res.json({ tickets: result.tickets } satisfies RepairListResponse);
    }),
  );

  router.post(
    "/repairs",
    json,
    requirePermission("repairs:manage", async (req, res, caller) => {
      answer(res, await repairs.open(body(req), caller.userId), 201);
    }),
  );

  router.get(
    "/repairs/:id",
    requirePermission("repairs:manage", async (req, res) => {
      answer(res, await repairs.get(String(req.params.id)));
    }),
  );

  router.post(
    "/repairs/:id/status",
    json,
    requirePermission("repairs:manage", async (req, res, caller) => {
      answer(res, await repairs.changeStatus(String(req.params.id), body(req), caller.userId));
    }),
  );

  router.post(
    "/repairs/:id/quote",
    json,
    requirePermission("repairs:manage", async (req, res, caller) => {
      answer(res, await repairs.enterQuote(String(req.params.id), body(req), caller.userId));
    }),
  );

  router.post(
    "/repairs/:id/decision",
    json,
    requirePermission("repairs:manage", async (req, res, caller) => {
      answer(res, await repairs.recordDecision(String(req.params.id), body(req), caller.userId));
    }),
  );

  router.post(
    "/repairs/:id/drop-off",
    json,
    requirePermission("repairs:manage", async (req, res) => {
      answer(res, await repairs.editDropOff(String(req.params.id), body(req)));
    }),
  );

  router.use(jsonApiErrors("repairs API request failed", { status: 500, message: SESSION_MESSAGES.failed }));
  return router;
}
