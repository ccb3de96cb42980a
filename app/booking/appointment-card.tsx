/**
 * Issue 18 §1: one appointment in the staff agenda: time, status, the
 * customer's contact, what was booked, the note; and the actions: confirm a
 * requested one, move it to a free slot of the next two weeks, cancel it
 * (asked twice). Each change mails the customer (server side); issue 40: when mail does not leave the
 * server, the cancel question says the customer will not be told, instead of « prévenu par e-mail ».
 */
import { useEffect, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { formatPrice } from "#app/catalogue/format.ts";
import { fetchSlots, moveAppointment } from "./agenda-client.ts";
import type { AgendaAppointment, DayView } from "./context.ts";
import { formatShortDay, formatTime } from "./format.ts";
import { APPOINTMENT_STATUS_LABELS } from "./schemas.ts";
import { shopDate } from "./slots.ts";
import { NewTicketButton } from "#app/repairs/new-ticket-button.tsx";
import { useMailStatus } from "#app/go-live/use-mail-status.ts";

const STATUS_CLASS = {
  requested: "border-amber-300/60 text-amber-100",
  confirmed: "border-emerald-300/60 text-emerald-100",
  cancelled: "border-slate-500 text-slate-300",
} as const;

const link = "text-sky-300 underline underline-offset-4 hover:text-sky-200";

type Props = {
  appointment: AgendaAppointment;
  onConfirm: () => Promise<boolean>;
  onCancel: () => Promise<boolean>;
  /** Reads the agenda again after a change made from the card: moved, or a repair opened from it. */
  onChanged: () => void;
};

export function AppointmentCard({ appointment, onConfirm, onCancel, onChanged }: Props) {
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const [moving, setMoving] = useState(false);
  const mailConfigured = useMailStatus()?.configured !== false;
  const start = new Date(appointment.startsAt);
  const active = appointment.status !== "cancelled" && start.getTime() > Date.now();
  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
      setAsking(false);
    }
  };
  return (
    <li
      className="flex flex-col gap-3 rounded-2xl border border-slate-700/80 bg-slate-900/80 p-4"
      data-testid="rendez-vous"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="text-lg font-semibold text-white">
          {formatTime(start)} – {formatTime(new Date(appointment.endsAt))}
        </p>
        <span className={`rounded-full border px-3 py-0.5 text-sm ${STATUS_CLASS[appointment.status]}`}>
          {APPOINTMENT_STATUS_LABELS[appointment.status]}
        </span>
      </div>
      <p className="text-white">
        {appointment.repairLabel}
        {appointment.modelName ? ` – ${appointment.modelName}` : ""}
        {appointment.priceEuros !== null
          ? ` (${formatPrice(appointment.priceEuros)}${appointment.priceEstimate ? ", estimé" : ""})`
          : ""}
      </p>
      <p className="text-slate-200">
        {appointment.customerName} ·{" "}
        <a className={link} href={`tel:${appointment.phone.replace(/[^\d+]/g, "")}`}>
          {appointment.phone}
        </a>{" "}
        ·{" "}
        <a className={`${link} break-all`} href={`mailto:${appointment.email}`}>
          {appointment.email}
        </a>
      </p>
      {appointment.note ? <p className="whitespace-pre-line text-slate-300">« {appointment.note} »</p> : null}
      {active ? (
        <div className="flex flex-wrap gap-2">
          {appointment.status === "requested" ? (
            <Button type="button" disabled={busy} onClick={() => void run(onConfirm)}>
              Confirmer
            </Button>
          ) : null}
          <Button
            type="button"
            variant="secondary"
            disabled={busy}
            aria-expanded={moving}
            onClick={() => setMoving(!moving)}
          >
            Déplacer
          </Button>
          {asking ? (
            <>
              <Button type="button" disabled={busy} onClick={() => void run(onCancel)}>
                Oui, annuler
              </Button>
              <Button type="button" variant="secondary" disabled={busy} onClick={() => setAsking(false)}>
                Non
              </Button>
            </>
          ) : (
            <Button type="button" variant="secondary" disabled={busy} onClick={() => setAsking(true)}>
              Annuler
            </Button>
          )}
        </div>
      ) : null}
      {asking ? (
        <p role="status" className="text-amber-100">
          Annuler ce rendez-vous ?{" "}
          {mailConfigured
            ? "Le client est prévenu par e-mail."
            : "L'envoi d'e-mails n'est pas configuré : le client ne sera pas prévenu, appelez-le."}
        </p>
      ) : null}
      {appointment.status !== "cancelled" || appointment.repairCode ? (
        <NewTicketButton appointmentId={appointment.id} openedCode={appointment.repairCode} onOpened={onChanged} />
      ) : null}
      {moving && active ? (
        <MoveForm
          appointment={appointment}
          onDone={() => {
            setMoving(false);
            onChanged();
          }}
        />
      ) : null}
    </li>
  );
}

/** Days of free slots offered to move an appointment. */
const MOVE_DAYS = 14;

function MoveForm({ appointment, onDone }: { appointment: AgendaAppointment; onDone: () => void }) {
  const [days, setDays] = useState<DayView[] | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void fetchSlots(shopDate(new Date()), MOVE_DAYS).then((result) => {
      if (!current) return;
      if (result.ok) setDays(result.data.days);
      else setMessage(result.message);
    });
    return () => {
      current = false;
    };
  }, []);
  const selectId = `deplacer-${appointment.id}`;
  return (
    <form
      className="flex flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        const start = new FormData(event.currentTarget).get("start");
        if (typeof start !== "string" || start === "") return setMessage("Choisissez un créneau.");
        void moveAppointment(appointment.id, start).then((result) =>
          result.ok ? onDone() : setMessage(result.message),
        );
      }}
    >
      <label htmlFor={selectId} className="text-slate-100">
        Nouveau créneau
      </label>
      <select
        id={selectId}
        name="start"
        className="min-h-11 rounded-lg border border-slate-500 bg-slate-950 px-3 text-white"
      >
        <option value="">{days ? "Choisir un créneau libre" : "Chargement…"}</option>
        {(days ?? []).map((day) =>
          day.slots.length === 0 ? null : (
            <optgroup key={day.date} label={formatShortDay(new Date(day.slots[0]!.start))}>
              {day.slots
                .filter((slot) => slot.free > 0 && slot.start !== appointment.startsAt)
                .map((slot) => (
                  <option key={slot.start} value={slot.start}>
                    {formatShortDay(new Date(slot.start))} {slot.time}
                  </option>
                ))}
            </optgroup>
          ),
        )}
      </select>
      {message ? (
        <p role="alert" className="font-medium text-red-300">
          {message}
        </p>
      ) : null}
      <Button type="submit" className="w-fit">
        Déplacer ici
      </Button>
    </form>
  );
}
