/**
 * Issue 37 §3: the invitation link proves its address, the sign-up never did. So when the invited address already
 * has a customer account (anyone may register any address, before or after the invitation), accepting the
 * invitation takes that account over instead of failing: in one transaction it gets the invitee's name and a new
 * password, becomes a technician with a verified address (`changeRoleIn`), and loses every sign-in session it had
 * (`deleteSignIns`). Whoever registered the address first is thus left with a refused cookie and a wrong password.
 *
 * - Staff accounts are not taken over (409 « déjà celle d'un compte de l'équipe »), nor a disabled account (403,
 *   the sign-in's own message): the manager decides about those.
 * - The password is hashed by better-auth's own hasher, before the transaction (it is slow on purpose).
 * - The invitee is then signed in by better-auth (`signInEmail`, its cookie), and any sign-in session of the
 *   account other than that one (one raced in with the old password meanwhile) is deleted too.
 * - The caller ends the deleted sessions' sockets (`ended`, as disabling does). Logs carry ids only.
 */
import { randomUUID } from "node:crypto";
import { and, eq, ne } from "drizzle-orm";
import type { AppDatabase } from "#database/connection.ts";
import { accounts, authSessions, users } from "#database/schema.ts";
import { ACCOUNT_DISABLED_MESSAGE } from "#app/remote-support/account.ts";
import { STAFF_MESSAGES } from "#app/staff/protocol.ts";
import { roleOf, STAFF_ROLES, type Role } from "#server/access.ts";
import { CLIENT_IP_HEADER, type Auth } from "#server/auth.ts";
import { changeRoleIn, deleteSignIns, type EndedAccount } from "./accounts.ts";

/** better-auth's provider id of e-mail and password accounts. */
const CREDENTIAL = "credential";

export type TakeoverResult =
  | { ok: true; userId: string; setCookie: string[]; ended: EndedAccount }
  | { ok: false; reason: "none" }
  | { ok: false; reason: "refused"; status: number; message: string };

/**
 * Issue 37 §3: takes over the customer account of `email` for the invitee (`name`, `password`), signed in from
 * `ip`. `none` when the address has no account (the caller makes one).
 */
export async function takeOverCustomer(
  db: AppDatabase,
  auth: Auth,
  fields: { email: string; name: string; password: string },
  ip: string,
): Promise<TakeoverResult> {
  const [found] = await db.select().from(users).where(eq(users.email, fields.email));
  if (!found) return { ok: false, reason: "none" };
  const refused = refusalFor(found);
  if (refused) return refused;
  const hash = await (await auth.$context).password.hash(fields.password);
  const changed = await db.transaction(async (tx) => {
    // Read again under lock: the account may have become staff or disabled while the password was hashed.
    const [user] = await tx.select().from(users).where(eq(users.id, found.id)).for("update");
    if (!user) return { ok: false, reason: "none" } as const;
    const refusal = refusalFor(user);
    if (refusal) return refusal;
    const updated = await tx
      .update(accounts)
      .set({ password: hash, updatedAt: new Date() })
      .where(and(eq(accounts.userId, user.id), eq(accounts.providerId, CREDENTIAL)))
      .returning({ id: accounts.id });
    if (updated.length === 0) {
      await tx
        .insert(accounts)
        .values({ id: randomUUID(), accountId: user.id, providerId: CREDENTIAL, userId: user.id, password: hash });
    }
    const change = await changeRoleIn(tx, user.id, "technician", { name: fields.name, emailVerified: true });
    const leftover = await deleteSignIns(tx, user.id);
    return { ok: true, ended: { ...change!.ended, sessionIds: [...change!.ended.sessionIds, ...leftover] } } as const;
  });
  if (!changed.ok) return changed;

  // The account is the invitee's now, whatever the sign-in does: without its cookie they sign in by hand.
  const signedIn = await auth.api
    .signInEmail({
      body: { email: fields.email, password: fields.password },
      headers: new Headers({ [CLIENT_IP_HEADER]: ip }),
      returnHeaders: true,
    })
    .catch(() => null);
  const raced = await db
    .delete(authSessions)
    .where(
      signedIn
        ? and(eq(authSessions.userId, found.id), ne(authSessions.token, signedIn.response.token))
        : eq(authSessions.userId, found.id),
    )
    .returning({ id: authSessions.id });
  const ended = { ...changed.ended, sessionIds: [...changed.ended.sessionIds, ...raced.map((row) => row.id)] };
  return { ok: true, userId: found.id, setCookie: signedIn?.headers.getSetCookie() ?? [], ended };
}

function refusalFor(user: typeof users.$inferSelect): Extract<TakeoverResult, { reason: "refused" }> | null {
  if ((STAFF_ROLES as readonly Role[]).includes(roleOf(user)))
    return { ok: false, reason: "refused", status: 409, message: STAFF_MESSAGES.alreadyStaff };
  if (user.disabledAt) return { ok: false, reason: "refused", status: 403, message: ACCOUNT_DISABLED_MESSAGE };
  return null;
}
