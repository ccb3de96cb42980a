/**
 * Issue 18 §2: what `/suivi` (app/routes/suivi.tsx) gets from the server
 * through the router context: the public side of the repair service
 * (`server/repairs/service.ts`), never the database. `server/app.ts` sets
 * `repairTrackingContext`; the key is a shared global symbol (see
 * `sharedContext`), so the server bundle and the server agree on it.
 */
import type { RequestOrigin } from "#app/utils/server-context.ts";
import { sharedContext } from "#app/utils/server-context.ts";
import type { PublicRepairTicket } from "./protocol.ts";
import type { QuoteDecision } from "./statuses.ts";

/**
 * A lookup's outcome. Refusals carry the French message to show: `not-found`
 * is the same whatever part (code or contact) was wrong; `rate-limited`
 * after too many failures from the address (`retryAfterSeconds`);
 * `conflict` when a quote no longer waits for an answer; `invalid` for an
 * empty field; `failed` when the database could not be read.
 */
export type TrackingResult =
  | { ok: true; ticket: PublicRepairTicket }
  | {
      ok: false;
      reason: "invalid" | "not-found" | "rate-limited" | "conflict" | "failed";
      message: string;
      retryAfterSeconds?: number;
    };

/** The public tracking page's services; both never throw. `input` is the untrusted form. */
export type RepairTrackingServices = {
  /** The ticket of `code` when `contact` is its e-mail (any case) or its phone (digits compared). */
  track(input: unknown, origin: RequestOrigin): Promise<TrackingResult>;
  /**
   * Same check, then records the customer's `decision` on the pending quote ("client", now); with
   * `amountEuros` (the amount they confirmed, issue 30), a `conflict` if the quote's amount is another.
   */
  decideQuote(input: unknown, origin: RequestOrigin): Promise<TrackingResult & { decision?: QuoteDecision }>;
};

export const repairTrackingContext = sharedContext<RepairTrackingServices>("repair-tracking");
