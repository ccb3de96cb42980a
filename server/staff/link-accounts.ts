/**
 * Issue 29: accounts made from a single-use link, by anyone holding it (no sign-in): the technician's
 * invitation (`/soft-assist/invitation?jeton=…`) and the manager set-up link printed at first start
 * (`/soft-assist/gerant?jeton=…`). Part of the staff service (`service.ts`).
 *
 * - Every call counts against a per-IP limit (`LINK_LIMIT`) before anything is read: tokens are 256 random
 *   bits, so guessing is hopeless anyway, but a flood costs nothing.
 * - The link is claimed (marked used) first, then the account is made through better-auth's own sign-up
 *   (its field rules, password hashing, per-IP sign-up limit and sign-in cookie), then given its role and
 *   a verified address (the link proved it). When the sign-up is refused the link is given back.
 * - Issue 37 §3: an invitation to an address that already has a customer account (registered before or after the
 *   invitation, by anyone: sign-up proves nothing) takes that account over (`invitation-takeover.ts`: new name and
 *   password, technician, every earlier sign-in session deleted and its sockets ended through `onSessionEnded`).
 * - The set-up link works only while no active manager exists; afterwards it is refused (« Un compte
 *   gérant existe déjà… ») even if unused.
 */
import { isAPIError } from "better-auth/api";
import { eq } from "drizzle-orm";
import type { Logger } from "pino";
import type { z } from "zod";
import type { AppDatabase } from "#database/connection.ts";
import { users } from "#database/schema.ts";
import { authMessage, isFrenchAuthCode } from "#app/remote-support/account.ts";
import {
  InvitationAcceptInput,
  SetupInput,
  STAFF_MESSAGES,
  TokenInput,
  type InvitationCheckResponse,
} from "#app/staff/protocol.ts";
import { roleFields, type Role } from "#server/access.ts";
import { CLIENT_IP_HEADER, type Auth } from "#server/auth.ts";
import { consume, createRateLimiter, type RateLimitStore } from "#server/rate-limit.ts";
import { hasActiveManager, type EndedAccount } from "./accounts.ts";
import { takeOverCustomer } from "./invitation-takeover.ts";
import { claimLink, readLink, settleLink, type LinkState } from "./links.ts";

/** Per IP address, every call to a link route: 20 per 15 minutes. */
export const LINK_LIMIT = { points: 20, durationSeconds: 900 } as const;

/** A refusal: HTTP status, French message, the fields' own messages, the wait for a limit. */
export type StaffRefusal = {
  ok: false;
  status: number;
  message: string;
  fieldErrors?: Record<string, string>;
  retryAfterSeconds?: number;
};
export type LinkAnswer<T> = ({ ok: true } & T) | StaffRefusal;

const GONE: Record<Exclude<LinkState, { ok: true }>["reason"], string> = {
  unknown: STAFF_MESSAGES.invitationUnknown,
  expired: STAFF_MESSAGES.invitationExpired,
  used: STAFF_MESSAGES.invitationUsed,
};

/** A zod failure as a refusal: a malformed token is an unknown link (410), any other field a 400 with its message. */
export function invalid(error: z.ZodError, unknownLink: string): StaffRefusal {
  const fieldErrors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "");
    if (field === "token") return { ok: false, status: 410, message: unknownLink };
    if (field && !(field in fieldErrors)) fieldErrors[field] = issue.message;
  }
  const first = Object.values(fieldErrors)[0];
  return { ok: false, status: 400, message: first ?? STAFF_MESSAGES.badBody, fieldErrors };
}

export type LinkAccountsOptions = {
  db: AppDatabase;
  auth: Auth;
  logger: Logger;
  rateLimits: RateLimitStore;
  now: () => Date;
  /** Issue 37 §3: an account taken over lost these sign-in sessions: end their sockets (`authSessionEnded`). */
  onSessionEnded?: (ended: { id: string; userId: string }) => void;
};

export function createLinkAccounts({ db, auth, logger, rateLimits, now, onSessionEnded }: LinkAccountsOptions) {
  const limiter = createRateLimiter(rateLimits, { name: "staff-link-ip", ...LINK_LIMIT });

  async function limited(ip: string): Promise<StaffRefusal | null> {
    const outcome = await consume(limiter, ip);
    if (outcome.allowed) return null;
    const minutes = Math.max(1, Math.ceil(outcome.retryAfterSeconds / 60));
    return {
      ok: false,
      status: 429,
      message: `Trop de tentatives. Réessayez dans ${minutes === 1 ? "une minute" : `${minutes} minutes`}.`,
      retryAfterSeconds: outcome.retryAfterSeconds,
    };
  }

  /** better-auth's sign-up, then the role; the sign-in cookie to pass on, or the refusal. */
  async function makeAccount(
    fields: { name: string; email: string; password: string },
    role: Role,
    ip: string,
  ): Promise<{ ok: true; userId: string; setCookie: string[] } | StaffRefusal> {
    try {
      const { headers, response } = await auth.api.signUpEmail({
        body: fields,
        headers: new Headers({ [CLIENT_IP_HEADER]: ip }),
        returnHeaders: true,
      });
      await db
        .update(users)
        .set({ ...roleFields(role), emailVerified: true })
        .where(eq(users.id, response.user.id));
      return { ok: true, userId: response.user.id, setCookie: headers.getSetCookie() };
    } catch (error) {
      if (!isAPIError(error) || error.statusCode >= 500) throw error;
      const body = error.body as { code?: string; message?: string } | undefined;
      const message =
        isFrenchAuthCode(body?.code) && body?.message
          ? body.message
          : authMessage(error.statusCode, body?.code, STAFF_MESSAGES.failed);
      return { ok: false, status: error.statusCode === 422 ? 409 : error.statusCode, message };
    }
  }

  /**
   * Issue 37 §3: the invited technician's account: the address's customer account taken over, else a new one; a
   * sign-up refused because the address was registered meanwhile is one more try at taking it over.
   */
  async function invitedAccount(
    fields: { name: string; email: string; password: string },
    ip: string,
  ): Promise<{ ok: true; userId: string; setCookie: string[]; takenOver: boolean } | StaffRefusal> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const taken = await takeOverCustomer(db, auth, fields, ip);
      if (taken.ok) {
        endSockets(taken.ended);
        return { ok: true, userId: taken.userId, setCookie: taken.setCookie, takenOver: true };
      }
      if (taken.reason === "refused") return { ok: false, status: taken.status, message: taken.message };
      const made = await makeAccount(fields, "technician", ip);
      if (made.ok) return { ...made, takenOver: false };
      if (made.status !== 409 || attempt > 0) return made;
    }
    throw new Error("unreachable");
  }

  function endSockets(ended: EndedAccount): void {
    for (const id of ended.sessionIds) onSessionEnded?.({ id, userId: ended.userId });
  }

  return {
    /** The invitation's address, to show on its page; or why the link cannot be used (410). */
    async checkInvitation(input: unknown, ip: string): Promise<LinkAnswer<InvitationCheckResponse>> {
      const refused = await limited(ip);
      if (refused) return refused;
      const parsed = TokenInput.safeParse(input);
      if (!parsed.success) return invalid(parsed.error, STAFF_MESSAGES.invitationUnknown);
      const link = await readLink(db, "technician", parsed.data.token, now());
      if (!link.ok) return { ok: false, status: 410, message: GONE[link.reason] };
      return { ok: true, email: link.row.email ?? "" };
    },

    /**
     * Makes the invited technician's account, or (issue 37 §3) takes over the address's customer account, and
     * signs it in (`setCookie`).
     */
    async acceptInvitation(input: unknown, ip: string): Promise<LinkAnswer<{ setCookie: string[] }>> {
      const refused = await limited(ip);
      if (refused) return refused;
      const parsed = InvitationAcceptInput.safeParse(input);
      if (!parsed.success) return invalid(parsed.error, STAFF_MESSAGES.invitationUnknown);
      const { token, name, password } = parsed.data;
      const link = await claimLink(db, "technician", token, now());
      if (!link.ok) return { ok: false, status: 410, message: GONE[link.reason] };
      const made = await invitedAccount({ name, email: link.row.email!, password }, ip).catch(
        async (error: unknown) => {
          await settleLink(db, link.row.id, null);
          throw error;
        },
      );
      if (!made.ok) {
        await settleLink(db, link.row.id, null);
        return made;
      }
      await settleLink(db, link.row.id, made.userId);
      logger.info(
        { invitationId: link.row.id, userId: made.userId },
        made.takenOver
          ? "invitation acceptée : compte client repris, connexions précédentes terminées"
          : "invitation acceptée : compte technicien créé",
      );
      return { ok: true, setCookie: made.setCookie };
    },

    /** Whether the set-up link may still be used (410 otherwise). */
    async checkSetup(input: unknown, ip: string): Promise<LinkAnswer<object>> {
      const refused = await limited(ip);
      if (refused) return refused;
      const parsed = TokenInput.safeParse(input);
      if (!parsed.success) return invalid(parsed.error, STAFF_MESSAGES.setupUnknown);
      if (await hasActiveManager(db)) return { ok: false, status: 410, message: STAFF_MESSAGES.setupDone };
      const link = await readLink(db, "manager-setup", parsed.data.token, now());
      return link.ok ? { ok: true } : { ok: false, status: 410, message: STAFF_MESSAGES.setupUnknown };
    },

    /** Makes the first manager's account and signs it in (`setCookie`). */
    async completeSetup(input: unknown, ip: string): Promise<LinkAnswer<{ setCookie: string[] }>> {
      const refused = await limited(ip);
      if (refused) return refused;
      const parsed = SetupInput.safeParse(input);
      if (!parsed.success) return invalid(parsed.error, STAFF_MESSAGES.setupUnknown);
      const { token, ...fields } = parsed.data;
      if (await hasActiveManager(db)) return { ok: false, status: 410, message: STAFF_MESSAGES.setupDone };
      const link = await claimLink(db, "manager-setup", token, now());
      if (!link.ok) return { ok: false, status: 410, message: STAFF_MESSAGES.setupUnknown };
      const made = await makeAccount(fields, "manager", ip).catch(async (error: unknown) => {
        await settleLink(db, link.row.id, null);
        throw error;
      });
      if (!made.ok) {
        await settleLink(db, link.row.id, null);
        return made;
      }
      await settleLink(db, link.row.id, made.userId);
      logger.info({ userId: made.userId }, "compte gérant créé par le lien de mise en service");
      return { ok: true, setCookie: made.setCookie };
    },
  };
}

export type LinkAccounts = ReturnType<typeof createLinkAccounts>;
