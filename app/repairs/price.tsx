/**
 * Issue 40: a ticket's price as both screens show it (the dashboard's panel
 * and `/suivi`). The server sends the agreed price (`priceEuros`: the
 * accepted quote's amount, else the one announced at the opening) and, when
 * an accepted quote changed it, the announced one (`estimateEuros`), shown
 * struck and labelled « Estimation initiale », the label saying in words
 * what the strike says to the eye.
 */
import { cn } from "#app/utils/cn.ts";
import type { PublicRepairTicket, RepairEventView } from "./protocol.ts";
import { formatEuros } from "./statuses.ts";

/** Whether `ticket`'s price is an accepted quote's amount (the last accepted, even while a newer one waits). */
export function priceFromQuote(ticket: Pick<PublicRepairTicket, "priceEuros" | "priceFromQuote">): boolean {
  return ticket.priceEuros !== null && ticket.priceFromQuote;
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

/** « Devis : Écran et nappe · 149 € » under a step that sent or answered a quote (kept once replaced). */
export function StepQuote({ quote, className }: { quote: RepairEventView["quote"]; className?: string }) {
  if (!quote) return null;
  return (
    <span className={cn("whitespace-pre-line break-words", className)}>
      Devis : {quote.description} · {formatEuros(quote.amountEuros)}
    </span>
  );
}
