/**
 * Issue 29: the single-use links that make staff accounts (`staff_invitations`, `database/schema-staff.ts`):
 * the manager's invitation of a technician (7 days) and the manager set-up link printed at first start (24 h).
 *
 * - A token is 32 random bytes (43 base64url characters); only its SHA-256 is stored, and it is never
 *   logged (the set-up link's one `warn` line aside, `setup-link.ts`).
 * - `claimLink` marks a link used in the statement that checks it (`used_at is null and expires_at > now`),
 *   so two submissions of one link make one account at most; `releaseLink` gives it back when the account
 *   could not be made after all (address taken, refused password).
 * - Time comes from the caller's clock (`now`), so tests can move it. Links past their time are deleted by
 *   the retention purge (`server/retention.ts`, `staffInvitations`).
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { AppDatabase } from "#database/connection.ts";
import { staffInvitations, type StaffLinkKind } from "#database/schema-staff.ts";
import { INVITATION_TTL_MS, SETUP_TTL_MS } from "#app/staff/protocol.ts";

/** A new link token (base64url, 43 characters) and the hash stored for it. */
export function newLinkToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, tokenHash: hashLinkToken(token) };
}

/** The stored form of a token: base64url SHA-256. */
export function hashLinkToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

export type InvitationRow = typeof staffInvitations.$inferSelect;
/** The database, or a transaction of it (the invitation is stored with its mail). */
type Executor = AppDatabase | Parameters<Parameters<AppDatabase["transaction"]>[0]>[0];

/**
 * Invites `email` (lower case): a new pending invitation, or the address's pending one given a new token
 * and 7 more days (the older link then stops working). One statement, so two managers inviting the same
 * address at once leave one pending invitation.
 */
export async function upsertInvitation(
  db: Executor,
  { email, invitedBy, now }: { email: string; invitedBy: string; now: Date },
): Promise<{ row: InvitationRow; token: string }> {
  const { token, tokenHash } = newLinkToken();
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
  const [row] = await db
    .insert(staffInvitations)
    .values({ kind: "technician", email, tokenHash, invitedBy, createdAt: now, expiresAt })
    .onConflictDoUpdate({
      target: staffInvitations.email,
      targetWhere: sql`${staffInvitations.usedAt} is null`,
      set: { tokenHash, invitedBy, createdAt: now, expiresAt },
    })
    .returning();
  return { row: row!, token };
}

/** Replaces any unused set-up link by a new one valid 24 hours (one per server start). */
export async function newSetupLink(db: AppDatabase, now: Date): Promise<string> {
  const { token, tokenHash } = newLinkToken();
  await db.transaction(async (tx) => {
    await tx
      .delete(staffInvitations)
      .where(and(eq(staffInvitations.kind, "manager-setup"), isNull(staffInvitations.usedAt)));
    await tx
      .insert(staffInvitations)
      .values({ kind: "manager-setup", tokenHash, createdAt: now, expiresAt: new Date(now.getTime() + SETUP_TTL_MS) });
  });
  return token;
}

/** Why a link cannot be used: never stored (or replaced), past its time, or already used. */
export type LinkState = { ok: true; row: InvitationRow } | { ok: false; reason: "unknown" | "expired" | "used" };

/** Reads a link without using it (the page shows the form, or why it cannot). */
export async function readLink(db: AppDatabase, kind: StaffLinkKind, token: string, now: Date): Promise<LinkState> {
  const [row] = await db
    .select()
    .from(staffInvitations)
    .where(and(eq(staffInvitations.tokenHash, hashLinkToken(token)), eq(staffInvitations.kind, kind)));
  if (!row) return { ok: false, reason: "unknown" };
  if (row.usedAt) return { ok: false, reason: "used" };
  if (row.expiresAt.getTime() <= now.getTime()) return { ok: false, reason: "expired" };
  return { ok: true, row };
}

/** Marks the link used, if it still may be; otherwise says why not. */
export async function claimLink(db: AppDatabase, kind: StaffLinkKind, token: string, now: Date): Promise<LinkState> {
  const [row] = await db
    .update(staffInvitations)
    .set({ usedAt: now })
    .where(
      and(
        eq(staffInvitations.tokenHash, hashLinkToken(token)),
        eq(staffInvitations.kind, kind),
        isNull(staffInvitations.usedAt),
        gt(staffInvitations.expiresAt, now),
      ),
    )
    .returning();
  return row ? { ok: true, row } : readLink(db, kind, token, now);
}

/** Gives a claimed link back (the account could not be made), or records the account it made. */
export async function settleLink(db: AppDatabase, id: string, userId: string | null): Promise<void> {
  await db
    .update(staffInvitations)
    .set(userId ? { userId } : { usedAt: null })
    .where(eq(staffInvitations.id, id));
}

/** Pending (not used) invitations of technicians, oldest first, with whether each expired. */
export async function pendingInvitations(db: AppDatabase): Promise<InvitationRow[]> {
  return db
    .select()
    .from(staffInvitations)
    .where(and(eq(staffInvitations.kind, "technician"), isNull(staffInvitations.usedAt)))
    .orderBy(staffInvitations.createdAt);
}

/** Deletes a pending invitation; false when there was none with this id. */
export async function deleteInvitation(db: AppDatabase, id: string): Promise<boolean> {
  const deleted = await db
    .delete(staffInvitations)
    .where(and(eq(staffInvitations.id, id), isNull(staffInvitations.usedAt)))
    .returning({ id: staffInvitations.id });
  return deleted.length > 0;
}
