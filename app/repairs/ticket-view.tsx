/**
 * Issue 18 §2: a repair ticket as the customer reads it on `/suivi`: model,
 * repair and its price (issue 40: the accepted quote's amount once accepted,
 * the announced one then struck as « Estimation initiale »; with « X € après
 * bonus réparation » and its explanation when the shop shows the bonus,
 * issue 30 §3), current status, the quote with its
 * two-step answer while it waits (`quote-answer.tsx`, issue 30 §1), the
 * steps done and to come (`progress.tsx`, issue 30 §2), and "Garantie
 * jusqu'au …" once "Rendu".
 */
import { Card } from "#app/components/ui/card.tsx";
import { BonusExplainer } from "#app/catalogue/bonus-explainer.tsx";
import type { PublicRepairTicket } from "./protocol.ts";
import { RepairProgress } from "./progress.tsx";
import { QuoteAnswer } from "./quote-answer.tsx";
import { InitialEstimate, priceFromQuote } from "./price.tsx";
import {
  formatDay,
  formatEuros,
  formatInstant,
  REPAIR_STATUS_LABELS,
  WARRANTY_MONTHS,
  type QuoteDecision,
} from "./statuses.ts";

type Props = {
  ticket: PublicRepairTicket;
  /** What the customer typed, sent again with a quote answer. */
  contact: string;
  /** A quote answer is being sent (buttons disabled). */
  busy?: boolean;
  /** The quote's question the server was asked to show (`confirm`, posted without JavaScript). */
  asking?: QuoteDecision | null;
  /** The question just closed by « Annuler » without JavaScript (its opening button takes the focus). */
  back?: QuoteDecision | null;
  /**
   * Issue 40: the ticket was just looked up (no other message to read first): its heading takes the focus once
   * the page has loaded, so the result is in view and read out, not left below the form on a phone.
   */
  focusOnLoad?: boolean;
};

/** The ticket's card; see the module comment. */
export function TicketView({ ticket, contact, busy = false, asking = null, back = null, focusOnLoad = false }: Props) {
  const { quote } = ticket;
  const waiting = ticket.status === "quote-pending" && quote !== null && quote.decision === null;
  return (
    <Card className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        <h2
          id="reparation-titre"
          className="scroll-mt-24 text-2xl font-bold text-white"
          tabIndex={focusOnLoad ? -1 : undefined}
          data-focus-on-load={focusOnLoad ? "" : undefined}
        >
          Réparation {ticket.code}
        </h2>
        <dl className="grid gap-x-6 gap-y-1 text-lg sm:grid-cols-[max-content_1fr]">
          <dt className="font-semibold text-slate-300">Appareil</dt>
          <dd className="text-white">{ticket.modelName}</dd>
          <dt className="font-semibold text-slate-300">Réparation</dt>
          <dd className="text-white">
            {ticket.repairLabel}
            {ticket.priceEuros === null
              ? null
              : priceFromQuote(ticket)
                ? ` (${formatEuros(ticket.priceEuros)}, devis accepté)`
                : ` (annoncée ${formatEuros(ticket.priceEuros)})`}
            <InitialEstimate euros={ticket.estimateEuros} className="text-base" />
            {ticket.afterBonus ? (
              <>
                <span className="block text-base text-emerald-200">{ticket.afterBonus}</span>
                <BonusExplainer className="mt-1" />
              </>
            ) : null}
          </dd>
          <dt className="font-semibold text-slate-300">Statut</dt>
          <dd className="font-semibold text-sky-200" data-testid="statut">
            {REPAIR_STATUS_LABELS[ticket.status]}
          </dd>
        </dl>
        {ticket.warrantyUntil ? (
          <p className="rounded-lg border border-emerald-400/60 bg-emerald-950/70 px-4 py-2 text-emerald-50">
            Garantie jusqu'au {formatDay(ticket.warrantyUntil)} ({WARRANTY_MONTHS} mois à partir de la remise de
            l'appareil).
          </p>
        ) : null}
      </div>

      {quote ? (
        <section id="devis" aria-labelledby="devis-titre" className="flex scroll-mt-24 flex-col gap-3">
          <h3 id="devis-titre" className="text-xl font-semibold text-white">
            Devis
          </h3>
          <p className="whitespace-pre-line break-words text-slate-100">{quote.description}</p>
          <p className="text-lg font-semibold text-white">Montant : {formatEuros(quote.amountEuros)} TTC</p>
          {waiting && ticket.priceFromQuote && ticket.priceEuros !== null ? (
            // A new quote after an accepted one: its amount is the whole price, not an addition to it.
            <p className="text-slate-200">
              Si vous l'acceptez, ce montant devient le prix total de la réparation, à la place de{" "}
              {formatEuros(ticket.priceEuros)}.
            </p>
          ) : null}
          {waiting ? (
            // Keyed by the quote: a replaced quote (the action's conflict) asks again from the start.
            <QuoteAnswer
              key={`${quote.amountEuros}|${quote.description}|${asking ?? ""}`}
              code={ticket.code}
              contact={contact}
              amountEuros={quote.amountEuros}
              asking={asking}
              back={back}
              busy={busy}
            />
          ) : quote.decision ? (
            <p className="text-slate-200">
              Devis {quote.decision === "accepted" ? "accepté" : "refusé"}
              {quote.decidedAt ? ` le ${formatInstant(quote.decidedAt)}` : ""}.
            </p>
          ) : null}
        </section>
      ) : null}

      <RepairProgress ticket={ticket} />
    </Card>
  );
}
