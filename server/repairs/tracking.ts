/**
 * Issue 18 §2, the public tracking page's lookup: a ticket is found only
 * with both its code and its customer's e-mail or phone, and every other
 * outcome is the same French sentence (`REPAIR_MESSAGES.notFound`), so
 * nothing tells which part was wrong or whether a code exists. Failures are
 * counted per IP address; once the limit is spent, every lookup from that
 * address is refused until the window ends. Logs carry a pseudonymized IP
 * and ticket ids, never what was typed.
 *
 * Issue 28 §2: a failure is counted BEFORE the lookup and given back when
 * the lookup succeeds (as the session joins do), so that guesses sent in
 * parallel cannot all pass a check made before any of them was counted:
 * with a limit of 10, exactly 10 of 100 parallel guesses are looked up.
 * Refusals are summarised once a minute (`server/refusal-log.ts`), not logged one by one.
 */
import { eq } from "drizzle-orm";
import type { Logger } from "pino";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { REPAIR_MESSAGES } from "#app/repairs/protocol.ts";
import { parseTrackingQuery, type TrackingQuery } from "#app/repairs/schemas.ts";
import { normalizeTrackingCode } from "#app/repairs/statuses.ts";
import type { Catalogue } from "#app/catalogue/catalogue.ts";
import type { TrackingResult } from "#app/repairs/tracking-context.ts";
import type { RequestOrigin } from "#app/utils/server-context.ts";
import type { AppDatabase } from "#database/connection.ts";
import { repairTickets } from "#database/schema-repairs.ts";
import { pseudonymizeIp } from "#server/logger.ts";
import { consume } from "#server/rate-limit.ts";
import { createRefusalLog } from "#server/refusal-log.ts";
import { contactMatches, isTrackingCode } from "./codes.ts";
import { publicView, type EventRow, type TicketRow } from "./views.ts";
import { ticketBonus } from "./bonus.ts";

type Refusal = Extract<TrackingResult, { ok: false }>;

export type PublicTracking = {
  /** The form's lookup: validates `input`, then `find`, then the public view with the steps. */
  lookup(input: unknown, origin: RequestOrigin): Promise<TrackingResult>;
  /**
   * The ticket of a valid query; a failure is counted before the lookup and given back on success
   * (issue 28 §2). For the page's lookup, the quote answer's re-check and the claim in an account.
   */
  find(query: TrackingQuery, origin: RequestOrigin): Promise<{ ok: true; row: TicketRow } | Refusal>;
};

/**
 * The lookups over `db`, counting failures in `limiter` (keyed by the visitor's IP); the bonus line is
 * read in `catalogue()`, the catalogue at the time of the lookup (issue 29).
 */
export function trackPublic({
  db,
  logger,
  limiter,
  eventsOf,
  catalogue,
}: {
  db: AppDatabase;
  logger: Logger;
  limiter: RateLimiterAbstract;
  eventsOf: (db: AppDatabase, ticketId: string) => Promise<EventRow[]>;
  catalogue: () => Catalogue;
}): PublicTracking {
  const failed = (error: unknown): Refusal => {
    logger.error({ err: error }, "suivi de réparation : lecture impossible");
    return { ok: false, reason: "failed", message: REPAIR_MESSAGES.failed };
  };
  const refused = createRefusalLog(
    logger,
    "suivi de réparation : recherches refusées (nombre par motif sur la minute)",
  );

  async function find(query: TrackingQuery, origin: RequestOrigin): Promise<{ ok: true; row: TicketRow } | Refusal> {
    let reserved = false;
    try {
      // The failure is reserved before looking, so that parallel guesses are counted before any is checked.
      const state = await consume(limiter, origin.ip);
      if (!state.allowed) {
        refused("limite", { ipHash: pseudonymizeIp(origin.ip) });
        const minutes = Math.max(1, Math.ceil(state.retryAfterSeconds / 60));
        return {
          ok: false,
          reason: "rate-limited",
          message: REPAIR_MESSAGES.tooManyAttempts(minutes),
          retryAfterSeconds: state.retryAfterSeconds,
        };
      }
      reserved = true;
      const code = normalizeTrackingCode(query.code);
      // A code that cannot exist costs no query, but counts like any wrong one.
      const [row] = isTrackingCode(code)
        ? await db.select().from(repairTickets).where(eq(repairTickets.trackingCode, code))
        : [];
      if (row && contactMatches(query.contact, row)) {
        // A right pair costs nothing: the reserved failure is given back.
        await limiter.reward(origin.ip, 1);
        return { ok: true, row };
      }
      refused("inconnu", { ipHash: pseudonymizeIp(origin.ip) });
      return { ok: false, reason: "not-found", message: REPAIR_MESSAGES.notFound };
    } catch (error) {
      // The database failed, not the visitor: the reserved failure is given back (a store failure left none).
      if (reserved) await limiter.reward(origin.ip, 1).catch(() => undefined);
      return failed(error);
    }
  }

  return {
    find,
    async lookup(input, origin) {
      const parsed = parseTrackingQuery(input);
      if (!parsed.ok) return { ok: false, reason: "invalid", message: parsed.message };
      const found = await find(parsed.data, origin);
      if (!found.ok) return found;
      try {
        const afterBonus = await ticketBonus(db, found.row, catalogue());
        return { ok: true, ticket: publicView(found.row, await eventsOf(db, found.row.id), afterBonus) };
      } catch (error) {
        return failed(error);
      }
    },
  };
}
