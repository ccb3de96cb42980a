/**
 * Issue 40, the technician dashboard's own routes, mounted by `createRemoteSupportRouter`
 * (`remote-support/api.ts`) under `/api`; the rules are the session service's (`requests-treatment.ts`,
 * `dashboard-counts.ts`), the guard `server/access.ts`'s, like every staff route.
 *
 * | Method, path                            | Who                | Body                         | Success                    |
 * |-----------------------------------------|--------------------|------------------------------|----------------------------|
 * | GET  /api/dashboard/counts              | `session:history`  |                              | 200 `DashboardCounts`      |
 * | POST /api/requests/:id/treatment        | `requests:read`    | `{ kind, treated }`          | 200 `RequestResponse`      |
 *
 * Errors are `{ message }` in French: 400 a body that is not `TreatmentBody` (or not JSON), 401 not signed in,
 * 403 not staff, 404 « Cette demande n'existe pas ou a été supprimée. », 413 a body over
 * `DASHBOARD_BODY_LIMIT_BYTES`, 500 a database failure. Always `Cache-Control: no-store` (the guard's). No rate
 * limit, like the other staff routes of the dashboard (`/api/requests`, `/api/agenda`, `/api/repairs`): only
 * signed-in staff reach them, and each is one small query.
 */
import express, { type Response } from "express";
import { DASHBOARD_COUNTS_ROUTE, type DashboardCounts } from "#app/remote-support/dashboard-counts.ts";
import { REQUEST_TREATMENT_ROUTE, TREATMENT_MESSAGES, TreatmentBody } from "#app/requests/treatment.ts";
import type { RequestResponse } from "#app/requests/views.ts";
import { SESSION_MESSAGES } from "#app/remote-support/protocol.ts";
import type { Auth } from "./auth.ts";
import { createGuards } from "./access.ts";
import { bodyOf, jsonErrorHandler, parse, REFUSAL_STATUS, sendError, sendRefusal } from "./remote-support/http.ts";
import type { Refusal } from "./remote-support/session-rules.ts";
import type { SessionService } from "./remote-support/sessions.ts";

/** Largest body, bytes: `{ "kind": "contact", "treated": false }` is 38. */
export const DASHBOARD_BODY_LIMIT_BYTES = 1024;

const sendRefusalOf = (res: Response, refusal: Refusal) => sendRefusal(res, refusal, REFUSAL_STATUS);

/** The routes above; `sessions` holds their rules. */
export function createDashboardRouter({
  auth,
  sessions,
}: {
  auth: Auth;
  sessions: Pick<SessionService, "dashboardCounts" | "setRequestTreated">;
}): express.Router {
  const router = express.Router();
  const json = express.json({ limit: DASHBOARD_BODY_LIMIT_BYTES });
  const { requirePermission } = createGuards(auth);

  router.get(
    DASHBOARD_COUNTS_ROUTE,
    requirePermission("session:history", async (_req, res, caller) => {
      const result = await sessions.dashboardCounts(caller);
      if (!result.ok) return sendRefusalOf(res, result);
      res.json(result.counts satisfies DashboardCounts);
    }),
  );

  router.post(
    REQUEST_TREATMENT_ROUTE,
    json,
    requirePermission("requests:read", async (req, res, caller) => {
      const body = parse(TreatmentBody, bodyOf(req), TREATMENT_MESSAGES.badBody);
      if (!body.ok) return sendError(res, 400, body.message);
      const result = await sessions.setRequestTreated(caller, String(req.params.id), body.data);
      if (!result.ok) return sendRefusalOf(res, result);
      res.json({ request: result.request } satisfies RequestResponse);
    }),
  );

  router.use(jsonErrorHandler(SESSION_MESSAGES.badBody, "tableau de bord : requête en échec"));
  return router;
}
