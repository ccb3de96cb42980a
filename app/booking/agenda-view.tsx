/**
 * Issue 18 §1: the dashboard's "Rendez-vous" view. The day's or the week's
 * appointments (shop dates, Europe/Paris; issue 40: the « week » is today and
 * the 6 days after it, so the next bookings show on opening, a Sunday as any
 * other day, and « Semaine précédente » / « suivante » move by 7 days), each with the customer's
 * contact, what was booked and the actions confirm, move and cancel (the
 * server mails the customer at each). Live: re-read on every
 * `agenda:changed` pushed to technicians and after a reconnection, so a
 * booking made on the site appears without reloading. The settings
 * (`agenda-settings.tsx`) open below.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";
import { Button } from "#app/components/ui/button.tsx";
import { cancelAppointment, confirmAppointment, fetchAgenda } from "./agenda-client.ts";
import type { AgendaAppointment } from "./context.ts";
import { formatCalendarDate } from "./format.ts";
import { dateOfDay, dayNumber, shopDate } from "./slots.ts";
import { AppointmentCard } from "./appointment-card.tsx";
import { AgendaSettings } from "./agenda-settings.tsx";

export type Scope = "day" | "week";

/** Days the « Semaine » scope shows. */
export const AGENDA_WEEK_DAYS = 7;

/**
 * The shown range: [first, first + length) in day numbers. Issue 40: it starts on `anchor` itself (today when
 * the view opens), never on the Monday before it, which on a Sunday showed six days gone and hid tomorrow.
 */
export function rangeOf(anchor: string, scope: Scope): { first: number; length: number } {
  return { first: dayNumber(anchor), length: scope === "day" ? 1 : AGENDA_WEEK_DAYS };
}

export function AgendaView({ socket }: { socket: RealtimeSocket | null }) {
  const [scope, setScope] = useState<Scope>("week");
  const [anchor, setAnchor] = useState(() => shopDate(new Date()));
  const [appointments, setAppointments] = useState<AgendaAppointment[] | null>(null);
  // The read's failure and an action's refusal apart: the read that follows a refused « Confirmer » succeeds,
  // and must not wipe the refusal the technician has to see.
  const [error, setError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const { first, length } = rangeOf(anchor, scope);

  const latest = useRef(0);
  const load = useCallback(async () => {
    const request = ++latest.current;
    const result = await fetchAgenda(dateOfDay(first), dateOfDay(first + length));
    // Answers can arrive out of order (« Jour suivant » clicked twice quickly): only the last asked is shown.
    if (request !== latest.current) return;
    if (result.ok) {
      setAppointments(result.data.appointments);
      setError(null);
    } else setError(result.message);
  }, [first, length]);

  useEffect(() => {
    void load();
  }, [load]);
  // An action's answer reloads the days shown then, not those of the click's render (« Semaine suivante » meanwhile).
  const loadShown = useRef(load);
  loadShown.current = load;

  useEffect(() => {
    if (!socket) return;
    const reload = () => void load();
    socket.on("agenda:changed", reload);
    socket.on("connect", reload);
    return () => {
      socket.off("agenda:changed", reload);
      socket.off("connect", reload);
    };
  }, [socket, load]);

  const act = async (run: () => ReturnType<typeof confirmAppointment>) => {
    setRefusal(null);
    const result = await run();
    if (!result.ok) setRefusal(result.message);
    await loadShown.current();
    return result.ok;
  };

  const days = Array.from({ length }, (_, index) => dateOfDay(first + index));
  const today = shopDate(new Date());
  const shift = (direction: 1 | -1) => setAnchor((current) => dateOfDay(dayNumber(current) + direction * length));
  return (
    <section aria-labelledby="agenda-titre" className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 id="agenda-titre" className="text-2xl font-bold text-white">
          Rendez-vous
        </h2>
        <div className="flex flex-wrap gap-2" role="group" aria-label="Période affichée">
          <Button
            type="button"
            variant={scope === "day" ? "primary" : "secondary"}
            aria-pressed={scope === "day"}
            onClick={() => setScope("day")}
          >
            Jour
          </Button>
          <Button
            type="button"
            variant={scope === "week" ? "primary" : "secondary"}
            aria-pressed={scope === "week"}
            onClick={() => setScope("week")}
          >
            Semaine
          </Button>
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Button type="button" variant="secondary" onClick={() => shift(-1)}>
          {scope === "day" ? "Jour précédent" : "Semaine précédente"}
        </Button>
        <Button type="button" variant="secondary" onClick={() => setAnchor(shopDate(new Date()))}>
          Aujourd'hui
        </Button>
        <Button type="button" variant="secondary" onClick={() => shift(1)}>
          {scope === "day" ? "Jour suivant" : "Semaine suivante"}
        </Button>
        <p className="text-slate-200 first-letter:uppercase" aria-live="polite">
          {scope === "day"
            ? formatCalendarDate(days[0]!)
            : `Du ${formatCalendarDate(days[0]!)} au ${formatCalendarDate(days[days.length - 1]!)}`}
        </p>
      </div>
      {refusal || error ? (
        <p role="alert" className="text-base font-medium text-red-300">
          {[refusal, error].filter(Boolean).join(" ")}
        </p>
      ) : null}
      {appointments === null ? (
        <p className="text-slate-300">Chargement des rendez-vous…</p>
      ) : (
        days.map((date) => {
          const ofDay = appointments.filter((appointment) => shopDate(new Date(appointment.startsAt)) === date);
          return (
            <div key={date} className="flex flex-col gap-3">
              <h3 className="text-lg font-semibold text-white first-letter:uppercase">
                {date === today ? "Aujourd'hui, " : ""}
                {formatCalendarDate(date)}
                <span className="ml-2 text-base font-normal text-slate-300">
                  ({ofDay.filter((appointment) => appointment.status !== "cancelled").length} rendez-vous)
                </span>
              </h3>
              {ofDay.length === 0 ? (
                <p className="text-slate-400">Aucun rendez-vous.</p>
              ) : (
                <ul className="grid gap-3 lg:grid-cols-2">
                  {ofDay.map((appointment) => (
                    <AppointmentCard
                      key={appointment.id}
                      appointment={appointment}
                      onConfirm={() => act(() => confirmAppointment(appointment.id))}
                      onCancel={() => act(() => cancelAppointment(appointment.id))}
                      onChanged={() => void loadShown.current()}
                    />
                  ))}
                </ul>
              )}
            </div>
          );
        })
      )}
      <div>
        <Button
          type="button"
          variant="secondary"
          aria-expanded={settingsOpen}
          onClick={() => setSettingsOpen(!settingsOpen)}
        >
          Réglages de l'agenda
        </Button>
      </div>
      {settingsOpen ? <AgendaSettings /> : null}
    </section>
  );
}
