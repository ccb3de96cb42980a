/**
 * Issue 38 §4, the technician's « Informations de l'ordinateur » over HTTP (`facts-protocol.ts`), mounted by
 * `createRemoteSupportRouter` (`api.ts`) under `/api`; the rule is `SessionService.computerFacts`
 * (`computer-facts.ts`).
 *
 * | Method, path                     | Who                                            | Success              |
 * |----------------------------------|------------------------------------------------|----------------------|
 * | GET /api/sessions/:code/facts    | `session:join`, the technician of that session | 200 `FactsResponse`  |
 *
 * Errors are `{ message }` in French: 400 a malformed code, 401 not signed in, 403 not a technician, 404 no such
 * session or not his (answered alike, counted per account: `code-lookups.ts`), 429 too many of those, 500 a
 * database failure. Always `Cache-Control: no-store` (the guard's).
 */
import express, { type Response } from "express";
import { API_ROUTES } from "#app/remote-support/api-paths.ts";
import type { FactsResponse } from "#app/remote-support/facts-protocol.ts";
import { SESSION_MESSAGES } from "#app/remote-support/protocol.ts";
import type { Auth } from "#server/auth.ts";
import { createGuards } from "#server/access.ts";
import { codeAddressed } from "./code-lookups.ts";
import { jsonErrorHandler, REFUSAL_STATUS, sendRefusal } from "./http.ts";
import type { Refusal } from "./session-rules.ts";
import type { SessionService } from "./sessions.ts";

const sendRefusalOf = (res: Response, refusal: Refusal) => sendRefusal(res, refusal, REFUSAL_STATUS);

/** The route above. `sessions`: its rule (`computerFacts`) and the count of codes that named no session of the caller. */
export function createFactsRouter({
  auth,
  sessions,
}: {
  auth: Auth;
  sessions: Pick<SessionService, "computerFacts" | "codeLookups">;
}): express.Router {
  const router = express.Router();
  const { requirePermission } = createGuards(auth);
  router.get(
    API_ROUTES.facts,
    requirePermission(
      "session:join",
      codeAddressed(sessions.codeLookups, async (_req, res, caller, code) => {
        const result = await sessions.computerFacts(caller, code);
        if (!result.ok) return sendRefusalOf(res, result);
        res.json({ facts: result.facts } satisfies FactsResponse);
      }),
    ),
  );
  router.use(jsonErrorHandler(SESSION_MESSAGES.badBody, "informations de l'ordinateur : requête en échec"));
  return router;
}
