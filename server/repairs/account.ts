/**
 * Issue 18 §2, "in their account if they have one": the repairs a signed-in
 * customer follows in /soft-assist. A ticket joins an account when it is
 * opened for a verified address of that account (`intake.ts`), or when the
 * customer adds it with its code and their e-mail or phone: the same proof
 * as the public tracking page, with the same per-IP limit and the same
 * single refusal sentence. Nothing typed is logged.
 *
 * Issue 28 §3: a ticket already in another account stays there: the claim
 * is refused (`taken`, in French, naming no one) and that account's list is
 * unchanged. Claiming a ticket already in one's own account again is fine.
 */
import { defaultShop, type ShopSource } from "#app/config/shop.ts";
import { and, desc, eq, isNull, or } from "drizzle-orm";
import type { Logger } from "pino";
import { REPAIR_MESSAGES, type CustomerRepairLine } from "#app/repairs/protocol.ts";
import { parseTrackingQuery } from "#app/repairs/schemas.ts";
import { formatTrackingCode } from "#app/repairs/statuses.ts";
import type { RequestOrigin } from "#app/utils/server-context.ts";
import type { AppDatabase } from "#database/connection.ts";
import { repairTickets } from "#database/schema-repairs.ts";
import type { PublicTracking } from "./tracking.ts";
import type { TicketRow } from "./views.ts";

/** Tickets shown in an account, newest change first. */
export const ACCOUNT_REPAIRS_SHOWN = 50;

export type AccountRepairsResult =
  | { ok: true; repairs: CustomerRepairLine[] }
  | {
      ok: false;
      reason: "invalid" | "not-found" | "rate-limited" | "taken" | "failed";
      message: string;
      /** With `rate-limited`: seconds until the address may try again. */
      retryAfterSeconds?: number;
    };

export type AccountRepairs = {
  /** The tickets of account `userId`. */
  mine(userId: string): Promise<AccountRepairsResult>;
  /**
   * Adds the ticket of `input.code` to `userId` when `input.contact` is its e-mail or phone; answers the
   * new list. `taken` when the ticket is in another account (issue 28 §3).
   */
  claim(userId: string, input: unknown, origin: RequestOrigin): Promise<AccountRepairsResult>;
};

function lineOf(row: TicketRow): CustomerRepairLine {
  return {
    code: formatTrackingCode(row.trackingCode),
    modelName: row.modelName,
    repairLabel: row.repairLabel,
    status: row.status,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function createAccountRepairs({
  db,
  logger,
  tracking,
  shop,
}: {
  db: AppDatabase;
  logger: Logger;
  tracking: PublicTracking;
  /** Issue 29: the shop's identity (its phone in the `taken` message); the defaults when absent. */
  shop?: ShopSource;
}): AccountRepairs {
  const failed = (error: unknown): AccountRepairsResult => {
    logger.error({ err: error }, "réparations du compte : lecture impossible");
    return { ok: false, reason: "failed", message: REPAIR_MESSAGES.failed };
  };
  async function mine(userId: string): Promise<AccountRepairsResult> {
    try {
      const rows = await db
        .select()
        .from(repairTickets)
        .where(eq(repairTickets.userId, userId))
        .orderBy(desc(repairTickets.updatedAt))
        .limit(ACCOUNT_REPAIRS_SHOWN);
      return { ok: true, repairs: rows.map(lineOf) };
    } catch (error) {
      return failed(error);
    }
  }
  return {
    mine,
    async claim(userId, input, origin) {
      const parsed = parseTrackingQuery(input);
      if (!parsed.ok) return { ok: false, reason: "invalid", message: parsed.message };
      const found = await tracking.find(parsed.data, origin);
      if (!found.ok) {
        const reason = found.reason === "rate-limited" || found.reason === "failed" ? found.reason : "not-found";
        return { ok: false, reason, message: found.message, retryAfterSeconds: found.retryAfterSeconds };
      }
      let claimed: { id: string }[];
      try {
        // One statement: a ticket linked meanwhile to another account is not taken from it.
        claimed = await db
          .update(repairTickets)
          .set({ userId })
          .where(
            and(eq(repairTickets.id, found.row.id), or(isNull(repairTickets.userId), eq(repairTickets.userId, userId))),
          )
          .returning({ id: repairTickets.id });
      } catch (error) {
        return failed(error);
      }
      if (claimed.length === 0) {
        logger.info({ ticketId: found.row.id }, "réparation non ajoutée : déjà suivie dans un autre compte");
        return {
          ok: false,
          reason: "taken",
          message: REPAIR_MESSAGES.claimedElsewhere((shop?.current() ?? defaultShop).phone.display),
        };
      }
      logger.info({ ticketId: found.row.id }, "réparation ajoutée à un compte client");
      return mine(userId);
    },
  };
}
