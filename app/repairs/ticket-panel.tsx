/**
 * Issue 18 §2, one ticket in the dashboard's "Réparations" view: its code
 * (to give the customer), device, contact, drop-off notes, status and steps;
 * a form to move it to one of the statuses the rules allow, with a note
 * mailed to the customer; and, while the repair has not reached "Prêt à
 * récupérer", a form to enter a quote. The server's French refusals are
 * shown as they come. Issue 40: the price is the accepted quote's once there
 * is one (the announced one then struck, « Estimation initiale »), and the
 * deposit's state and accessories are edited here while the ticket is open
 * (`drop-off-form.tsx`).
 */
import { useId, useState, type FormEvent } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { FormField, Input, Select, Textarea } from "#app/components/ui/field.tsx";
import { useMailStatus } from "#app/go-live/use-mail-status.ts";
import { REPAIR_LIMITS, type StaffRepairTicket } from "./protocol.ts";
import { changeRepairStatus, enterRepairQuote, recordRepairDecision, type RepairCallResult } from "./repairs-client.ts";
import {
  canEnterQuote,
  formatDay,
  formatEuros,
  formatInstant,
  isOpen,
  nextStatuses,
  REPAIR_STATUS_LABELS,
} from "./statuses.ts";
import { DropOffForm } from "./drop-off-form.tsx";
import { InitialEstimate, priceFromQuote, StepQuote } from "./price.tsx";

const errorText = "font-medium text-red-300";

/** The status note's label: mailed to the customer, or (issue 40) said plainly that mail is not configured. */
export function noteLabel(mailConfigured: boolean): string {
  return mailConfigured
    ? "Note pour le client (facultative, envoyée par e-mail)"
    : "Note pour le client (facultative ; l'envoi d'e-mails n'est pas configuré : appelez le client)";
}

/**
 * Above the quote form: what a new quote does to the one the ticket holds. A quote the customer accepted
 * stays the agreed price until they accept the new one (whose amount is then the repair's whole price).
 */
function QuoteReplaces({ ticket }: { ticket: StaffRepairTicket }) {
  const quote = ticket.quote;
  if (!quote || quote.decision === "refused") return null;
  const amount = formatEuros(quote.amountEuros);
  return (
    <p className="text-slate-300">
      {quote.decision === "accepted"
        ? `Le client a accepté un devis de ${amount}. Le montant d'un nouveau devis est le prix total de la réparation ; ${amount} reste le prix convenu tant que le client ne l'a pas accepté.`
        : `Un nouveau devis remplace celui de ${amount}, qui attend la réponse du client.`}
    </p>
  );
}

/** A form's text fields as strings (blank ones left out). */
function fieldsOf(form: HTMLFormElement): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of new FormData(form)) if (typeof value === "string" && value.trim()) fields[name] = value;
  return fields;
}

type Props = {
  ticket: StaffRepairTicket;
  /** The ticket as the server answered after a change. */
  onChanged: (ticket: StaffRepairTicket) => void;
};

/** The ticket's card; see the module comment. */
export function TicketPanel({ ticket, onChanged }: Props) {
  // Issue 40: without mail, the note is only written to a file on the server: the label must not promise a mail.
  const mailConfigured = useMailStatus()?.configured !== false;
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [statusError, setStatusError] = useState("");
  const [quoteError, setQuoteError] = useState<{ message: string; fields: Partial<Record<string, string>> }>({
    message: "",
    fields: {},
  });
  const [notice, setNotice] = useState("");
  const choices = nextStatuses(ticket.status);
  const quoteWaiting = ticket.status === "quote-pending" && ticket.quote !== null && ticket.quote.decision === null;

  async function send<T extends { ticket: StaffRepairTicket }>(
    request: Promise<RepairCallResult<T>>,
    form: HTMLFormElement | null,
    onError: (result: Extract<RepairCallResult<T>, { ok: false }>) => void,
  ) {
    setBusy(true);
    setNotice("");
    const result = await request;
    setBusy(false);
    if (!result.ok) return onError(result);
    form?.reset();
    onChanged(result.data.ticket);
    setNotice(
      `Statut : ${REPAIR_STATUS_LABELS[result.data.ticket.status]}. ${
        mailConfigured ? "Le client a reçu un e-mail." : "Aucun e-mail n'est parti : prévenez le client par téléphone."
      }`,
    );
  }

  function changeStatus(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setStatusError("");
    const form = event.currentTarget;
    const { status = "", note } = fieldsOf(form);
    void send(changeRepairStatus(ticket.id, { status, note }), form, (result) => setStatusError(result.message));
  }

  /** The customer answered by phone or at the counter: staff record it (they are named as who decided). */
  function recordDecision(decision: "accepted" | "refused") {
    setStatusError("");
    void send(recordRepairDecision(ticket.id, decision), null, (result) => setStatusError(result.message));
  }

  function enterQuote(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setQuoteError({ message: "", fields: {} });
    const form = event.currentTarget;
    const { description = "", amountEuros = "", note } = fieldsOf(form);
    void send(enterRepairQuote(ticket.id, { description, amountEuros, note }), form, (result) =>
      setQuoteError({ message: result.message, fields: result.fieldErrors }),
    );
  }

  return (
    <Card className="flex flex-col gap-5">
      <h3 className="text-xl font-semibold text-white">
        Réparation {ticket.code} · {REPAIR_STATUS_LABELS[ticket.status]}
      </h3>
      <dl className="grid gap-x-6 gap-y-1 sm:grid-cols-[max-content_1fr]">
        <dt className="font-semibold text-slate-300">Appareil</dt>
        <dd className="text-white">
          {ticket.modelName} · {ticket.repairLabel}
          {ticket.priceEuros !== null ? ` · ${formatEuros(ticket.priceEuros)}` : ""}
          {priceFromQuote(ticket) ? ", devis accepté" : ""}
          {ticket.afterBonus ? ` (${ticket.afterBonus})` : ""}
          <InitialEstimate euros={ticket.estimateEuros} />
        </dd>
        {ticket.catalogue ? (
          <>
            <dt className="font-semibold text-slate-300">Tarif du catalogue</dt>
            <dd className="text-white">
              {ticket.catalogue.model} · {ticket.catalogue.repair} · {ticket.catalogue.price}
            </dd>
          </>
        ) : null}
        <dt className="font-semibold text-slate-300">Client</dt>
        <dd className="break-words text-white">
          {ticket.customerName} · {ticket.email} · {ticket.phone}
        </dd>
        <dt className="font-semibold text-slate-300">État au dépôt</dt>
        <dd className="whitespace-pre-line break-words text-white">{ticket.conditionNotes ?? "—"}</dd>
        <dt className="font-semibold text-slate-300">Accessoires laissés</dt>
        <dd className="break-words text-white">{ticket.accessories ?? "—"}</dd>
        {ticket.quote ? (
          <>
            <dt className="font-semibold text-slate-300">Devis</dt>
            <dd className="whitespace-pre-line break-words text-white">
              {ticket.quote.description} · {formatEuros(ticket.quote.amountEuros)}
              {ticket.quote.decision
                ? ` · ${ticket.quote.decision === "accepted" ? "accepté" : "refusé"} par ${
                    ticket.quoteDecidedBy === "client" ? "le client" : (ticket.quoteDecidedBy ?? "—")
                  }${ticket.quote.decidedAt ? ` le ${formatInstant(ticket.quote.decidedAt)}` : ""}`
                : " · en attente du client"}
            </dd>
          </>
        ) : null}
        {ticket.warrantyUntil ? (
          <>
            <dt className="font-semibold text-slate-300">Garantie</dt>
            <dd className="text-white">jusqu'au {formatDay(ticket.warrantyUntil)}</dd>
          </>
        ) : null}
      </dl>
      {isOpen(ticket.status) ? <DropOffForm ticket={ticket} onSaved={onChanged} /> : null}
      <ol aria-label="Étapes de la réparation" className="flex flex-col gap-2 border-l-2 border-sky-400/60 pl-4">
        {ticket.events.map((step, index) => (
          <li key={`${step.at}-${index}`} className="text-slate-100">
            <span className="font-semibold">{REPAIR_STATUS_LABELS[step.status]}</span>
            <span className="text-slate-300">
              {" "}
              · {formatInstant(step.at)}
              {step.authorName ? ` · ${step.authorName}` : step.status !== "received" ? " · client" : ""}
            </span>
            {step.note ? <span className="block whitespace-pre-line break-words">{step.note}</span> : null}
            <StepQuote quote={step.quote} className="block text-slate-300" />
          </li>
        ))}
      </ol>
      <p role="status" className="text-emerald-200">
        {notice}
      </p>

      {quoteWaiting ? (
        <div role="group" aria-label="Réponse du client donnée à l'atelier" className="flex flex-wrap gap-2">
          <Button type="button" variant="secondary" disabled={busy} onClick={() => recordDecision("accepted")}>
            Devis accepté par téléphone
          </Button>
          <Button type="button" variant="secondary" disabled={busy} onClick={() => recordDecision("refused")}>
            Devis refusé par téléphone
          </Button>
        </div>
      ) : null}

      {choices.length > 0 ? (
        <form onSubmit={changeStatus} className="flex flex-col gap-3" aria-label="Changer le statut">
          <FormField id={`${id}-statut`} label="Nouveau statut" required>
            {(control) => (
              <Select {...control} name="status" defaultValue={choices[0]}>
                {choices.map((status) => (
                  <option key={status} value={status}>
                    {REPAIR_STATUS_LABELS[status]}
                  </option>
                ))}
              </Select>
            )}
          </FormField>
          <FormField id={`${id}-note`} label={noteLabel(mailConfigured)}>
            {(control) => <Textarea {...control} name="note" rows={2} maxLength={REPAIR_LIMITS.note} />}
          </FormField>
          <div>
            <Button type="submit" disabled={busy}>
              Changer le statut
            </Button>
          </div>
          <p role="alert" className={errorText}>
            {statusError}
          </p>
        </form>
      ) : null}

      {canEnterQuote(ticket.status) ? (
        <form onSubmit={enterQuote} className="flex flex-col gap-3" aria-label="Saisir un devis">
          <QuoteReplaces ticket={ticket} />
          <FormField id={`${id}-devis`} label="Description du devis" required error={quoteError.fields.description}>
            {(control) => (
              <Textarea {...control} name="description" rows={2} maxLength={REPAIR_LIMITS.quoteDescription} />
            )}
          </FormField>
          <FormField
            id={`${id}-montant`}
            label="Montant du devis (€, TTC)"
            required
            error={quoteError.fields.amountEuros}
          >
            {(control) => <Input {...control} name="amountEuros" inputMode="numeric" pattern="[0-9]*" maxLength={6} />}
          </FormField>
          <div>
            <Button type="submit" variant="secondary" disabled={busy}>
              Envoyer le devis au client
            </Button>
          </div>
          <p role="alert" className={errorText}>
            {quoteError.message}
          </p>
        </form>
      ) : null}
    </Card>
  );
}
