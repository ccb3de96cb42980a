/**
 * Issue 40: the counts on the dashboard's tabs (`DashboardCounts`, `app/remote-support/dashboard-counts.ts`):
 * appointments « À confirmer » still to come, repair quotes waiting for the customer's answer, requests not
 * marked « Traité ». Part of `createSessionService` (`remote-support/sessions.ts`); the route is
 * `server/dashboard-api.ts`. Three small counts over indexed columns, read when the dashboard asks (on load, on
 * each change of view, after an action, on an `agenda:changed` push).
 */
import { and, count, eq, gt, isNull, sql } from "drizzle-orm";
import { appointments } from "#database/schema-booking.ts";
import { repairTickets } from "#database/schema-repairs.ts";
import type { DashboardCounts } from "#app/remote-support/dashboard-counts.ts";
import { can, type Caller } from "./access.ts";
import { refuse, type Outcome, type SessionContext } from "./remote-support/session-rules.ts";
import { untreatedRequestCount } from "./requests-treatment.ts";

export type DashboardCountsMethods = {
  /**
   * Needs `session:history` (the technician dashboard); each count is null when the caller may not open its view
   * (`agenda:manage`, `repairs:manage`, `requests:read`). Refusals: not signed in, not permitted, `failed`.
   */
  dashboardCounts(caller: Caller | null): Promise<Outcome<{ counts: DashboardCounts }>>;
};

/** The counts method of the session service (see `DashboardCountsMethods`). */
export function createDashboardCounts(context: SessionContext): DashboardCountsMethods {
  const { db, guarded } = context;
  /** `read()` when `caller` may open the view, else null, without a query. */
  const when = (allowed: boolean, read: () => Promise<number>) => (allowed ? read() : Promise.resolve(null));
  return {
    dashboardCounts(caller) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      if (!can(caller, "session:history")) return Promise.resolve(refuse("not-permitted"));
      return guarded("Erreur lors du comptage du tableau de bord", async () => {
        const [appointmentsToConfirm, quotesAwaiting, untreatedRequests] = await Promise.all([
          when(can(caller, "agenda:manage"), async () => {
            // A past one can no longer be confirmed (`server/booking/store.ts`): it waits for nobody.
            const [row] = await db
              .select({ n: count() })
              .from(appointments)
              .where(and(eq(appointments.status, "requested"), gt(appointments.startsAt, sql`now()`)));
            return row?.n ?? 0;
          }),
          when(can(caller, "repairs:manage"), async () => {
            // « Devis à valider » without an answer; a refused quote keeps the status, with its decision.
            const [row] = await db
              .select({ n: count() })
              .from(repairTickets)
              .where(and(eq(repairTickets.status, "quote-pending"), isNull(repairTickets.quoteDecision)));
            return row?.n ?? 0;
          }),
          when(can(caller, "requests:read"), () => untreatedRequestCount(db)),
        ]);
        return { ok: true, counts: { appointmentsToConfirm, quotesAwaiting, untreatedRequests } };
      });
    },
  };
}
