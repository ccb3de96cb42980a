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
 */
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { AppDatabase } from "#database/connection.ts";
import { authSessions, users } from "#database/schema.ts";
import { roleOf, STAFF_ROLES, type Role } from "#server/access.ts";
import type { StaffMember, StaffRole } from "#app/staff/protocol.ts";

/** The PostgreSQL channel a command notifies when it ended an account's sign-ins (payload `EndedAccount` JSON). */
export const ACCOUNT_ENDED_CHANNEL = "atelier_account_ended";
/** One account whose sign-in sessions were deleted outside the server. */
export type EndedAccount = { userId: string; sessionIds: string[] };
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
      return { ok: true, user: updated!, ended: { userId, sessionIds: [] } } as const;
    }
    if (byUserId === userId) return { ok: false, reason: "self" } as const;
    if (roleOf(user) === "manager" && !user.disabledAt && managers.every((manager) => manager.id === userId))
      return { ok: false, reason: "last-manager" } as const;
    const [updated] = await tx
      .update(users)
      .set({ disabledAt: user.disabledAt ?? now })
      .where(eq(users.id, userId))
      .returning();
    const sessions = await tx
      .delete(authSessions)
      .where(eq(authSessions.userId, userId))
      .returning({ id: authSessions.id });
    return { ok: true, user: updated!, ended: { userId, sessionIds: sessions.map((session) => session.id) } } as const;
  });
}

/** Tells every server process (LISTEN, `account-events.ts`) that `ended`'s sign-in sessions are gone. */
export async function notifyAccountEnded(db: AppDatabase, ended: EndedAccount): Promise<void> {
  for (let start = 0; start === 0 || start < ended.sessionIds.length; start += IDS_PER_NOTICE) {
    const payload = JSON.stringify({
      userId: ended.userId,
      sessionIds: ended.sessionIds.slice(start, start + IDS_PER_NOTICE),
    });
    await db.execute(sql`select pg_notify(${ACCOUNT_ENDED_CHANNEL}, ${payload})`);
  }
}
