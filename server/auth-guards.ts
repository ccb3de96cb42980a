/**
 * better-auth hooks (issue 13 §5, §7, §10): account field rules and our rate
 * limits, run for HTTP requests and direct `auth.api.*` calls alike.
 *
 * - Fields (`AccountFields`): name 1–100 characters, e-mail ≤ 254, image
 *   ≤ 2 048, every string typable (no NUL, control character or lone
 *   surrogate). A refusal is a 400 `{ code: "CHAMP_INVALIDE", message }`
 *   with a French message, before anything is read or stored.
 * - Sign-in (`/sign-in/email`): FAILED attempts are limited per account
 *   (key `hashKey(email)`, never the address) and per IP address, each
 *   `signIn.points` per `signIn.durationSeconds`. Every attempt takes a
 *   point from both keys before the password is checked, so a burst of
 *   parallel guesses is counted; the points are given back unless the answer
 *   is 401 (wrong e-mail or password). Successes therefore never count, and
 *   spreading guesses over many IPs still meets the per-account limit.
 * - Sign-up (10 per 10 min) and reset requests (3 per 5 min) per IP address,
 *   every attempt counted (better-auth's own rules, moved here so they are
 *   shared through `store` and answered in French).
 *
 * A limit answers 429 `{ code: "TROP_DE_TENTATIVES", message }` with
 * `Retry-After` (seconds) and `tooManyAttemptsMessage`, the sentence the
 * sign-in form shows. The IP address is better-auth's `getIP` (the header
 * `server/auth-http.ts` sets from `req.ip`; IPv6 grouped by /64).
 */
import type { BetterAuthOptions } from "better-auth";
import { APIError, createAuthMiddleware, getIP, isAPIError } from "better-auth/api";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { AccountFields, FRENCH_AUTH_CODES, tooManyAttemptsMessage } from "#app/remote-support/account.ts";
import { consume, createRateLimiter, hashKey, type RateLimitStore } from "./rate-limit.ts";

export type AuthGuardOptions = {
  /** Where the counters live (`services.rateLimits`). */
  store: RateLimitStore;
  /** Failed sign-ins allowed per account and per IP (`AUTH_SIGN_IN_LIMIT`) in a window (`AUTH_SIGN_IN_WINDOW_S`, seconds). */
  signIn: { points: number; durationSeconds: number };
};

/** Per IP address, every attempt counted (better-auth's former `customRules`). */
export const SIGN_UP_LIMIT = { points: 10, durationSeconds: 600 } as const;
export const RESET_REQUEST_LIMIT = { points: 3, durationSeconds: 300 } as const;

type Middleware = ReturnType<typeof createAuthMiddleware>;
/** What the guards read of a hook's context. */
type HookContext = {
  body?: unknown;
  request?: Request;
  headers?: HeadersInit;
  context: { options: BetterAuthOptions };
};

/** `hooks` for `betterAuth({ hooks })`. */
export function createAuthGuards({ store, signIn }: AuthGuardOptions): { before: Middleware; after: Middleware } {
  const signInAccount = createRateLimiter(store, { name: "sign-in-account", ...signIn });
  const signInIp = createRateLimiter(store, { name: "sign-in-ip", ...signIn });
  const signUpIp = createRateLimiter(store, { name: "sign-up-ip", ...SIGN_UP_LIMIT });
  const resetIp = createRateLimiter(store, { name: "password-reset-ip", ...RESET_REQUEST_LIMIT });

  /** The sign-in keys of this call: the account's (when an e-mail was given) and the IP address's (when known). */
  function signInKeys(ctx: HookContext): [RateLimiterAbstract, string][] {
    const keys: [RateLimiterAbstract, string][] = [];
    const email = isRecord(ctx.body) ? ctx.body.email : undefined;
    if (typeof email === "string" && email.trim() !== "") keys.push([signInAccount, hashKey(email)]);
    const ip = clientIp(ctx);
    if (ip) keys.push([signInIp, ip]);
    return keys;
  }

  /** Takes one point from every key; if one is refused, gives the others back and refuses. */
  async function spend(keys: [RateLimiterAbstract, string][]): Promise<void> {
    const outcomes = await Promise.all(keys.map(([limiter, key]) => consume(limiter, key)));
    const waits = outcomes.flatMap((outcome) => (outcome.allowed ? [] : [outcome.retryAfterSeconds]));
    if (waits.length === 0) return;
    await refund(keys.filter((_, index) => outcomes[index]!.allowed));
    const seconds = Math.max(...waits);
    throw new APIError(
      "TOO_MANY_REQUESTS",
      { code: FRENCH_AUTH_CODES.tooManyAttempts, message: tooManyAttemptsMessage(seconds) },
      { "Retry-After": String(seconds) },
    );
  }

  const before = createAuthMiddleware(async (ctx) => {
    if (isRecord(ctx.body)) {
      const fields = AccountFields.safeParse(ctx.body);
      if (!fields.success) {
        throw new APIError("BAD_REQUEST", {
          code: FRENCH_AUTH_CODES.badField,
          message: fields.error.issues[0]!.message,
        });
      }
    }
    const ip = clientIp(ctx);
    if (ctx.path === "/sign-in/email") await spend(signInKeys(ctx));
    else if (ctx.path === "/sign-up/email" && ip) await spend([[signUpIp, ip]]);
    else if (ctx.path === "/request-password-reset" && ip) await spend([[resetIp, ip]]);
  });

  const after = createAuthMiddleware(async (ctx) => {
    if (ctx.path !== "/sign-in/email") return;
    const returned = ctx.context.returned;
    // 401: wrong e-mail or password, the one outcome that counts. Anything else (success, malformed request) is given back.
    if (isAPIError(returned) && returned.statusCode === 401) return;
    await refund(signInKeys(ctx));
  });

  return { before, after };
}

async function refund(keys: [RateLimiterAbstract, string][]): Promise<void> {
  await Promise.all(keys.map(([limiter, key]) => limiter.reward(key, 1)));
}

/** The caller's IP address as better-auth resolves it, or null for a direct call without headers. */
function clientIp(ctx: HookContext): string | null {
  const source = ctx.request ?? (ctx.headers ? new Headers(ctx.headers) : undefined);
  return source ? getIP(source, ctx.context.options) : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
