/**
 * The JSON API under `/api` (issue 4): `POST /api/contact` and
 * `POST /api/quote` take a JSON or URL-encoded body (at most
 * `BODY_LIMIT_BYTES`) and answer JSON:
 *
 * - 201 `{ ok: true, id, message }` once the request and its outbox mail are stored;
 * - 400 `{ ok: false, message, errors: { field: "message" } }` for bad input
 *   (nothing stored), or `{ ok: false, message }` for a filled honeypot;
 * - 413 body too large, 415 unsupported body type, 429 too many requests
 *   (with `Retry-After`, s), 503 storage failure.
 *
 * Every message is French, meant to be shown as is.
 */
import express, { type ErrorRequestHandler, type Request, type Response } from "express";
import {
  messageOf,
  REQUEST_MESSAGES,
  statusOf,
  type RequestKind,
  type SubmissionResult,
} from "#app/requests/schemas.ts";
import type { FormServices } from "#app/utils/server-context.ts";

/** Largest accepted request body, bytes: the longest valid quote, fully accented, is well below. */
export const BODY_LIMIT_BYTES = 64 * 1024;

/** Answers a `SubmissionResult` as the API's JSON. */
export function sendSubmission(res: Response, kind: RequestKind, result: SubmissionResult): void {
  const message = messageOf(kind, result);
  res.setHeader("Cache-Control", "no-store");
  if (result.status === "rate-limited") res.setHeader("Retry-After", String(result.retryAfterSeconds));
  const body =
    result.status === "stored"
      ? { ok: true, id: result.id, message }
      : result.status === "invalid"
        ? { ok: false, message, errors: result.fieldErrors }
        : { ok: false, message };
  res.status(statusOf(result)).json(body);
}

export function createApiRouter(forms: FormServices): express.Router {
  const router = express.Router();
  router.use(express.json({ limit: BODY_LIMIT_BYTES, strict: false }));
  router.use(express.text({ type: "application/x-www-form-urlencoded", limit: BODY_LIMIT_BYTES }), formFieldsOfText);

  const submission = (kind: RequestKind) => async (req: Request, res: Response) => {
    if (!req.is(["application/json", "application/x-www-form-urlencoded"])) {
      res.status(415).json({ ok: false, message: REQUEST_MESSAGES.badContentType });
      return;
    }
    sendSubmission(res, kind, await forms.submitRequest(kind, req.body, { ip: req.ip ?? "inconnue" }));
  };
  router.post("/contact", submission("contact"));
  router.post("/quote", submission("quote"));

  router.all("/{*splat}", (_req, res) => {
    res.status(404).json({ ok: false, message: "Cette adresse de l'API n'existe pas." });
  });

  const onBodyError: ErrorRequestHandler = (error, req, res, next) => {
    if (error?.type === "entity.too.large") {
      res.status(413).json({ ok: false, message: REQUEST_MESSAGES.tooLarge });
    } else if (error?.type === "entity.parse.failed") {
      res.status(400).json({ ok: false, message: REQUEST_MESSAGES.badJson });
    } else if (typeof error?.status === "number" && error.status >= 400 && error.status < 500) {
      res.status(error.status).json({ ok: false, message: "Requête invalide." });
    } else {
      req.log.error({ err: error }, "API request failed");
      if (res.headersSent) return next(error);
      res.status(500).json({ ok: false, message: "Une erreur est survenue. Veuillez réessayer." });
    }
  };
  router.use(onBodyError);
  return router;
}

/**
 * A URL-encoded body (read as text) → its fields, decoded as the page
 * actions' `request.formData()` does (WHATWG: `%FF` or an encoded surrogate
 * becomes U+FFFD, which the schemas refuse), where Node's `querystring` kept
 * undecodable escapes as typed. A repeated name keeps its first value.
 */
const formFieldsOfText: express.RequestHandler = (req, _res, next) => {
  if (typeof req.body === "string" && req.is("application/x-www-form-urlencoded")) {
    const fields: Record<string, string> = {};
    for (const [name, value] of new URLSearchParams(req.body)) if (!(name in fields)) fields[name] = value;
    req.body = fields;
  }
  next();
};

/**
 * For page routes (route actions, without JavaScript): refuses a body larger
 * than `limit` bytes, or of unknown length, before React Router reads it.
 */
export function limitPageBody(limit: number): express.RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    const length = req.headers["content-length"];
    if (length === undefined && req.headers["transfer-encoding"] !== undefined) {
      res.status(411).type("text/plain; charset=utf-8").send("La taille de la demande doit être indiquée.");
      return;
    }
    if (Number(length ?? 0) > limit) {
      res.status(413).type("text/plain; charset=utf-8").send(REQUEST_MESSAGES.tooLarge);
      return;
    }
    next();
  };
}
