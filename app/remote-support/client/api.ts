/**
 * Browser calls to the remote-support API and to better-auth (issue 5; spec
 * §2 "/soft-assist", §7 "Backend data", §8). Plain `fetch` on the same
 * origin: the sign-in cookie travels by itself and no token is ever held in
 * JavaScript. Every call resolves (never throws) with either the data or a
 * French message to show, so screens only branch on `ok`.
 */
import { SESSION_MESSAGES, type ApiError } from "../protocol";
import { isFrenchAuthCode } from "../account";

export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: number; message: string; /** better-auth's error code, when it sent one. */ code?: string };

async function call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? { Accept: "application/json" } : { Accept: "application/json", "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    // Offline or server down: status 0 tells callers no answer came.
    return { ok: false, status: 0, message: SESSION_MESSAGES.failed };
  }
  const payload: unknown = await response.json().catch(() => null);
  if (response.ok) return { ok: true, status: response.status, data: payload as T };
  const message =
    payload && typeof payload === "object" && "message" in payload && typeof (payload as ApiError).message === "string"
      ? (payload as ApiError).message
      : SESSION_MESSAGES.failed;
  const code =
    payload && typeof payload === "object" && "code" in payload && typeof (payload as { code: unknown }).code === "string"
      ? (payload as { code: string }).code
      : undefined;
  return { ok: false, status: response.status, message, code };
}

export const apiGet = <T>(path: string) => call<T>("GET", path);
export const apiPost = <T>(path: string, body: unknown = {}) => call<T>("POST", path, body);

/** better-auth error codes (`{ code, message }` in English) → the French sentence shown. */
export function authMessage(status: number, code: string | undefined, fallback: string): string {
  if (status === 429) return SESSION_MESSAGES.tooManyAttempts;
  switch (code) {
    case "INVALID_EMAIL_OR_PASSWORD":
    case "INVALID_EMAIL":
    case "INVALID_PASSWORD":
      return "E-mail ou mot de passe incorrect.";
    case "USER_ALREADY_EXISTS":
    case "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL":
      return "Un compte existe déjà avec cette adresse e-mail.";
    case "PASSWORD_TOO_SHORT":
      return "Le mot de passe doit contenir au moins 8 caractères.";
    case "PASSWORD_TOO_LONG":
      return "Le mot de passe doit contenir au plus 128 caractères.";
    case "INVALID_TOKEN":
      return "Ce lien de réinitialisation n'est plus valable. Demandez-en un nouveau.";
    default:
      return fallback;
  }
}

/**
 * POST to better-auth (`/api/auth/...`); errors mapped to French. Refusals
 * of our own server layers (limits with their wait, field rules, body
 * bounds: `FRENCH_AUTH_CODES`) are already French and shown as sent.
 */
export async function authPost(path: string, body: unknown, fallback: string = SESSION_MESSAGES.failed): Promise<ApiResult<unknown>> {
  const result = await call<unknown>("POST", `/api/auth${path}`, body);
  if (result.ok || result.status === 0 || isFrenchAuthCode(result.code)) return result;
  return { ok: false, status: result.status, code: result.code, message: authMessage(result.status, result.code, fallback) };
}
