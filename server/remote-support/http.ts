/**
 * The HTTP answers shared by the remote-support routers (`api.ts`, issue 5;
 * `device-api.ts`, issue 15): refusals as `{ message }` in French with their
 * status (and `Retry-After`, s, for limits), untrusted input parsed with zod
 * whose English messages never reach a user, and the `:code` parameter.
 */
import type { ErrorRequestHandler, Request, Response } from "express";
import type { z } from "zod";
import { SESSION_MESSAGES, SessionCode, type ApiError } from "#app/remote-support/protocol.ts";
import type { RefusalReason } from "./sessions.ts";

/** HTTP status of each refusal of the session service. */
export const REFUSAL_STATUS = {
  "not-signed-in": 401,
  "not-permitted": 403,
  // Issue 28 §7: the same status (and message, `session-rules.ts`) as "not-found": nothing tells the two apart.
  "not-participant": 404,
  "own-session": 403,
  "wrong-password": 403,
  "not-found": 404,
  "already-connected": 409,
  "already-taken": 409,
  "not-waiting": 410,
  "session-ended": 409,
  "code-expired": 410,
  "too-many-joins": 429,
  "too-many-sessions": 429,
  "too-many-lookups": 429,
  "too-many-events": 429,
  // Signaling travels over Socket.IO, not this API; listed for completeness.
  "signal-rate": 429,
  "signal-quota": 429,
  "not-connected": 409,
  "wrong-sender": 403,
  "report-locked": 423,
  "rate-limited": 429,
  failed: 500,
} satisfies Record<RefusalReason, number>;

export function sendError(res: Response, status: number, message: string): void {
  res.status(status).json({ message } satisfies ApiError);
}

/** A refusal `{ reason, message, retryAfterSeconds? }` answered with `statuses[reason]`. */
export function sendRefusal<Reason extends string>(
  res: Response,
  refusal: { reason: Reason; message: string; retryAfterSeconds?: number },
  statuses: Record<Reason, number>,
): void {
  if (refusal.retryAfterSeconds === undefined) return sendError(res, statuses[refusal.reason], refusal.message);
  res.setHeader("Retry-After", String(refusal.retryAfterSeconds));
  sendError(res, statuses[refusal.reason], withRealWait(refusal.message, refusal.retryAfterSeconds));
}

/**
 * Issue 37 §10: « Réessayez dans quelques minutes » said with the real wait when it is known (`seconds`, as
 * `Retry-After` says it): « dans 45 secondes », « dans 12 minutes », « dans 1 heure », « dans 1 h 05 ».
 * Other messages are left as they are.
 */
export function withRealWait(message: string, seconds: number): string {
  const vague = "dans quelques minutes";
  if (!message.includes(vague) || !Number.isFinite(seconds) || seconds <= 0) return message;
  const plural = (count: number, word: string) => `${count} ${word}${count > 1 ? "s" : ""}`;
  let wait: string;
  if (seconds < 60) wait = plural(Math.ceil(seconds), "seconde");
  else {
    const minutes = Math.ceil(seconds / 60);
    const hours = Math.floor(minutes / 60);
    const rest = minutes % 60;
    if (hours === 0) wait = plural(minutes, "minute");
    else wait = rest === 0 ? plural(hours, "heure") : `${hours} h ${String(rest).padStart(2, "0")}`;
  }
  return message.replace(vague, `dans ${wait}`);
}

/** Parses untrusted input; zod's own (English) messages become `fallback`, the protocol's French ones stay. */
export function parse<T extends z.ZodType>(
  schema: T,
  input: unknown,
  fallback: string,
): { ok: true; data: z.output<T> } | { ok: false; message: string } {
  const result = schema.safeParse(input, { error: () => fallback });
  return result.success
    ? { ok: true, data: result.data }
    : { ok: false, message: result.error.issues[0]?.message ?? fallback };
}

/** A JSON body must be an object; absent (no JSON content type) counts as `{}`. */
export function bodyOf(req: Request): unknown {
  return req.body === undefined ? {} : req.body;
}

/** Validates `:code` (same rules and normalisation as a typed code); answers 400 and returns null when invalid. */
export function sessionCodeParam(req: Request, res: Response): string | null {
  const checked = parse(SessionCode, req.params.code, SESSION_MESSAGES.notFound);
  if (!checked.ok) {
    sendError(res, 400, checked.message);
    return null;
  }
  return checked.data;
}

/**
 * The routers' last handler: a body that is not JSON (400), too large (413)
 * or otherwise refused by the parser (4xx, `badBodyMessage`) is answered in
 * French; anything else (a database failure, a bug) is logged as
 * `logMessage` and answered 500 "Une erreur est survenue", never with its
 * details. Never cached.
 */
export function jsonErrorHandler(badBodyMessage: string, logMessage: string): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    res.setHeader("Cache-Control", "no-store");
    if (error?.type === "entity.parse.failed") return sendError(res, 400, SESSION_MESSAGES.badJson);
    if (error?.type === "entity.too.large") return sendError(res, 413, SESSION_MESSAGES.tooLarge);
    if (typeof error?.status === "number" && error.status >= 400 && error.status < 500) {
      return sendError(res, error.status, badBodyMessage);
    }
    req.log?.error({ err: error }, logMessage);
    sendError(res, 500, SESSION_MESSAGES.failed);
  };
}
