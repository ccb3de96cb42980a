/**
 * Issue 40: a ticket's price as both screens show it (the dashboard's panel
 * and `/suivi`). The server sends the agreed price (`priceEuros`: the
 * accepted quote's amount, else the one announced at the opening) and, when
 * an accepted quote changed it, the announced one (`estimateEuros`), shown
 * struck and labelled « Estimation initiale », the label saying in words
 * what the strike says to the eye.
 */
import { cn } from "#app/utils/cn.ts";
import type { PublicRepairTicket } from "./protocol.ts";
import { formatEuros } from "./statuses.ts";

/** Whether `ticket`'s price is its accepted quote's amount. */
export function priceFromQuote(ticket: Pick<PublicRepairTicket, "priceEuros" | "quote">): boolean {
  return ticket.priceEuros !== null && ticket.quote?.decision === "accepted";
}

/** « Estimation initiale : ~~119 €~~ » on a line of its own, or nothing when the price never changed. */
export function InitialEstimate({ euros, className }: { euros: number | null; className?: string }) {
  if (euros === null) return null;
  return (
    <span className={cn("block text-slate-300", className)}>
      Estimation initiale : <s>{formatEuros(euros)}</s>
    </span>
  );
}
