/**
 * Issue 29, the staff service: what the manager does in the « Équipe » view (list, invite, cancel an
 * invitation, disable, re-enable, send a password-reset link), the accounts made from links
 * (`link-accounts.ts`), and the set-up link printed at start while no manager exists.
 *
 * - Inputs are untrusted (`unknown`), validated with the zod schemas of `app/staff/protocol.ts`; refusals
 *   carry their HTTP status and a French message. The routes (`api.ts`) check `staff:manage` first.
 * - Each manager's actions count against `STAFF_ACTION_LIMIT` (every call that changes something).
 * - The invitation mail goes into the outbox in the transaction that stores the invitation (nothing lost
 *   when the mail server is down), like every other mail of the shop; the reset link goes through
 *   better-auth's reset flow, whose mail is the sign-in page's « Mot de passe oublié ».
 * - Disabling deletes the account's sign-in sessions and hands their ids to `onSessionEnded` (the session
 *   service's `authSessionEnded`: `auth:ended` and disconnection in every server process).
 * - Issue 37: an address with a customer account may be invited (the link proves the address; accepting it takes
 *   the account over, `invitation-takeover.ts`); only staff addresses are refused (409). Disabling also ends every
 *   session the technician joined, handed to `onSessionsReleased` (`SessionService.announceReleased`).
 * - Logs carry ids only: never an address, a name or a token (the set-up link's one line aside).
 * - Issue 40: without a way out for mail (`mailConfigured` false), the invitation's answer gives the manager
 *   its link (only to them: the route needs `staff:manage`; never logged) and says plainly that nothing was
 *   sent; so does the password reset's.
 */
import type { Logger } from "pino";
import type { AppDatabase } from "#database/connection.ts";
import { outboxMessages } from "#database/schema.ts";
import { defaultShop, type ShopSource } from "#app/config/shop.ts";
import { RESET_PASSWORD_PATH } from "#app/remote-support/api-paths.ts";
import {
  INVITATION_PATH,
  InviteInput,
  MANAGER_SETUP_PATH,
  STAFF_MESSAGES,
  type InvitationResponse,
  type PendingInvitation,
  type StaffListResponse,
  type StaffMemberResponse,
} from "#app/staff/protocol.ts";
import { roleOf, STAFF_ROLES, type Role } from "#server/access.ts";
import type { Auth } from "#server/auth.ts";
import { consume, createRateLimiter, MEMORY_STORE, type RateLimitStore } from "#server/rate-limit.ts";
import { newMessageId } from "#server/requests.ts";
import { eq } from "drizzle-orm";
import { users } from "#database/schema.ts";
import { hasActiveManager, listStaff, setDisabled, toStaffMember } from "./accounts.ts";
import { createLinkAccounts, invalid, type LinkAccounts, type LinkAnswer, type StaffRefusal } from "./link-accounts.ts";
import { deleteInvitation, newSetupLink, pendingInvitations, upsertInvitation, type InvitationRow } from "./links.ts";

/** Per manager: 60 changes (invitations, disabling, reset links) per 10 minutes. */
export const STAFF_ACTION_LIMIT = { points: 60, durationSeconds: 600 } as const;

export type StaffServiceOptions = {
  db: AppDatabase;
  auth: Auth;
  logger: Logger;
  /** PUBLIC_URL: the links in mails and in the set-up log line. */
  publicUrl: string;
  rateLimits?: RateLimitStore;
  /** The clock (tests move it); default the system's. */
  now?: () => Date;
  /** A mail was queued: deliver it now (`outbox.wake`). */
  onMailQueued?: () => void;
  /** A sign-in session was deleted here: end its sockets (the session service's `authSessionEnded`). */
  onSessionEnded?: (ended: { id: string; userId: string }) => void;
  /** Issue 37 §4: sessions a disabled technician had joined ended: announce them (`SessionService.announceReleased`). */
  onSessionsReleased?: (sessionIds: string[]) => void;
  /** Issue 29: the shop's identity, read when an invitation is written (« Boutique »); the defaults when absent. */
  shop?: ShopSource;
  /**
   * Issue 40: whether mail leaves the server (`MailService.configured`; default false, as with no transport).
   * When it does not, the invitation's answer carries its link for the manager to pass on, and no answer
   * says a mail was sent.
   */
  mailConfigured?: boolean;
};

/** The manager who acts (`Caller`'s fields this service needs). */
export type Manager = { userId: string; name: string };

const DATE = new Intl.DateTimeFormat("fr-FR", { dateStyle: "long", timeZone: "Europe/Paris" });

function toPending(row: InvitationRow, now: Date): PendingInvitation {
  return {
    id: row.id,
    email: row.email ?? "",
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    expired: row.expiresAt.getTime() <= now.getTime(),
  };
}

export function createStaffService(options: StaffServiceOptions) {
  const { db, auth, logger, publicUrl, onMailQueued, onSessionEnded, onSessionsReleased } = options;
  const mailConfigured = options.mailConfigured ?? false;
  const now = options.now ?? (() => new Date());
  const rateLimits = options.rateLimits ?? MEMORY_STORE;
  const actions = createRateLimiter(rateLimits, { name: "staff-actions", ...STAFF_ACTION_LIMIT });
  const links: LinkAccounts = createLinkAccounts({ db, auth, logger, rateLimits, now, onSessionEnded });
  const origin = new URL(publicUrl).origin;

  async function limited(manager: Manager): Promise<StaffRefusal | null> {
    const outcome = await consume(actions, manager.userId);
    if (outcome.allowed) return null;
    return {
      ok: false,
      status: 429,
      message: "Trop d'actions en peu de temps. Réessayez dans quelques minutes.",
      retryAfterSeconds: outcome.retryAfterSeconds,
    };
  }

  function invitationMail(email: string, url: string, manager: Manager, expiresAt: Date) {
    const shop = options.shop?.current() ?? defaultShop;
    const text = [
      "Bonjour,",
      "",
      `${manager.name} vous invite à rejoindre l'équipe de ${shop.name} : votre compte technicien vous donnera accès au tableau de bord de l'assistance à distance.`,
      "",
      `Pour créer votre compte (votre nom et votre mot de passe), ouvrez ce lien, valable jusqu'au ${DATE.format(expiresAt)} et une seule fois :`,
      url,
      "",
      "Si vous ne vous attendiez pas à ce message, ignorez-le : aucun compte ne sera créé.",
      "",
    ].join("\n");
    return {
      to: email,
      subject: `${shop.name} : invitation à rejoindre l'équipe`,
      text,
      template: null,
      templateParams: { to_email: email, from_name: shop.name, from_email: shop.email, message: text },
    };
  }

  return {
    ...links,

    /** Staff accounts and pending invitations. */
    async list(): Promise<StaffListResponse> {
      const [members, pending] = await Promise.all([listStaff(db), pendingInvitations(db)]);
      const at = now();
      return { members, invitations: pending.map((row) => toPending(row, at)) };
    },

    /**
     * Invites `{ email }` as a technician: 201 with the pending invitation; 409 when the address is a staff
     * account's. Issue 37 §3: a customer account's address is invited too (accepting takes the account over).
     */
    async invite(manager: Manager, input: unknown): Promise<LinkAnswer<InvitationResponse>> {
      const parsed = InviteInput.safeParse(input);
      if (!parsed.success) return invalid(parsed.error, STAFF_MESSAGES.badBody);
      const refused = await limited(manager);
      if (refused) return refused;
      const { email } = parsed.data;
      const [existing] = await db.select().from(users).where(eq(users.email, email));
      if (existing && (STAFF_ROLES as readonly Role[]).includes(roleOf(existing)))
        return { ok: false, status: 409, message: STAFF_MESSAGES.alreadyStaff };
      const at = now();
      const { row, url } = await db.transaction(async (tx) => {
        const { row: invitation, token } = await upsertInvitation(tx, { email, invitedBy: manager.userId, now: at });
        const link = `${origin}${INVITATION_PATH}?jeton=${token}`;
        await tx.insert(outboxMessages).values({
          messageId: newMessageId(new URL(publicUrl).hostname),
          requestKind: "staff-invitation",
          requestId: invitation.id,
          mail: invitationMail(email, link, manager, invitation.expiresAt),
        });
        return { row: invitation, url: link };
      });
      onMailQueued?.();
      const invitation = toPending(row, at);
      if (!mailConfigured) {
        logger.info({ invitationId: row.id, by: manager.userId }, "invitation d'un technicien : lien donné au gérant");
        return { ok: true, invitation, mailSent: false, link: url, message: STAFF_MESSAGES.invitedNoMail };
      }
      logger.info({ invitationId: row.id, by: manager.userId }, "invitation d'un technicien envoyée");
      return { ok: true, invitation, mailSent: true, message: STAFF_MESSAGES.invited };
    },

    /** Cancels a pending invitation (its link stops working). */
    async revoke(manager: Manager, invitationId: string): Promise<LinkAnswer<{ message: string }>> {
      const refused = await limited(manager);
      if (refused) return refused;
      if (!isUuid(invitationId) || !(await deleteInvitation(db, invitationId)))
        return { ok: false, status: 404, message: STAFF_MESSAGES.invitationNotFound };
      logger.info({ invitationId, by: manager.userId }, "invitation annulée");
      return { ok: true, message: STAFF_MESSAGES.revoked };
    },

    /** Disables (`disabled`) or re-enables a staff account; disabling ends its sign-ins and sockets at once. */
    async setDisabled(manager: Manager, memberId: string, disabled: boolean): Promise<LinkAnswer<StaffMemberResponse>> {
      const refused = await limited(manager);
      if (refused) return refused;
      if (memberId.length > 200) return { ok: false, status: 404, message: STAFF_MESSAGES.notFound };
      const result = await setDisabled(db, memberId, disabled, {
        byUserId: manager.userId,
        staffOnly: true,
        now: now(),
      });
      if (!result.ok) {
        const refusal = {
          "not-found": [404, STAFF_MESSAGES.notFound],
          self: [403, STAFF_MESSAGES.notYourself],
          "last-manager": [403, STAFF_MESSAGES.lastManager],
        } as const;
        const [status, message] = refusal[result.reason];
        return { ok: false, status, message };
      }
      for (const id of result.ended.sessionIds) onSessionEnded?.({ id, userId: memberId });
      if (result.ended.releasedSessionIds.length > 0) onSessionsReleased?.(result.ended.releasedSessionIds);
      logger.info(
        {
          userId: memberId,
          by: manager.userId,
          endedSessions: result.ended.sessionIds.length,
          releasedSessions: result.ended.releasedSessionIds.length,
        },
        disabled ? "compte désactivé" : "compte réactivé",
      );
      return {
        ok: true,
        member: toStaffMember(result.user),
        message: disabled ? STAFF_MESSAGES.disabled : STAFF_MESSAGES.enabled,
      };
    },

    /** Mails a staff account a password-reset link (better-auth's flow, through the outbox). */
    async sendPasswordReset(manager: Manager, memberId: string): Promise<LinkAnswer<{ message: string }>> {
      const refused = await limited(manager);
      if (refused) return refused;
      const [member] = memberId.length > 200 ? [] : await db.select().from(users).where(eq(users.id, memberId));
      if (!member || !(STAFF_ROLES as readonly Role[]).includes(roleOf(member)))
        return { ok: false, status: 404, message: STAFF_MESSAGES.notFound };
      await auth.api.requestPasswordReset({
        body: { email: member.email, redirectTo: new URL(RESET_PASSWORD_PATH, origin).href },
      });
      logger.info({ userId: memberId, by: manager.userId }, "lien de réinitialisation envoyé par le gérant");
      return { ok: true, message: mailConfigured ? STAFF_MESSAGES.resetSent : STAFF_MESSAGES.resetNotSent };
    },

    /**
     * At start: while no active manager exists, a new set-up link (24 h, single use; earlier unused ones
     * stop working) is logged once at `warn`, the only place its token is ever written. Returns whether it was.
     */
    async announceSetupLink(): Promise<boolean> {
      if (await hasActiveManager(db)) return false;
      const token = await newSetupLink(db, now());
      logger.warn(
        `Aucun compte gérant : créez-le avec ce lien (valable 24 h, une seule fois) : ${origin}${MANAGER_SETUP_PATH}?jeton=${token}`,
      );
      return true;
    },
  };
}

export type StaffService = ReturnType<typeof createStaffService>;

function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
