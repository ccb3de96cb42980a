/**
 * Issue 37 §4: an account that loses its staff rights (disabled, deleted, demoted to customer) lets go of every
 * session it joined, as if its technician had clicked « Terminer la session » (`SessionService.disconnect`).
 *
 * - `releaseJoinedSessions` runs inside the transaction that takes the rights away (`server/staff/accounts.ts`,
 *   `npm run user -- delete`): each open session whose `technician_id` is the account ends (`endInTransaction`,
 *   an `ended` event by the technician, so the report's « Déroulement » reads « Session terminée par le
 *   technicien »). Nothing stays joined, so re-enabling the account rejoins nothing.
 * - `announceReleased` (a `SessionService` method) then announces each of them, after commit, like any end: the
 *   browsers get the ended session, and `DeviceService.sessionChanged` voids the desktop app's token and tells the
 *   app (`device:release`, then `device:ended`): its screen demand and capture stop. A command beside the server
 *   hands the ids over by NOTIFY (`notifyAccountEnded`); every process announcing is harmless (the app's token is
 *   voided once, the views are the same).
 *
 * Logs carry session and account ids only.
 */
import { and, eq, inArray, isNull } from "drizzle-orm";
import { sessions } from "#database/schema.ts";
import { endInTransaction, sessionViews, type SessionContext, type Transaction } from "./session-rules.ts";

/** Sessions announced at most per call (a NOTIFY carries 100 ids; a technician joins a handful). */
const MAX_RELEASED = 1_000;

/**
 * Issue 37 §4: ends, inside `tx`, every open session `userId` joined as technician (actor: that technician).
 * @returns the ended sessions' ids, to hand to `SessionService.announceReleased` after commit.
 */
export async function releaseJoinedSessions(tx: Transaction, userId: string): Promise<string[]> {
  const joined = await tx
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.technicianId, userId), isNull(sessions.endTime)));
  const released: string[] = [];
  for (const { id } of joined) {
    const row = await endInTransaction(tx, eq(sessions.id, id), userId);
    if (row) released.push(row.id);
  }
  return released;
}

export type TechnicianReleaseMethods = {
  /**
   * Issue 37 §4: announces sessions `releaseJoinedSessions` ended (browsers told, the desktop app released and
   * told `device:ended`). Never throws: a failure is logged.
   */
  announceReleased(sessionIds: readonly string[]): Promise<void>;
};

/** Part of `createSessionService` (`sessions.ts`). */
export function createTechnicianRelease({ db, logger, announce }: SessionContext): TechnicianReleaseMethods {
  return {
    async announceReleased(sessionIds) {
      const ids = [...new Set(sessionIds)].slice(0, MAX_RELEASED);
      if (ids.length === 0) return;
      try {
        const rows = await db.select().from(sessions).where(inArray(sessions.id, ids));
        for (const session of await sessionViews(db, rows)) {
          logger.info({ sessionId: session.id }, "session libérée : le technicien a perdu son accès");
          announce({ type: "session", session });
        }
      } catch (error) {
        logger.error({ err: error }, "sessions libérées non annoncées");
      }
    },
  };
}
