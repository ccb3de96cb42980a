/**
 * Issue 18 §1: the slot choice of the booking and manage pages, plain server-rendered radio buttons
 * (works without JavaScript): links to the previous and next weeks, full slots shown struck through.
 * After a lost race, the next free slots come first.
 *
 * Issue 30: the week's days first, then the times of one day (`SlotDays`), instead of every slot of
 * the week in one list; the manage page's own slot reads « votre créneau actuel » (`current`), and the
 * chosen slot is repeated with its length (`ChosenSlot`) at the end, right above the form's button,
 * unless the form shows it beside its own button (`repeatChoice={false}`, the booking form).
 */
import { useId } from "react";
import { Link } from "react-router";
import { ChosenSlot } from "./chosen-slot.tsx";
import type { DayView, SlotView } from "./context.ts";
import { formatDay, formatShortDay, formatTime } from "./format.ts";
import { offeredStart, SLOT_FIELD, slotMinutesOf } from "./slot-choice.ts";
import { SlotDays } from "./slot-days.tsx";

const weekLink =
  "inline-flex min-h-11 items-center rounded-full border border-slate-600 px-4 text-slate-100 hover:border-sky-300 hover:text-sky-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300";

/** A free slot of another day (the list after a lost race): its day in short, the full date spoken. */
function NextSlot({ slot }: { slot: SlotView }) {
  const at = new Date(slot.start);
  return (
    <li>
      <label className="slot-option">
        <input type="radio" name={SLOT_FIELD} value={slot.start} className="size-4 accent-sky-400" />
        <span aria-hidden="true">
          {formatShortDay(at)} {formatTime(at)}
        </span>
        <span className="sr-only">
          {formatDay(at)} à {formatTime(at)}
        </span>
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
  /**
   * Issue 30: the appointment's own ISO start on the manage page (`appointment.startsAt`): that slot
   * reads « votre créneau actuel » instead of a struck-through « complet », and is not offered.
   */
  current?: string;
  /** Issue 30: repeat the chosen slot at the picker's end (default); false when the form does it itself. */
  repeatChoice?: boolean;
  /** Length of a slot, minutes; default: read from the week (`slotMinutesOf`). */
  slotMinutes?: number;
};

/**
 * A `<fieldset>` whose radio buttons named `slot` carry ISO starts: the lost race's next free slots,
 * the week links, the week's days (`jour` radios) and the chosen day's times; then the chosen slot in
 * words. Days without any slot (closed) are left out.
 */
export function SlotPicker({
  days,
  selected,
  next,
  previousWeek,
  nextWeek,
  error,
  legend,
  current,
  repeatChoice = true,
  slotMinutes,
}: SlotPickerProps) {
  const choiceId = useId();
  const open = days.filter((day) => day.slots.length > 0);
  const checked = offeredStart(selected, open, current);
  return (
    <fieldset className="flex min-w-0 flex-col gap-5" aria-describedby={error ? "creneau-erreur" : undefined}>
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
              <NextSlot key={slot.start} slot={slot} />
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
        <SlotDays days={open} selected={checked} current={current} />
      )}
      {repeatChoice ? (
        <ChosenSlot id={choiceId} initial={checked} slotMinutes={slotMinutes ?? slotMinutesOf(open)} />
      ) : null}
    </fieldset>
  );
}
