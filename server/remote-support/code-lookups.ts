/**
 * Issue 28 §7: calls addressed to a session by its code
 * (`/api/sessions/:code/…`, in `api.ts` and `device-api.ts`).
 *
 * - A session the caller takes no part in does not exist for them: the
 *   refusal "not-participant" is answered exactly like "not-found" (404
 *   « Session non trouvée », `http.ts` and `session-rules.ts`), over HTTP and
 *   Socket.IO, so someone else's live code cannot be told from an unused one.
 * - Such answers are counted per account (`SessionLimits.lookupFailures`, the
 *   `rate_limits` store): once spent, every code-addressed call of that
 *   account is refused with 429, `Retry-After` and a French message, before
 *   any lookup, until the window ends.
 *
 * Counted after the lookup, not reserved before it as failed joins are
 * (`lifecycle.ts`): both answers being the same, the few parallel calls that
 * slip past the limit learn nothing, and a participant's ordinary calls (a
 * chat line, the device view) cost one read of the counter, never a write.
 * Calls whose code is malformed (400) are not counted: no session can have it.
 */
import type { Request, Response } from "express";
import type { Caller, GuardedHandler } from "#server/access.ts";
import { createRateLimiter, exhausted, penalise } from "#server/rate-limit.ts";
import { createRefusalLog } from "#server/refusal-log.ts";
import { refuse, type Outcome, type SessionContext } from "./session-rules.ts";
import { REFUSAL_STATUS, sendRefusal, sessionCodeParam } from "./http.ts";

/** The count of codes that named none of an account's sessions (`SessionService.codeLookups`). */
export type CodeLookups = {
  /**
   * Whether `caller` may still address sessions by code. Refusal: "too-many-lookups" with
   * `retryAfterSeconds` (s) once `lookupFailures.points` misses were counted in the window; "failed" when the store
   * cannot be read (logged).
   */
  admit(caller: Caller): Promise<Outcome<object>>;
  /** Counts one call of `caller` answered « Session non trouvée ». Never rejects: a store failure is logged. */
  missed(caller: Caller): Promise<void>;
};

/** The counter over the service's store and `limits.lookupFailures`; part of `createSessionService`. */
export function createCodeLookups({ rateLimits, limits, logger }: SessionContext): CodeLookups {
  const limiter = createRateLimiter(rateLimits, { name: "session-lookup-failure", ...limits.lookupFailures });
  // Issue 28 §13: anyone can repeat a refused call; one summary line a minute, never a line each.
  const refusals = createRefusalLog(logger, "appels par code de session refusés");
  return {
    async admit(caller) {
      try {
        const state = await exhausted(limiter, caller.userId);
        if (state.allowed) return { ok: true };
        refusals("trop de sessions introuvables");
        return refuse("too-many-lookups", { retryAfterSeconds: state.retryAfterSeconds });
      } catch (error) {
        logger.error({ err: error }, "limite des codes de session introuvables illisible");
        return refuse("failed");
      }
    },
    async missed(caller) {
      try {
        await penalise(limiter, caller.userId);
      } catch (error) {
        logger.error({ err: error }, "code de session introuvable non compté");
      }
    },
  };
}

/** A handler of a route with `:code`: `code` is already checked and normalised. */
export type CodeHandler = (req: Request, res: Response, caller: Caller, code: string) => Promise<void>;

/**
 * Wraps the handler of a `:code` route for the guards of `server/access.ts`: a malformed code answers 400
 * (`sessionCodeParam`); an account past its misses answers 429 before `handler` runs; and an answer 404 of
 * `handler` counts one miss.
 */
export function codeAddressed(lookups: CodeLookups, handler: CodeHandler): GuardedHandler {
  return async (req, res, caller) => {
    const code = sessionCodeParam(req, res);
    if (code === null) return;
    const admitted = await lookups.admit(caller);
    if (!admitted.ok) return sendRefusal(res, admitted, REFUSAL_STATUS);
    await handler(req, res, caller, code);
    // These routes answer 404 for "not-found" and "not-participant" only (`REFUSAL_STATUS`); an unknown path never
    // reaches them. Read from the answer so that no handler can forget to count.
    if (res.statusCode === 404) await lookups.missed(caller);
  };
}
