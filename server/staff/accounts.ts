/**
 * Issue 29: the state of staff accounts, shared by the manager's « Équipe » view (`service.ts`) and
 * `npm run user` (`scripts/user.ts`), so both apply the same rules.
 *
 * - `setDisabled`: disabling stamps `users.disabled_at` and deletes the account's sign-in sessions in one
 *   transaction, and returns their ids so the caller ends their sockets (`ended`). Refused: disabling
 *   oneself (`self`), or the last active manager (`last-manager`); the active managers' rows are locked
 *   first (`for update`), so two managers disabling each other at once cannot leave none.
 * - Ending sockets: inside the server, through the session service's `authSessionEnded` (every process,
 *   by the Socket.IO adapter). From a command beside the server, by `notifyAccountEnded`: a PostgreSQL
 *   `NOTIFY` on `ACCOUNT_ENDED_CHANNEL` that every server process LISTENs to (`account-events.ts`). Either
 *   way the sockets' 30 s background check (`REVALIDATE_INTERVAL_MS`) catches anything missed.
 * - Issue 37 §3: `changeRole` is the only writer of `users.role` for an existing account (`npm run user --
 *   promote|demote`, an invitation taking over a customer account): it ends the account's sign-in sessions in the
 *   same transaction, so a cookie made before the change never carries the new rights.
 * - Issue 37 §4: disabling, deleting (`deleteAccount`) or demoting to customer also ends every session the account
 *   joined as technician (`releaseJoinedSessions`); their ids (`releasedSessionIds`) go to
 *   `SessionService.announceReleased`, in this process or through the NOTIFY.
 */
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { AppDatabase } from "#database/connection.ts";
import { authSessions, users } from "#database/schema.ts";
import { can, roleFields, roleOf, STAFF_ROLES, type Role } from "#server/access.ts";
import { releaseJoinedSessions } from "#server/remote-support/technician-release.ts";
import type { StaffMember, StaffRole } from "#app/staff/protocol.ts";

/** The PostgreSQL channel a command notifies when it ended an account's sign-ins (payload `EndedAccount` JSON). */
export const ACCOUNT_ENDED_CHANNEL = "atelier_account_ended";
/**
 * One account whose sign-in sessions (`sessionIds`) were deleted, and the remote-support sessions it joined that
 * ended with its rights (`releasedSessionIds`, issue 37 §4).
 */
export type EndedAccount = { userId: string; sessionIds: string[]; releasedSessionIds: string[] };
/** NOTIFY payloads stay under PostgreSQL's 8000 bytes: session ids are sent this many at a time. */
const IDS_PER_NOTICE = 100;

type UserRow = typeof users.$inferSelect;

/** A staff account as the « Équipe » view shows it. */
export function toStaffMember(user: UserRow): StaffMember {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    role: roleOf(user) as StaffRole,
    createdAt: user.createdAt.toISOString(),
    lastSignInAt: user.lastSignInAt?.toISOString() ?? null,
    disabledAt: user.disabledAt?.toISOString() ?? null,
  };
}

/** Every technician and manager, managers first, then by creation. */
export async function listStaff(db: AppDatabase): Promise<StaffMember[]> {
  const rows = await db
    .select()
    .from(users)
    .where(inArray(users.role, [...STAFF_ROLES]))
    .orderBy(sql`${users.role} = 'manager' desc`, asc(users.createdAt));
  return rows.map(toStaffMember);
}

/** Whether an active (not disabled) manager exists: the set-up link is offered only while none does. */
export async function hasActiveManager(db: AppDatabase): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, "manager"), isNull(users.disabledAt)))
    .limit(1);
  return row !== undefined;
}

export type DisableResult =
  { ok: true; user: UserRow; ended: EndedAccount } | { ok: false; reason: "not-found" | "self" | "last-manager" };

/**
 * Disables (`disabled` true) or re-enables an account. `staffOnly` limits it to technicians and managers
 * (the dashboard); `byUserId` is who asks (the dashboard's manager; none for the command).
 * Disabling an already disabled account changes nothing but still deletes any sign-in session left.
 */
export async function setDisabled(
  db: AppDatabase,
  userId: string,
  disabled: boolean,
  { byUserId, staffOnly, now = new Date() }: { byUserId?: string; staffOnly: boolean; now?: Date },
): Promise<DisableResult> {
  return db.transaction(async (tx) => {
    // The active managers first, always in the same order, then the account: two managers disabling each
    // other at once wait for one another instead of deadlocking, and the second sees the first's change.
    const managers = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.role, "manager"), isNull(users.disabledAt)))
      .orderBy(asc(users.id))
      .for("update");
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
    if (!user || (staffOnly && !(STAFF_ROLES as readonly Role[]).includes(roleOf(user))))
      return { ok: false, reason: "not-found" } as const;
    if (!disabled) {
      const [updated] = await tx.update(users).set({ disabledAt: null }).where(eq(users.id, userId)).returning();
      return { ok: true, user: updated!, ended: { userId, sessionIds: [], releasedSessionIds: [] } } as const;
    }
    if (byUserId === userId) return { ok: false, reason: "self" } as const;
    if (roleOf(user) === "manager" && !user.disabledAt && managers.every((manager) => manager.id === userId))
      return { ok: false, reason: "last-manager" } as const;
    const [updated] = await tx
      .update(users)
      .set({ disabledAt: user.disabledAt ?? now })
      .where(eq(users.id, userId))
      .returning();
    const sessionIds = await deleteSignIns(tx, userId);
    const releasedSessionIds = await releaseJoinedSessions(tx, userId);
    return { ok: true, user: updated!, ended: { userId, sessionIds, releasedSessionIds } } as const;
  });
}

/** The database inside one transaction. */
export type Transaction = Parameters<Parameters<AppDatabase["transaction"]>[0]>[0];

/** Deletes every sign-in session of `userId` inside `tx`; their ids (issue 37: also the invitation's takeover). */
export async function deleteSignIns(tx: Transaction, userId: string): Promise<string[]> {
  const deleted = await tx
    .delete(authSessions)
    .where(eq(authSessions.userId, userId))
    .returning({ id: authSessions.id });
  return deleted.map((session) => session.id);
}

/**
 * Issue 37 §3: gives `userId` the role `role` and, when it changes, ends every sign-in session of the account in
 * the same transaction (a cookie made under the old role must not carry the new one); a role without
 * `session:join` also ends the sessions it joined (§4). `extra` is written with the role (the invitation's name
 * and verified address). `undefined` when there is no such account.
 */
export async function changeRole(
  db: AppDatabase,
  userId: string,
  role: Role,
  extra: RoleExtra = {},
): Promise<RoleChange | undefined> {
  return db.transaction((tx) => changeRoleIn(tx, userId, role, extra));
}

/** Fields written with a new role (an accepted invitation: the chosen name, the address proved). */
export type RoleExtra = Partial<Pick<UserRow, "name" | "emailVerified">>;
/** What `changeRole` did: the account after it, whether its role changed, what ended. */
export type RoleChange = { user: UserRow; changed: boolean; ended: EndedAccount };

/** Issue 37 §3: `changeRole` inside the caller's transaction `tx` (the invitation also replaces the password). */
export async function changeRoleIn(
  tx: Transaction,
  userId: string,
  role: Role,
  extra: RoleExtra = {},
): Promise<RoleChange | undefined> {
  const [user] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
  if (!user) return undefined;
  const changed = roleOf(user) !== role;
  const [updated] = await tx
    .update(users)
    .set({ ...extra, ...roleFields(role) })
    .where(eq(users.id, userId))
    .returning();
  const sessionIds = changed ? await deleteSignIns(tx, userId) : [];
  const releasedSessionIds = changed && !can({ role }, "session:join") ? await releaseJoinedSessions(tx, userId) : [];
  return { user: updated!, changed, ended: { userId, sessionIds, releasedSessionIds } };
}

/**
 * Issue 37 §4: deletes the account `userId` after ending its sign-in sessions and the sessions it joined (their
 * technician would otherwise become null while the session stays connected). `undefined` when there is none.
 */
export async function deleteAccount(db: AppDatabase, userId: string): Promise<EndedAccount | undefined> {
  return db.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
    if (!user) return undefined;
    const sessionIds = await deleteSignIns(tx, userId);
    const releasedSessionIds = await releaseJoinedSessions(tx, userId);
    await tx.delete(users).where(eq(users.id, userId));
    return { userId, sessionIds, releasedSessionIds };
  });
}

/**
 * Tells every server process (LISTEN, `account-events.ts`) that `ended`'s sign-in sessions are gone and (issue 37
 * §4) which remote-support sessions ended with the account's rights.
 */
export async function notifyAccountEnded(db: AppDatabase, ended: EndedAccount): Promise<void> {
  const longest = Math.max(ended.sessionIds.length, ended.releasedSessionIds.length);
  for (let start = 0; start === 0 || start < longest; start += IDS_PER_NOTICE) {
    const payload = JSON.stringify({
      userId: ended.userId,
      sessionIds: ended.sessionIds.slice(start, start + IDS_PER_NOTICE),
      releasedSessionIds: ended.releasedSessionIds.slice(start, start + IDS_PER_NOTICE),
    });
    await db.execute(sql`select pg_notify(${ACCOUNT_ENDED_CHANNEL}, ${payload})`);
  }
}
