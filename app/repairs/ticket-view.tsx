/**
 * Issue 18 §2: a repair ticket as the customer reads it on `/suivi`: model,
 * repair, current status, the steps with their date and time (shop's time
 * zone, the same on the server and in the browser) and notes, the quote with
 * « Accepter le devis » / « Refuser le devis » while it waits (a plain form
 * POST carrying the code and contact again: the action checks them anew),
 * and "Garantie jusqu'au …" once "Rendu".
 */
import { Form } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import type { PublicRepairTicket } from "./protocol.ts";
import { formatDay, formatEuros, formatInstant, REPAIR_STATUS_LABELS, WARRANTY_MONTHS } from "./statuses.ts";

type Props = {
  ticket: PublicRepairTicket;
  /** What the customer typed, sent again with a quote answer. */
  contact: string;
  /** A quote answer is being sent (buttons disabled). */
  busy?: boolean;
};

/** The ticket's card; see the module comment. */
export function TicketView({ ticket, contact, busy = false }: Props) {
  const { quote } = ticket;
  const waiting = ticket.status === "quote-pending" && quote !== null && quote.decision === null;
  return (
    <Card className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        <h2 id="reparation-titre" className="text-2xl font-bold text-white">
          Réparation {ticket.code}
        </h2>
        <dl className="grid gap-x-6 gap-y-1 text-lg sm:grid-cols-[max-content_1fr]">
          <dt className="font-semibold text-slate-300">Appareil</dt>
          <dd className="text-white">{ticket.modelName}</dd>
          <dt className="font-semibold text-slate-300">Réparation</dt>
          <dd className="text-white">
            {ticket.repairLabel}
            {ticket.priceEuros !== null ? ` (annoncée ${formatEuros(ticket.priceEuros)})` : null}
            {ticket.afterBonus ? <span className="block text-base text-emerald-200">{ticket.afterBonus}</span> : null}
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
        <section aria-labelledby="devis-titre" className="flex flex-col gap-3">
          <h3 id="devis-titre" className="text-xl font-semibold text-white">
            Devis
          </h3>
          <p className="whitespace-pre-line break-words text-slate-100">{quote.description}</p>
          <p className="text-lg font-semibold text-white">Montant : {formatEuros(quote.amountEuros)} TTC</p>
          {waiting ? (
            <Form method="post" className="flex flex-wrap gap-3">
              <input type="hidden" name="code" value={ticket.code} />
              <input type="hidden" name="contact" value={contact} />
              <Button type="submit" name="decision" value="accepted" disabled={busy}>
                Accepter le devis
              </Button>
              <Button type="submit" name="decision" value="refused" variant="secondary" disabled={busy}>
                Refuser le devis
              </Button>
            </Form>
          ) : quote.decision ? (
            <p className="text-slate-200">
              Devis {quote.decision === "accepted" ? "accepté" : "refusé"}
              {quote.decidedAt ? ` le ${formatInstant(quote.decidedAt)}` : ""}.
            </p>
          ) : null}
        </section>
      ) : null}

      <section aria-labelledby="etapes-titre" className="flex flex-col gap-3">
        <h3 id="etapes-titre" className="text-xl font-semibold text-white">
          Étapes
        </h3>
        <ol className="flex flex-col gap-3 border-l-2 border-sky-400/60 pl-4">
          {ticket.events.map((event, index) => (
            <li key={`${event.at}-${index}`} className="flex flex-col gap-1">
              <span className="font-semibold text-white">{REPAIR_STATUS_LABELS[event.status]}</span>
              <time dateTime={event.at} className="text-sm text-slate-300">
                {formatInstant(event.at)}
              </time>
              {event.note ? <p className="whitespace-pre-line break-words text-slate-100">{event.note}</p> : null}
            </li>
          ))}
        </ol>
      </section>
    </Card>
  );
}
