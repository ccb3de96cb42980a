/**
 * The technicians' "Réparations" view (issue 18 §2), in the dashboard: the
 * open repair tickets, newest change first ("Afficher aussi les réparations
 * terminées" adds "Rendu" and "Annulé"), a walk-in form ("Nouvelle
 * réparation") and the chosen ticket's panel (`ticket-panel.tsx`: status
 * changes with a note, quotes). Opening a ticket from an appointment is
 * `NewTicketButton` (`new-ticket-button.tsx`), for the agenda; its link
 * (issue 40) opens the view on the new ticket (`requested`).
 */
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { FormField, Input, RequiredFieldsNote, Textarea } from "#app/components/ui/field.tsx";
import { REPAIR_LIMITS, type RepairTicketSummary, type StaffRepairTicket } from "./protocol.ts";
import { getRepair, listRepairs, openRepair } from "./repairs-client.ts";
import { formatInstant, REPAIR_STATUS_LABELS } from "./statuses.ts";
import { TicketPanel } from "./ticket-panel.tsx";

type Field = {
  name: string;
  label: string;
  max: number;
  required?: boolean;
  type?: "text" | "email" | "tel";
  rows?: number;
};

/** The walk-in form's fields, in the order a technician asks them at the counter. */
const WALK_IN_FIELDS: Field[] = [
  { name: "modelName", label: "Modèle de l'appareil", max: REPAIR_LIMITS.modelName, required: true },
  { name: "repairLabel", label: "Réparation demandée", max: REPAIR_LIMITS.repairLabel, required: true },
  { name: "priceEuros", label: "Prix annoncé (€, facultatif)", max: 6 },
  { name: "customerName", label: "Nom du client", max: REPAIR_LIMITS.customerName, required: true },
  { name: "email", label: "E-mail du client", max: REPAIR_LIMITS.email, required: true, type: "email" },
  { name: "phone", label: "Téléphone du client", max: REPAIR_LIMITS.phone, required: true, type: "tel" },
  { name: "conditionNotes", label: "État de l'appareil au dépôt", max: REPAIR_LIMITS.conditionNotes, rows: 2 },
  { name: "accessories", label: "Accessoires laissés", max: REPAIR_LIMITS.accessories },
];

type Props = {
  /**
   * Issue 40: a ticket to show, by its tracking code (the agenda's link, `?reparation=`); a new object asks
   * again, even for the same code.
   */
  requested?: { code: string } | null;
};

/** The dashboard's "Réparations" view; see the module comment. */
export function RepairsView({ requested = null }: Props) {
  const id = useId();
  const [all, setAll] = useState(false);
  const [tickets, setTickets] = useState<RepairTicketSummary[] | null>(null);
  const [selected, setSelected] = useState<StaffRepairTicket | null>(null);
  const [error, setError] = useState("");
  const [creating, setCreating] = useState(false);
  const [busy, setBusy] = useState(false);
  const [formError, setFormError] = useState<{ message: string; fields: Partial<Record<string, string>> }>({
    message: "",
    fields: {},
  });
  const panel = useRef<HTMLDivElement>(null);
  // Only the latest read may land: a slow answer for the former filter must not replace the new one.
  const latest = useRef(0);
  // Likewise the panel shows the ticket last asked for, and an action's answer only while its ticket is shown.
  const asked = useRef(0);
  const shownId = useRef<string | null>(null);
  shownId.current = selected?.id ?? null;
  // The filter as it is now, for reads made once an action is answered.
  const withClosedNow = useRef(all);
  withClosedNow.current = all;

  const load = useCallback(async (withClosed: boolean) => {
    const call = ++latest.current;
    setError("");
    const result = await listRepairs(withClosed);
    if (call !== latest.current) return;
    if (result.ok) setTickets(result.data.tickets);
    else setError(result.message);
  }, []);

  useEffect(() => {
    void load(all);
  }, [all, load]);

  // Counts the tickets shown: the focus moves to the panel once each is rendered (an effect runs after the
  // commit; a frame callback could run before the panel of a first ticket exists, and the focus stay behind).
  const [shown, setShown] = useState(0);
  useEffect(() => {
    if (shown > 0) panel.current?.focus();
  }, [shown]);

  /** Shows `ticket` in the panel and moves the focus there. */
  const show = useCallback((ticket: StaffRepairTicket) => {
    setSelected(ticket);
    setShown((count) => count + 1);
  }, []);

  // Issue 40: the ticket a link named is read by its code and opened in the panel.
  useEffect(() => {
    if (!requested) return;
    let current = true;
    const call = ++asked.current;
    void getRepair(requested.code).then((result) => {
      if (!current || call !== asked.current) return;
      if (result.ok) show(result.data.ticket);
      else setError(result.message);
    });
    return () => {
      current = false;
    };
  }, [requested, show]);

  async function open(ticketId: string) {
    setError("");
    const call = ++asked.current;
    const result = await getRepair(ticketId);
    if (call !== asked.current) return;
    if (result.ok) show(result.data.ticket);
    else setError(result.message);
  }

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const body: Record<string, string> = {};
    for (const [name, value] of new FormData(form)) if (typeof value === "string") body[name] = value;
    setBusy(true);
    setFormError({ message: "", fields: {} });
    const result = await openRepair(body);
    setBusy(false);
    if (!result.ok) return setFormError({ message: result.message, fields: result.fieldErrors });
    form.reset();
    setCreating(false);
    asked.current++;
    show(result.data.ticket);
    void load(withClosedNow.current);
  }

  return (
    <section aria-labelledby={`${id}-titre`} className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={`${id}-titre`} className="text-2xl font-bold text-white">
          Réparations
        </h2>
        <div className="flex flex-wrap gap-2">
          <Button type="button" aria-expanded={creating} onClick={() => setCreating(!creating)}>
            Nouvelle réparation
          </Button>
          <Button type="button" variant="secondary" onClick={() => void load(all)}>
            Actualiser
          </Button>
        </div>
      </div>

      {creating ? (
        <Card>
          <form onSubmit={create} aria-label="Nouvelle réparation" className="grid gap-4 sm:grid-cols-2" noValidate>
            <RequiredFieldsNote className="sm:col-span-2" />
            {WALK_IN_FIELDS.map((field) => (
              <FormField
                key={field.name}
                id={`${id}-${field.name}`}
                label={field.label}
                required={field.required}
                error={formError.fields[field.name]}
                className={field.rows ? "sm:col-span-2" : undefined}
              >
                {(control) =>
                  field.rows ? (
                    <Textarea {...control} name={field.name} rows={field.rows} maxLength={field.max} />
                  ) : (
                    <Input {...control} name={field.name} type={field.type ?? "text"} maxLength={field.max} />
                  )
                }
              </FormField>
            ))}
            <div className="sm:col-span-2">
              <Button type="submit" disabled={busy}>
                Ouvrir la réparation
              </Button>
              <p role="alert" className="mt-2 font-medium text-red-300">
                {formError.message}
              </p>
            </div>
          </form>
        </Card>
      ) : null}

      <label className="flex items-center gap-2 text-slate-200">
        <input type="checkbox" checked={all} onChange={(event) => setAll(event.target.checked)} className="size-5" />
        Afficher aussi les réparations terminées (rendues ou annulées)
      </label>
      <p role="alert" className="font-medium text-red-300">
        {error}
      </p>
      {tickets === null ? (
        error ? null : (
          <p className="text-slate-300">Chargement…</p>
        )
      ) : tickets.length === 0 ? (
        <p className="text-slate-300">Aucune réparation en cours.</p>
      ) : (
        <ul aria-label="Liste des réparations" className="flex flex-col gap-2">
          {tickets.map((ticket) => (
            <li key={ticket.id}>
              <button
                type="button"
                onClick={() => void open(ticket.id)}
                aria-current={selected?.id === ticket.id ? "true" : undefined}
                className="w-full rounded-lg bg-slate-800 px-4 py-3 text-left text-slate-50 hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300 aria-[current=true]:ring-2 aria-[current=true]:ring-sky-300"
              >
                <span className="font-semibold">{ticket.code}</span> · {ticket.modelName} · {ticket.repairLabel} ·{" "}
                {ticket.customerName} · <span className="font-semibold">{REPAIR_STATUS_LABELS[ticket.status]}</span>
                <span className="block text-sm text-slate-300">Mise à jour le {formatInstant(ticket.updatedAt)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}

      {selected ? (
        <div ref={panel} tabIndex={-1} className="focus-visible:outline-none">
          <TicketPanel
            key={selected.id}
            ticket={selected}
            onChanged={(ticket) => {
              // Answered after another ticket was opened: the list says it, the panel stays on the other one.
              if (ticket.id === shownId.current) setSelected(ticket);
              void load(withClosedNow.current);
            }}
          />
        </div>
      ) : null}
    </section>
  );
}
