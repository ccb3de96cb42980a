/**
 * Issue 18 §1: the slot choice of the booking and manage pages, plain
 * server-rendered radio buttons (works without JavaScript): one group per
 * day of the shown week, links to the previous and next weeks, full slots
 * shown disabled. After a lost race, the next free slots come first.
 */
import { Link } from "react-router";
import type { DayView, SlotView } from "./context.ts";
import { formatCalendarDate, formatShortDay, formatTime } from "./format.ts";

const weekLink =
  "inline-flex min-h-11 items-center rounded-full border border-slate-600 px-4 text-slate-100 hover:border-sky-300 hover:text-sky-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300";

function SlotRadio({ slot, checked, withDay = false }: { slot: SlotView; checked: boolean; withDay?: boolean }) {
  const at = new Date(slot.start);
  const text = withDay ? `${formatShortDay(at)} ${formatTime(at)}` : slot.time;
  if (slot.free <= 0) {
    return (
      <li>
        <span className="slot-full">
          {text}
          <span className="sr-only"> : complet</span>
        </span>
      </li>
    );
  }
  return (
    <li>
      <label className="slot-option">
        <input type="radio" name="slot" value={slot.start} defaultChecked={checked} className="size-4 accent-sky-400" />
        {text}
      </label>
    </li>
  );
}

export type SlotPickerProps = {
  days: DayView[];
  /** The ISO start to pre-select (the one posted before, if still offered). */
  selected?: string;
  /** Free slots offered first after a lost race. */
  next?: SlotView[];
  /** Links to the previous/next week (absent at the ends of the bookable range). */
  previousWeek?: string;
  nextWeek?: string;
  error?: string;
  legend: string;
};

/** A `<fieldset>` of radio buttons named `slot` (ISO starts). */
export function SlotPicker({ days, selected, next, previousWeek, nextWeek, error, legend }: SlotPickerProps) {
  const open = days.filter((day) => day.slots.length > 0);
  return (
    <fieldset className="flex flex-col gap-5" aria-describedby={error ? "creneau-erreur" : undefined}>
      <legend className="mb-2 text-xl font-semibold text-white">{legend}</legend>
      {error ? (
        <p
          id="creneau-erreur"
          role="alert"
          className="rounded-xl border border-rose-400/70 bg-rose-950/70 px-4 py-3 text-rose-50"
        >
          {error}
        </p>
      ) : null}
      {next && next.length > 0 ? (
        <div>
          <h3 className="mb-2 font-semibold text-sky-200">Créneaux libres les plus proches</h3>
          <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3">
            {next.map((slot) => (
              <SlotRadio key={slot.start} slot={slot} checked={false} withDay />
            ))}
          </ul>
        </div>
      ) : null}
      <nav aria-label="Semaines" className="flex flex-wrap items-center justify-between gap-3">
        {previousWeek ? (
          <Link to={previousWeek} className={weekLink} preventScrollReset>
            Semaine précédente
          </Link>
        ) : (
          <span />
        )}
        {nextWeek ? (
          <Link to={nextWeek} className={weekLink} preventScrollReset>
            Semaine suivante
          </Link>
        ) : null}
      </nav>
      {open.length === 0 ? (
        <p className="text-slate-300">
          Aucun créneau libre cette semaine. Essayez la semaine suivante, ou appelez-nous.
        </p>
      ) : (
        open.map((day) => (
          <div key={day.date}>
            <h3 className="mb-2 font-semibold text-white first-letter:uppercase">{formatCalendarDate(day.date)}</h3>
            <ul className="grid grid-cols-3 gap-2 sm:grid-cols-5 lg:grid-cols-6">
              {day.slots.map((slot) => (
                <SlotRadio key={slot.start} slot={slot} checked={slot.start === selected} />
              ))}
            </ul>
          </div>
        ))
      )}
    </fieldset>
  );
}
