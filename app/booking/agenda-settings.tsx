/**
 * Issue 18 §1 and §3: the agenda's settings in the dashboard: slot length,
 * places per slot, lead time, how far ahead, the weekly opening hours (a day
 * without hours is closed), closed dates (holidays, leave), whether the
 * prices after the bonus réparation are shown, and the limits per customer
 * (issue 28 §5: upcoming appointments, booking mails a day). Stored in the database by
 * `PUT /api/agenda/settings`, validated there; no code change for a closed
 * Saturday.
 */
import { useEffect, useId, useState, type ReactNode } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { BONUS_REPARATION_CHECKED_ON } from "#app/catalogue/bonus-reparation.ts";
import { fetchSettings, saveSettings } from "./agenda-client.ts";
import type { ShopSettingsView } from "./agenda-protocol.ts";
import { formatCalendarDate } from "./format.ts";
import { WEEKDAY_NAMES, type BookingSettings } from "./settings.ts";

const input = "min-h-11 rounded-lg border border-slate-500 bg-slate-950 px-3 text-white";

function NumberField(props: {
  label: string;
  value: number;
  unit: string;
  error?: string;
  onChange: (value: number) => void;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-slate-100">
        {props.label} ({props.unit})
      </label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        className={input}
        value={Number.isFinite(props.value) ? props.value : ""}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-erreur` : undefined}
        onChange={(event) => props.onChange(event.target.valueAsNumber)}
      />
      {props.error ? (
        <p id={`${id}-erreur`} className="font-medium text-red-300">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

function Group({ legend, children, error }: { legend: string; children: ReactNode; error?: string }) {
  return (
    <fieldset className="flex flex-col gap-3 rounded-2xl border border-slate-700/80 p-4">
      <legend className="px-1 text-lg font-semibold text-white">{legend}</legend>
      {error ? <p className="font-medium text-red-300">{error}</p> : null}
      {children}
    </fieldset>
  );
}

export function AgendaSettings() {
  const [settings, setSettings] = useState<ShopSettingsView | null>(null);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [status, setStatus] = useState<string | null>(null);
  const [newDate, setNewDate] = useState("");
  const [newLabel, setNewLabel] = useState("");
  const ids = useId();

  useEffect(() => {
    void fetchSettings().then((result) => (result.ok ? setSettings(result.data.settings) : setStatus(result.message)));
  }, []);

  if (!settings) return <p className="text-slate-300">{status ?? "Chargement des réglages…"}</p>;
  const booking = settings.booking;
  const update = (change: Partial<BookingSettings>) => setSettings({ ...settings, booking: { ...booking, ...change } });
  const setRange = (index: number, key: "opens" | "closes", value: string) =>
    update({ hours: booking.hours.map((range, at) => (at === index ? { ...range, [key]: value } : range)) });

  return (
    <form
      className="flex flex-col gap-5"
      aria-labelledby={`${ids}-titre`}
      onSubmit={(event) => {
        event.preventDefault();
        setStatus("Enregistrement…");
        void saveSettings(settings).then((result) => {
          if (result.ok) {
            setSettings(result.data.settings);
            setErrors({});
            setStatus("Réglages enregistrés.");
          } else {
            setErrors(result.errors ?? {});
            setStatus(result.message);
          }
        });
      }}
    >
      <h3 id={`${ids}-titre`} className="text-xl font-semibold text-white">
        Réglages de l'agenda
      </h3>
      <Group legend="Créneaux">
        <div className="grid gap-4 sm:grid-cols-2">
          <NumberField
            label="Durée d'un créneau"
            unit="minutes"
            value={booking.slotMinutes}
            error={errors.slotMinutes}
            onChange={(slotMinutes) => update({ slotMinutes })}
          />
          <NumberField
            label="Places par créneau"
            unit="rendez-vous"
            value={booking.capacity}
            error={errors.capacity}
            onChange={(capacity) => update({ capacity })}
          />
          <NumberField
            label="Délai minimum avant un rendez-vous"
            unit="heures"
            value={booking.leadHours}
            error={errors.leadHours}
            onChange={(leadHours) => update({ leadHours })}
          />
          <NumberField
            label="Réservation possible jusqu'à"
            unit="jours à l'avance"
            value={booking.horizonDays}
            error={errors.horizonDays}
            onChange={(horizonDays) => update({ horizonDays })}
          />
        </div>
      </Group>
      <Group legend="Limites par client">
        <p className="text-slate-300">
          Au-delà, le site demande d'appeler l'atelier. Protège l'agenda et les adresses e-mail des abus.
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          <NumberField
            label="Rendez-vous à venir par adresse e-mail ou téléphone"
            unit="au plus"
            value={booking.maxUpcomingPerContact}
            error={errors.maxUpcomingPerContact}
            onChange={(maxUpcomingPerContact) => update({ maxUpcomingPerContact })}
          />
          <NumberField
            label="Rendez-vous demandés par adresse e-mail en 24 heures"
            unit="e-mails de confirmation"
            value={booking.maxBookingMailsPerDay}
            error={errors.maxBookingMailsPerDay}
            onChange={(maxBookingMailsPerDay) => update({ maxBookingMailsPerDay })}
          />
        </div>
      </Group>
      <Group legend="Horaires d'ouverture" error={errors.hours}>
        {WEEKDAY_NAMES.map((name, index) => {
          const day = index + 1;
          const ranges = booking.hours.map((range, at) => ({ range, at })).filter(({ range }) => range.day === day);
          return (
            <div key={name} className="flex flex-wrap items-center gap-3">
              <span className="w-24 text-slate-100 first-letter:uppercase">{name}</span>
              {ranges.length === 0 ? <span className="text-slate-400">Fermé</span> : null}
              {ranges.map(({ range, at }) => (
                <span key={at} className="flex items-center gap-2">
                  <input
                    type="time"
                    aria-label={`${name} : ouverture`}
                    className={input}
                    value={range.opens}
                    onChange={(event) => setRange(at, "opens", event.target.value)}
                  />
                  <span aria-hidden="true">–</span>
                  <input
                    type="time"
                    aria-label={`${name} : fermeture`}
                    className={input}
                    value={range.closes}
                    onChange={(event) => setRange(at, "closes", event.target.value)}
                  />
                  <Button
                    type="button"
                    variant="secondary"
                    onClick={() => update({ hours: booking.hours.filter((_, other) => other !== at) })}
                  >
                    Retirer<span className="sr-only"> la plage du {name}</span>
                  </Button>
                </span>
              ))}
              <Button
                type="button"
                variant="secondary"
                onClick={() => update({ hours: [...booking.hours, { day, opens: "09:00", closes: "12:00" }] })}
              >
                Ajouter une plage<span className="sr-only"> le {name}</span>
              </Button>
            </div>
          );
        })}
      </Group>
      <Group legend="Jours de fermeture" error={errors.closedDates}>
        {booking.closedDates.length === 0 ? <p className="text-slate-400">Aucun.</p> : null}
        <ul className="flex flex-col gap-2">
          {booking.closedDates.map((closed) => (
            <li key={closed.date} className="flex flex-wrap items-center gap-3 text-slate-100">
              <span className="first-letter:uppercase">{formatCalendarDate(closed.date)}</span>
              {closed.label ? <span className="text-slate-300">({closed.label})</span> : null}
              <Button
                type="button"
                variant="secondary"
                onClick={() =>
                  update({ closedDates: booking.closedDates.filter((other) => other.date !== closed.date) })
                }
              >
                Retirer<span className="sr-only"> le {formatCalendarDate(closed.date)}</span>
              </Button>
            </li>
          ))}
        </ul>
        <div className="flex flex-wrap items-end gap-3">
          <span className="flex flex-col gap-1">
            <label htmlFor={`${ids}-date`} className="text-slate-100">
              Date
            </label>
            <input
              id={`${ids}-date`}
              type="date"
              className={input}
              value={newDate}
              onChange={(event) => setNewDate(event.target.value)}
            />
          </span>
          <span className="flex flex-col gap-1">
            <label htmlFor={`${ids}-motif`} className="text-slate-100">
              Motif (facultatif)
            </label>
            <input
              id={`${ids}-motif`}
              type="text"
              maxLength={80}
              className={input}
              value={newLabel}
              onChange={(event) => setNewLabel(event.target.value)}
            />
          </span>
          <Button
            type="button"
            variant="secondary"
            disabled={newDate === ""}
            onClick={() => {
              update({
                closedDates: [
                  ...booking.closedDates.filter((other) => other.date !== newDate),
                  { date: newDate, label: newLabel },
                ].toSorted((a, b) => a.date.localeCompare(b.date)),
              });
              setNewDate("");
              setNewLabel("");
            }}
          >
            Ajouter la date
          </Button>
        </div>
      </Group>
      <Group legend="Bonus réparation" error={errors.bonusReparation}>
        <label className="flex items-start gap-3 text-slate-100">
          <input
            type="checkbox"
            className="mt-1 size-5 accent-sky-400"
            checked={settings.bonusReparation}
            onChange={(event) => setSettings({ ...settings, bonusReparation: event.target.checked })}
          />
          <span>
            Afficher « X € après bonus réparation » à côté des prix éligibles, dans la réservation et sur les tickets.
            Seulement si l'atelier est labellisé QualiRépar ; montants relevés le{" "}
            {formatCalendarDate(BONUS_REPARATION_CHECKED_ON)}, à vérifier auprès des éco-organismes.
          </span>
        </label>
      </Group>
      <div className="flex flex-wrap items-center gap-4">
        <Button type="submit">Enregistrer les réglages</Button>
        <p role="status" className="text-slate-200">
          {status}
        </p>
      </div>
    </form>
  );
}
