/**
 * Accounts with better-auth (issue 5; spec §2 "/soft-assist", §6 roles),
 * stored in our database through the Drizzle adapter.
 *
 * - E-mail + password sign-up (customers), sign-in, sign-out, password reset
 *   whose mail goes through the outbox like every other mail.
 * - The role is stored as the additional user field `role` (`ROLE_FIELDS`,
 *   `access.ts`, issues 14 and 29), `input: false`: sign-up ignores it and
 *   update-user refuses it; only `npm run user` and the manager's invitations
 *   set it. What a role may do is `access.ts`'s, never read here.
 * - Issue 29: a disabled account (`users.disabled_at`) gets no new sign-in
 *   session, whatever the path (sign-in, sign-up, reset): 403
 *   `{ code: "COMPTE_DESACTIVE", message: « Ce compte est désactivé… » }`.
 *   Each new sign-in session stamps `users.last_sign_in_at` (the « Équipe » view).
 * - Field rules and our rate limits are better-auth hooks (`auth-guards.ts`,
 *   issue 13 §5, §7, §10): name ≤ 100 characters, e-mail ≤ 254, typable
 *   text; FAILED sign-ins limited per account and per IP address
 *   (`AUTH_SIGN_IN_LIMIT` per `AUTH_SIGN_IN_WINDOW_S`), or per account and
 *   place from a device or address that signed in before (issue 28 §6,
 *   `sign-in-places.ts`, whose cookie `secret` signs), sign-up and reset
 *   requests per IP address, all counted in `rateLimits` (shared through
 *   PostgreSQL). Bodies are bounded before better-auth reads them (`auth-http.ts`).
 * - Origins: `PUBLIC_URL` only (issue 13 §9), for the Origin check and every
 *   redirect target (`redirectTo`, `callbackURL`); serve the site at that origin.
 * - The signing secret comes from `BETTER_AUTH_SECRET`, or is generated once
 *   into `DATA_DIR/auth-secret` (mode 600) so `npm start` works unconfigured.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, isAPIError } from "better-auth/api";
import { eq } from "drizzle-orm";
import type { Logger } from "pino";
import type { AppDatabase } from "#database/connection.ts";
import { accounts, authSessions, outboxMessages, users, verifications } from "#database/schema.ts";
import { defaultShop, type ShopSource } from "#app/config/shop.ts";
import type { Env } from "./env.ts";
import { newMessageId } from "./requests.ts";
import { ACCOUNT_DISABLED_MESSAGE, FRENCH_AUTH_CODES } from "#app/remote-support/account.ts";
import { ROLE_FIELDS } from "./access.ts";
import { createAuthGuards } from "./auth-guards.ts";
import { MEMORY_STORE, type RateLimitStore } from "./rate-limit.ts";
import { betterAuthLogger } from "./logger.ts";

/** Set by `server/auth-http.ts` from `req.ip` on every auth request (any incoming value is replaced). */
export const CLIENT_IP_HEADER = "x-atelier-client-ip";

/** Reads `BETTER_AUTH_SECRET`, else `DATA_DIR/auth-secret`, creating it (48 random bytes, base64url) if absent. */
export async function loadAuthSecret(env: Env): Promise<string> {
  if (env.BETTER_AUTH_SECRET) return env.BETTER_AUTH_SECRET;
  const file = path.resolve(env.DATA_DIR, "auth-secret");
  try {
    return (await readFile(file, "utf8")).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  await mkdir(path.dirname(file), { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  // "wx": two servers starting at once cannot overwrite each other's secret.
  await writeFile(file, secret, { mode: 0o600, flag: "wx" }).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== "EEXIST") throw error;
  });
  return (await readFile(file, "utf8")).trim();
}

export type AuthOptions = {
  db: AppDatabase;
  env: Env;
  logger: Logger;
  secret: string;
  /** Called after a mail was queued, to deliver it now. */
  onMailQueued?: () => void;
  /**
   * Called after a sign-in session row is deleted (sign-out, revocation,
   * password reset, account deletion, expiry noticed by better-auth), so the
   * remote-support realtime layer can end that session's sockets at once.
   */
  onSessionEnded?: (ended: { id: string; userId: string }) => void;
  /** Where sign-in, sign-up and reset-request limits count (`services.rateLimits`); default this process's memory. */
  rateLimits?: RateLimitStore;
  /** Issue 29: the shop's identity, read when a reset mail is written (« Boutique »); the defaults when absent. */
  shop?: ShopSource;
};

export function createAuth({
  db,
  env,
  logger,
  secret,
  onMailQueued,
  onSessionEnded,
  rateLimits = MEMORY_STORE,
  shop: shopSource,
}: AuthOptions) {
  return betterAuth({
    // better-auth's own label (not shown to visitors); the mails below read the current identity.
    appName: defaultShop.name,
    baseURL: env.PUBLIC_URL,
    secret,
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: { users, auth_sessions: authSessions, accounts, verifications },
    }),
    user: {
      modelName: "users",
      additionalFields: ROLE_FIELDS,
      deleteUser: { enabled: true },
    },
    session: { modelName: "auth_sessions" },
    databaseHooks: {
      session: {
        create: {
          // Like better-auth's admin plugin's ban: the password was right, but no session is made.
          async before(session) {
            const [user] = await db
              .select({ disabledAt: users.disabledAt })
              .from(users)
              .where(eq(users.id, session.userId));
            if (user?.disabledAt) {
              throw APIError.from("FORBIDDEN", {
                code: FRENCH_AUTH_CODES.accountDisabled,
                message: ACCOUNT_DISABLED_MESSAGE,
              });
            }
          },
          async after(session) {
            await db.update(users).set({ lastSignInAt: new Date() }).where(eq(users.id, session.userId));
          },
        },
        delete: {
          async after(session) {
            onSessionEnded?.({ id: session.id, userId: session.userId });
          },
        },
      },
    },
    account: { modelName: "accounts" },
    verification: { modelName: "verifications" },
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      revokeSessionsOnPasswordReset: true,
      async sendResetPassword({ user, url }) {
        const shop = shopSource?.current() ?? defaultShop;
        const text = [
          `Bonjour ${user.name},`,
          "",
          `Pour choisir un nouveau mot de passe pour votre espace ${shop.name}, ouvrez ce lien (valable une heure) :`,
          url,
          "",
          "Si vous n'avez rien demandé, ignorez ce message : votre mot de passe reste inchangé.",
          "",
        ].join("\n");
        await db.insert(outboxMessages).values({
          messageId: newMessageId(new URL(env.PUBLIC_URL).hostname),
          requestKind: "password-reset",
          mail: {
            to: user.email,
            subject: `${shop.name} : réinitialisation de votre mot de passe`,
            text,
            template: null,
            templateParams: {
              to_email: user.email,
              from_name: shop.name,
              from_email: env.SHOP_EMAIL ?? shop.email,
              message: text,
            },
          },
        });
        logger.info({ userId: user.id }, "mail de réinitialisation du mot de passe mis en file");
        onMailQueued?.();
      },
    },
    // Issue 13 §9: never the request's Host, which the sender writes (a reset link could then point anywhere).
    trustedOrigins: [env.PUBLIC_URL],
    hooks: createAuthGuards({
      store: rateLimits,
      signIn: { points: env.AUTH_SIGN_IN_LIMIT, durationSeconds: env.AUTH_SIGN_IN_WINDOW_S },
      secret,
    }),
    // better-auth's own limit stays for the other paths (100 per minute and IP, 3 per 10 s for password and
    // e-mail changes); these three are counted by the hooks instead (failures only, for sign-in).
    rateLimit: {
      enabled: true,
      storage: "memory",
      window: 60,
      max: 100,
      customRules: { "/sign-in/email": false, "/request-password-reset": false, "/sign-up/email": false },
    },
    advanced: {
      // better-auth only reads headers; Express sets this one from the socket (or the trusted proxy).
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      useSecureCookies: env.PUBLIC_URL.startsWith("https:"),
      // better-auth skips its Origin and redirect checks when NODE_ENV or TEST says "test" (issue 13 §9):
      // they apply in every mode, so tests exercise them and NODE_ENV=test never disables them.
      disableOriginCheck: false,
    },
    // Refusals (4xx: wrong password, our limits and field rules) are answers, not faults; anything else goes to pino.
    onAPIError: {
      onError(error) {
        if (isAPIError(error) && error.statusCode < 500) return;
        logger.error({ err: error }, "better-auth : erreur");
      },
    },
    telemetry: { enabled: false },
    // Into pino, scrubbed (issue 13 §6): its default console output would print a failed sign-up's e-mail.
    logger: betterAuthLogger(logger),
  });
}

export type Auth = ReturnType<typeof createAuth>;
