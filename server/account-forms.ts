/**
 * The server side of /soft-assist's route (issue 16 §1): its loader reads the
 * session cookie here to render the right first view (sign-in form, customer
 * screen or technician dashboard, with their data), and its action runs the
 * signed-out forms (sign-in, sign-up, password reset request) so they work
 * before any JavaScript, as plain HTML forms.
 *
 * The forms go through `auth.handler` exactly as a browser's JSON call to
 * `/api/auth/...` does: the same better-auth hooks (field rules, per-IP and
 * per-account limits, keyed on `CLIENT_IP_HEADER`) and the same French
 * answers. Cross-site posts are refused first (`isCrossSite`), like `/api`.
 * Nothing is logged but the failure kind: never an address or a password.
 */
import type { Logger } from "pino";
import {
  ACCOUNT_MESSAGES,
  authMessage,
  isFrenchAuthCode,
  tooManyAttemptsMessage,
  type AccountForm,
} from "#app/remote-support/account.ts";
import { SESSION_MESSAGES, type AccountView } from "#app/remote-support/protocol.ts";
import { RESET_PASSWORD_PATH } from "#app/remote-support/api-paths.ts";
import type { AccountFormResult, AccountServices, AreaView } from "#app/utils/server-context.ts";
import { can, permissionsOf, resolveCaller, type Caller } from "./access.ts";
import { CLIENT_IP_HEADER, type Auth } from "./auth.ts";
import type { SessionService } from "./remote-support/sessions.ts";
import { CROSS_SITE_MESSAGE, isCrossSite } from "./security.ts";

/** better-auth's path for each form of the signed-out view. */
const AUTH_PATHS: Record<AccountForm["intent"], string> = {
  "sign-in": "/api/auth/sign-in/email",
  "sign-up": "/api/auth/sign-up/email",
  forgot: "/api/auth/request-password-reset",
};

/** Request headers better-auth may read (cookies, Origin for its own check, the browser for the session row). */
const FORWARDED_HEADERS = ["cookie", "origin", "user-agent", "accept-language", "referer"];

export type AccountServicesOptions = {
  auth: Auth;
  /** Only the three reads of a screen's first data. */
  sessions: Pick<SessionService, "mine" | "active" | "history">;
  /** PUBLIC_URL: the only trusted origin, and the base of the reset link when the post has no Origin. */
  publicUrl: string;
  logger: Logger;
};

/** Builds the services of /soft-assist's loader and action (see `AccountServices`). */
export function createAccountServices({ auth, sessions, publicUrl, logger }: AccountServicesOptions): AccountServices {
  const publicOrigin = new URL(publicUrl).origin;

  async function screenOf(caller: Caller): Promise<AreaView> {
    const user: AccountView = {
      id: caller.userId,
      name: caller.name,
      email: caller.email,
      // The dashboard is for whoever reads the sessions' lists: technicians and the manager (issue 29).
      isTechnician: can(caller, "session:history"),
      permissions: [...permissionsOf(caller)],
    };
    if (user.isTechnician) {
      const [active, history] = await Promise.all([sessions.active(caller), sessions.history(caller)]);
      if (!active.ok || !history.ok) throw new Error("lecture des sessions du technicien refusée");
      return { user, screen: "technician", active: active.session, history: history.sessions };
    }
    const mine = await sessions.mine(caller);
    if (!mine.ok) throw new Error("lecture des sessions du client refusée");
    return { user, screen: "customer", sessions: mine.sessions };
  }

  return {
    async areaView(request) {
      const { caller, setCookie } = await resolveCaller(auth, request.headers);
      return { view: caller ? await screenOf(caller) : { user: null }, setCookie };
    },

    async submit(form, request, origin) {
      const headers = request.headers;
      const crossSite = isCrossSite(
        {
          origin: headers.get("origin") ?? undefined,
          fetchSite: headers.get("sec-fetch-site") ?? undefined,
          hasCookie: headers.has("cookie"),
        },
        publicOrigin,
      );
      if (crossSite) {
        logger.warn({ intent: form.intent }, "formulaire de compte d'un autre site refusé");
        return { ok: false, status: 403, message: CROSS_SITE_MESSAGE };
      }
      const { intent, ...fields } = form;
      const body =
        intent === "forgot"
          ? { email: form.email, redirectTo: new URL(RESET_PASSWORD_PATH, publicOrigin).href }
          : fields;
      const forwarded = new Headers({ "content-type": "application/json", [CLIENT_IP_HEADER]: origin.ip });
      for (const name of FORWARDED_HEADERS) {
        const value = headers.get(name);
        if (value !== null) forwarded.set(name, value);
      }
      let response: Response;
      try {
        response = await auth.handler(
          new Request(publicOrigin + AUTH_PATHS[intent], {
            method: "POST",
            headers: forwarded,
            body: JSON.stringify(body),
          }),
        );
      } catch (error) {
        logger.error({ err: error, intent }, "formulaire de compte : better-auth a échoué");
        return { ok: false, status: 500, message: ACCOUNT_MESSAGES.failed };
      }
      return answerOf(intent, response, logger);
    },
  };
}

/** better-auth's answer as the form shows it (the same sentences as the JavaScript path, `client/api.ts`). */
async function answerOf(intent: AccountForm["intent"], response: Response, logger: Logger): Promise<AccountFormResult> {
  if (response.ok) return { ok: true, setCookie: response.headers.getSetCookie() };
  const { code, message } = await errorBody(response);
  if (response.status >= 500) {
    logger.error({ status: response.status, code, intent }, "formulaire de compte : erreur serveur de better-auth");
    return { ok: false, status: 500, message: ACCOUNT_MESSAGES.failed };
  }
  // No account enumeration: a reset request is answered the same way whatever happened, except a limit.
  if (intent === "forgot" && response.status !== 429) return { ok: true, setCookie: [] };
  if (isFrenchAuthCode(code) && message) return { ok: false, status: response.status, message };
  if (response.status === 429) {
    const seconds = Number(response.headers.get("x-retry-after") ?? response.headers.get("retry-after")) || 60;
    return { ok: false, status: 429, message: tooManyAttemptsMessage(Math.max(1, seconds)) };
  }
  const fallback = intent === "sign-in" ? "E-mail ou mot de passe incorrect." : SESSION_MESSAGES.failed;
  return { ok: false, status: response.status, message: authMessage(response.status, code, fallback) };
}

async function errorBody(response: Response): Promise<{ code?: string; message?: string }> {
  try {
    const parsed: unknown = await response.json();
    if (!parsed || typeof parsed !== "object") return {};
    const { code, message } = parsed as Record<string, unknown>;
    return {
      code: typeof code === "string" ? code : undefined,
      message: typeof message === "string" ? message : undefined,
    };
  } catch {
    return {};
  }
}
