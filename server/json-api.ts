/**
 * What the dashboard's JSON routers share (issue 29: « Équipe », « Boutique », « Tarifs »; issue 19's repair
 * tickets): a JSON-only check answering a French 415, `Cache-Control: no-store`, and one error handler that
 * turns a body the parser refused into a French 4xx (unreadable JSON 400, too large 413, any other 4xx with
 * « Le contenu envoyé doit être un objet JSON. ») and anything else into the router's own French failure,
 * logged without the body. So no byte sequence gets a 5xx from the parser and no stack trace reaches a user.
 */
import type { ErrorRequestHandler, Request, RequestHandler, Response } from "express";
import { ACCOUNT_MESSAGES } from "#app/remote-support/account.ts";
import { SESSION_MESSAGES } from "#app/remote-support/protocol.ts";

/**
 * True when the request's body is JSON; otherwise answers 415 « Format non pris en charge : envoyez du JSON
 * (Content-Type: application/json). » and returns false (the caller returns at once).
 */
export function isJsonRequest(req: Request, res: Response): boolean {
  if (req.is("application/json")) return true;
  res.status(415).json({ message: ACCOUNT_MESSAGES.badContentType });
  return false;
}

/** `Cache-Control: no-store` on every answer of the routes it is mounted on (a dashboard's data is private). */
export const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader("Cache-Control", "no-store");
  next();
};

/**
 * The error handler of a JSON router: body refusals → French 400/413/4xx; anything else → `failure.status`
 * (5xx) with `failure.message`, logged as `logMessage` with the error (never the body).
 */
export function jsonApiErrors(logMessage: string, failure: { status: number; message: string }): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    res.setHeader("Cache-Control", "no-store");
    if (error?.type === "entity.parse.failed") return void res.status(400).json({ message: SESSION_MESSAGES.badJson });
    if (error?.type === "entity.too.large") return void res.status(413).json({ message: SESSION_MESSAGES.tooLarge });
    if (typeof error?.status === "number" && error.status >= 400 && error.status < 500) {
      return void res.status(error.status).json({ message: SESSION_MESSAGES.badBody });
    }
    req.log?.error({ err: error }, logMessage);
    res.status(failure.status).json({ message: failure.message });
  };
}
