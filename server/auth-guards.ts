/**
 * better-auth hooks (issue 13 §5, §7, §10): account field rules and our rate
 * limits, run for HTTP requests and direct `auth.api.*` calls alike.
 *
 * - Fields (`AccountFields`): name 1–100 characters, e-mail ≤ 254, image
 *   ≤ 2 048, every string typable (no NUL, control character or lone
 *   surrogate), in the body and the query string (`AccountQuery`). A refusal is a 400 `{ code: "CHAMP_INVALIDE", message }`
 *   with a French message, before anything is read or stored.
 * - Sign-in (`/sign-in/email`): FAILED attempts are limited, each key
 *   `signIn.points` per `signIn.durationSeconds`. From a place the account
 *   signed in from before (`sign-in-places.ts`: the known-device cookie, or
 *   a known IP address), only per account and place; from anywhere else,
 *   per account (key `hashKey(email)`, never the address) and per IP
 *   address. So spreading guesses over many IPs still meets the per-account
 *   limit, and exhausting it never refuses the owner's own devices
 *   (issue 28 §6, decision 020). Every attempt takes its points before the
 *   password is checked, so a burst of parallel guesses is counted; they are
 *   given back unless the answer is 401 (wrong e-mail or password).
 *   Successes therefore never count; each one renews the cookie (HttpOnly,
 *   SameSite=Lax, one year) and the address's fact.
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
import { AccountFields, AccountQuery, FRENCH_AUTH_CODES, tooManyAttemptsMessage } from "#app/remote-support/account.ts";
import { consume, createRateLimiter, hashKey, type RateLimitStore } from "./rate-limit.ts";
import { createKnownPlaces, KNOWN_DEVICE_COOKIE, KNOWN_DEVICE_SECONDS } from "./sign-in-places.ts";

export type AuthGuardOptions = {
  /** Where the counters live (`services.rateLimits`). */
  store: RateLimitStore;
  /** Failed sign-ins allowed per account, per IP and per account and known place (`AUTH_SIGN_IN_LIMIT`) in a window (`AUTH_SIGN_IN_WINDOW_S`, seconds). */
  signIn: { points: number; durationSeconds: number };
  /** The auth secret (`BETTER_AUTH_SECRET`), which signs the known-device cookie and hashes known addresses. */
  secret: string;
};

/** Per IP address, every attempt counted (better-auth's former `customRules`). */
export const SIGN_UP_LIMIT = { points: 10, durationSeconds: 600 } as const;
export const RESET_REQUEST_LIMIT = { points: 3, durationSeconds: 300 } as const;

type Middleware = ReturnType<typeof createAuthMiddleware>;
type MiddlewareContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];
/** What the guards read of a hook's context. */
type HookContext = {
  body?: unknown;
  request?: Request;
  headers?: HeadersInit;
  context: { options: BetterAuthOptions };
};
type Keys = [RateLimiterAbstract, string][];

/** `hooks` for `betterAuth({ hooks })`. */
export function createAuthGuards({ store, signIn, secret }: AuthGuardOptions): {
  before: Middleware;
  after: Middleware;
} {
  const signInAccount = createRateLimiter(store, { name: "sign-in-account", ...signIn });
  const signInIp = createRateLimiter(store, { name: "sign-in-ip", ...signIn });
  const signInKnownPlace = createRateLimiter(store, { name: "sign-in-known-place", ...signIn });
  const signUpIp = createRateLimiter(store, { name: "sign-up-ip", ...SIGN_UP_LIMIT });
  const resetIp = createRateLimiter(store, { name: "password-reset-ip", ...RESET_REQUEST_LIMIT });
  const places = createKnownPlaces({ store, secret });
  // The keys a sign-in spent, for its after hook: recomputing them there could give others (its own
  // address may have become known meanwhile) and refund a key that was never spent. Keyed by the
  // per-call context object better-auth hands to both hooks of one call.
  const spentBy = new WeakMap<object, Keys>();

  /** The account key of this call (`hashKey` of the e-mail given), or null. */
  function accountKeyOf(ctx: HookContext): string | null {
    const email = isRecord(ctx.body) ? ctx.body.email : undefined;
    return typeof email === "string" && email.trim() !== "" ? hashKey(email) : null;
  }

  /**
   * The sign-in keys of this call: account and place when the place is known
   * to the account; else the account's (when an e-mail was given) and the IP
   * address's (when known).
   */
  async function signInKeys(ctx: MiddlewareContext): Promise<Keys> {
    const accountKey = accountKeyOf(ctx);
    const ip = clientIp(ctx);
    const place = accountKey ? await places.recognise(accountKey, knownDeviceCookie(ctx), ip) : null;
    if (place) return [[signInKnownPlace, place]];
    const keys: Keys = [];
    if (accountKey) keys.push([signInAccount, accountKey]);
    if (ip) keys.push([signInIp, ip]);
    return keys;
  }

  /** Takes one point from every key; if one is refused, gives the others back and refuses. */
  async function spend(keys: Keys): Promise<void> {
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
    for (const [input, schema] of [
      [ctx.body, AccountFields],
      [ctx.query, AccountQuery],
    ] as const) {
      if (!isRecord(input)) continue;
      const fields = schema.safeParse(input);
      if (!fields.success) {
        throw new APIError("BAD_REQUEST", {
          code: FRENCH_AUTH_CODES.badField,
          message: fields.error.issues[0]!.message,
        });
      }
    }
    const ip = clientIp(ctx);
    if (ctx.path === "/sign-in/email") {
      const keys = await signInKeys(ctx);
      await spend(keys);
      spentBy.set(ctx.context, keys);
    } else if (ctx.path === "/sign-up/email" && ip) await spend([[signUpIp, ip]]);
    else if (ctx.path === "/request-password-reset" && ip) await spend([[resetIp, ip]]);
  });

  const after = createAuthMiddleware(async (ctx) => {
    if (ctx.path !== "/sign-in/email") return;
    const returned = ctx.context.returned;
    // 401: wrong e-mail or password, the one outcome that counts. Anything else (success, malformed request) is given back.
    if (isAPIError(returned) && returned.statusCode === 401) return;
    await refund(spentBy.get(ctx.context) ?? (await signInKeys(ctx)));
    const accountKey = accountKeyOf(ctx);
    if (isAPIError(returned) || !ctx.context.newSession || !accountKey) return;
    // Signed in: this browser and this address are now known to the account (issue 28 §6).
    const cookie = ctx.context.createAuthCookie(KNOWN_DEVICE_COOKIE, { maxAge: KNOWN_DEVICE_SECONDS });
    const value = await places.remember(accountKey, knownDeviceCookie(ctx), clientIp(ctx));
    ctx.setCookie(cookie.name, value, cookie.attributes);
  });

  /** The raw known-device cookie of the request, or null (none, or a direct call without headers). */
  function knownDeviceCookie(ctx: MiddlewareContext): string | null {
    return ctx.getCookie(ctx.context.createAuthCookie(KNOWN_DEVICE_COOKIE).name) ?? null;
  }

  return { before, after };
}

async function refund(keys: Keys): Promise<void> {
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
