/**
 * better-auth over HTTP at `/api/auth/*` (issue 5), with the body bounded
 * and checked before better-auth sees it (issue 13 §5, §7).
 *
 * better-auth's own Node adapter reads a body of any size into memory: a
 * 50 MB name went through, and four such requests took the server to
 * 1.37 GB. Here the body is read by Express with a byte limit and must be
 * UTF-8 JSON holding an object; only then is a fetch `Request` built for
 * `auth.handler`. Its `Response` is written back as is, except:
 *
 * - better-auth's own 429 (English) becomes `tooManyAttemptsMessage` with
 *   `Retry-After` (seconds);
 * - a 5xx becomes a French message with nothing of the cause (logged).
 *
 * Refusals here are JSON `{ code, message }` with a French `message` and a
 * code from `FRENCH_AUTH_CODES`: 413 larger than `AUTH_BODY_LIMIT_BYTES`,
 * 415 not JSON (or compressed), 400 not UTF-8, not JSON, or not an object.
 * The client's IP address is passed in `CLIENT_IP_HEADER` (any incoming
 * value replaced), from `req.ip`, i.e. after Express's `trust proxy`.
 */
import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from "express";
import { fromNodeHeaders } from "better-auth/node";
import {
  ACCOUNT_MESSAGES,
  FRENCH_AUTH_CODES,
  isFrenchAuthCode,
  tooManyAttemptsMessage,
} from "#app/remote-support/account.ts";
import { CLIENT_IP_HEADER, type Auth } from "./auth.ts";

/**
 * Largest `/api/auth` body, bytes. The largest legitimate one (sign-up: a
 * 100-character name, a 254-character e-mail and a 128-character password,
 * all escaped as `\uXXXX`) is under 3 KB.
 */
export const AUTH_BODY_LIMIT_BYTES = 16 * 1024;

/** Headers that describe the incoming message, not the request better-auth sees (the body is passed decoded). */
const HOP_HEADERS = ["content-length", "transfer-encoding", "connection", "keep-alive", "expect", "content-encoding"];

// A leading byte-order mark is dropped, as RFC 8259 allows and express.json does for the other routes.
const utf8 = new TextDecoder("utf-8", { fatal: true });

function refuse(res: Response, status: number, code: string, message: string): void {
  res.status(status).json({ code, message });
}

/**
 * The handlers for `app.all("/api/auth/{*splat}", …)`: a bounded body
 * reader, the better-auth call, and the French answers of body errors.
 * `publicUrl` (PUBLIC_URL) is the origin of the `Request` handed to
 * better-auth, whatever the Host header says.
 */
export function authHandlers(
  auth: Auth,
  { publicUrl }: { publicUrl: string },
): (RequestHandler | ErrorRequestHandler)[] {
  const origin = new URL(publicUrl).origin;
  // Compressed bodies are refused (415): a small gzip could inflate far past the limit before it is checked.
  const readBody = express.raw({ type: () => true, limit: AUTH_BODY_LIMIT_BYTES, inflate: false });

  const handle: RequestHandler = async (req: Request, res: Response) => {
    res.setHeader("Cache-Control", "no-store");
    let text: string | undefined;
    if (Buffer.isBuffer(req.body) && req.body.length > 0) {
      const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers["content-type"] ?? "")?.[1]?.toLowerCase();
      if (
        req.is("application/json") !== "application/json" ||
        (charset !== undefined && charset !== "utf-8" && charset !== "utf8")
      ) {
        return refuse(res, 415, FRENCH_AUTH_CODES.badContentType, ACCOUNT_MESSAGES.badContentType);
      }
      try {
        text = utf8.decode(req.body);
      } catch {
        return refuse(res, 400, FRENCH_AUTH_CODES.badBody, ACCOUNT_MESSAGES.badUtf8);
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return refuse(res, 400, FRENCH_AUTH_CODES.badBody, ACCOUNT_MESSAGES.badJson);
      }
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
        return refuse(res, 400, FRENCH_AUTH_CODES.badBody, ACCOUNT_MESSAGES.notAnObject);
      }
    }
    let request: globalThis.Request;
    try {
      const headers = fromNodeHeaders(req.headers);
      for (const name of HOP_HEADERS) headers.delete(name);
      headers.set(CLIENT_IP_HEADER, req.ip ?? "");
      const hasBody = req.method !== "GET" && req.method !== "HEAD" && text !== undefined;
      request = new Request(origin + req.originalUrl, {
        method: req.method,
        headers,
        body: hasBody ? text : undefined,
      });
    } catch {
      // A header value or path that the fetch API refuses (Node's parser is more lenient).
      return refuse(res, 400, FRENCH_AUTH_CODES.badBody, ACCOUNT_MESSAGES.badRequest);
    }
    let response: globalThis.Response;
    try {
      response = await auth.handler(request);
    } catch (error) {
      req.log?.error({ err: error }, "better-auth a échoué");
      return refuse(res, 500, FRENCH_AUTH_CODES.failed, ACCOUNT_MESSAGES.failed);
    }
    await sendResponse(req, res, response);
  };

  const onBodyError: ErrorRequestHandler = (error, req, res, next) => {
    if (res.headersSent) return next(error);
    res.setHeader("Cache-Control", "no-store");
    if (error?.type === "entity.too.large") {
      // The rest of the body is not read: close the connection rather than drain it.
      res.setHeader("Connection", "close");
      return refuse(res, 413, FRENCH_AUTH_CODES.tooLarge, ACCOUNT_MESSAGES.tooLarge);
    }
    if (error?.type === "encoding.unsupported")
      return refuse(res, 415, FRENCH_AUTH_CODES.badContentType, ACCOUNT_MESSAGES.badContentType);
    // Aborted upload, body shorter or longer than its Content-Length…
    if (typeof error?.status === "number" && error.status >= 400 && error.status < 500) {
      return refuse(res, 400, FRENCH_AUTH_CODES.badBody, ACCOUNT_MESSAGES.badRequest);
    }
    req.log?.error({ err: error }, "requête de compte illisible");
    refuse(res, 500, FRENCH_AUTH_CODES.failed, ACCOUNT_MESSAGES.failed);
  };

  return [readBody, handle, onBodyError];
}

/** Writes better-auth's answer, turning its English 429 and any 5xx into French. */
async function sendResponse(req: Request, res: Response, response: globalThis.Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status === 429 && !isFrenchAuthCode(codeOf(body))) {
    const seconds = Math.max(
      1,
      Number(response.headers.get("x-retry-after") ?? response.headers.get("retry-after")) || 60,
    );
    res.setHeader("Retry-After", String(seconds));
    return refuse(res, 429, FRENCH_AUTH_CODES.tooManyAttempts, tooManyAttemptsMessage(seconds));
  }
  if (response.status >= 500) {
    req.log?.error({ status: response.status, code: codeOf(body) }, "better-auth a répondu une erreur serveur");
    return refuse(res, 500, FRENCH_AUTH_CODES.failed, ACCOUNT_MESSAGES.failed);
  }
  res.status(response.status);
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie" && name !== "content-length") res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("Set-Cookie", cookies);
  res.end(body);
}

/** The `code` of a JSON error body, if any. */
function codeOf(body: Buffer): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body.toString("utf8"));
    if (parsed && typeof parsed === "object" && "code" in parsed && typeof parsed.code === "string") return parsed.code;
  } catch {
    // not JSON: no code
  }
  return undefined;
}
