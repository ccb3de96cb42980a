/**
 * Issue 30: the week's slots as booking widgets show them: a row of days, then the times of the chosen
 * day only (a week was ~80 radio buttons in one list, 4 500 px tall on a phone).
 *
 * Plain HTML first: the days are radio buttons (`jour`, posted but read by no action) and each day's
 * times a `<fieldset>` of `slot` radios shown by CSS when its day is checked (`peer-checked`), so a
 * customer without JavaScript, or before hydration, picks a day then a time the same way, and the
 * server's HTML already has the final layout (no shift at hydration). Arrow keys move within each
 * group natively. Once hydrated, the day shown is read from the checked radio and hidden days get the
 * `hidden` attribute instead of the CSS rule: the same picture, and one a DOM test can see.
 * Known limit without JavaScript: a time checked on one day stays checked when another day is shown,
 * and Tab reaches only a group's checked radio, so a keyboard user picks the time on the first day
 * chosen (with JavaScript, showing another day unchecks it).
 */
import { useCallback, useId, useSyncExternalStore, type ChangeEvent } from "react";
import type { DayView, SlotView } from "./context.ts";
import { formatCalendarDate } from "./format.ts";
import { DAY_FIELD, DAY_GROUP_ATTRIBUTE, SLOT_FIELD } from "./slot-fields.ts";
import { SHOP_TIME_ZONE } from "./time-zone.ts";

/** The day radios' name (`slot-fields.ts`). */
export { DAY_FIELD };

const part = (options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat("fr-FR", { timeZone: SHOP_TIME_ZONE, ...options });
const WEEKDAY = part({ weekday: "short" });
const DAY_OF_MONTH = part({ day: "numeric" });
const MONTH = part({ month: "short" });

/** Static class names (Tailwind reads them here): one column per day shown, a week at most. */
const COLUMNS = [
  "grid-cols-1",
  "grid-cols-2",
  "grid-cols-3",
  "grid-cols-4",
  "grid-cols-5",
  "grid-cols-6",
  "grid-cols-7",
] as const;

const focusRing = "peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-sky-300";

type Props = {
  /** The days to offer, each with at least one slot ("YYYY-MM-DD", shop dates). */
  days: DayView[];
  /** The ISO start checked at first (`offeredStart`); its day is the one shown. */
  selected?: string;
  /** The appointment's own start (manage page): shown as « votre créneau actuel », never offered. */
  current?: string;
};

/** The day shown first: the selected slot's, else the first with a free place, else the first. */
function firstDay(days: DayView[], selected: string | undefined, current: string | undefined): string {
  const bookable = (slot: SlotView) => slot.free > 0 && slot.start !== current;
  const withSelected = selected ? days.find((day) => day.slots.some((slot) => slot.start === selected)) : undefined;
  return (withSelected ?? days.find((day) => day.slots.some(bookable)) ?? days[0]!).date;
}

function TimeOption({ slot, spokenDay, checked, current }: { slot: SlotView; spokenDay: string } & Flags) {
  // Each name carries the full date: a screen reader user hears which day's 09:00 it is.
  const spoken = <span className="sr-only">{spokenDay} à </span>;
  if (current) {
    return (
      <li>
        <span className="flex min-h-11 flex-col items-center justify-center rounded-lg border border-amber-300/70 bg-amber-950/50 px-2 py-1 text-center text-amber-50">
          <span>
            {spoken}
            {slot.time}
            <span className="sr-only"> : </span>
          </span>
          <span className="text-xs leading-tight">votre créneau actuel</span>
        </span>
      </li>
    );
  }
  if (slot.free <= 0) {
    return (
      <li>
        <span className="slot-full">
          <span>
            {spoken}
            {slot.time}
            <span className="sr-only"> : complet</span>
          </span>
        </span>
      </li>
    );
  }
  return (
    <li>
      <label className="slot-option">
        <input
          type="radio"
          name={SLOT_FIELD}
          value={slot.start}
          defaultChecked={checked}
          className="size-4 accent-sky-400"
        />
        <span>
          {spoken}
          {slot.time}
        </span>
      </label>
    </li>
  );
}

type Flags = { checked: boolean; current: boolean };

/** The day radios and, below them, the chosen day's times (radios named `slot`, ISO starts). */
export function SlotDays({ days, selected, current }: Props) {
  const id = useId();
  const initialDay = firstDay(days, selected, current);
  const subscribe = useCallback(
    (changed: () => void) => {
      const root = document.getElementById(id);
      root?.addEventListener("change", changed);
      return () => root?.removeEventListener("change", changed);
    },
    [id],
  );
  const checkedDay = useSyncExternalStore(
    subscribe,
    () => document.getElementById(id)?.querySelector<HTMLInputElement>(`input[name="${DAY_FIELD}"]:checked`)?.value,
    () => undefined,
  );
  // Until hydrated, or while another week's radios replace these, CSS shows the checked day's times.
  const shown = days.some((day) => day.date === checkedDay) ? checkedDay : undefined;

  const onChange = (event: ChangeEvent<HTMLDivElement>) => {
    const day = event.target;
    if (!(day instanceof HTMLInputElement) || day.name !== DAY_FIELD || !day.checked) return;
    // A time checked on the day left would stay checked out of sight, and while one radio of a group is
    // checked Tab reaches only that one: the new day's times could not be reached by keyboard.
    const hidden = event.currentTarget.querySelector<HTMLInputElement>(`input[name="${SLOT_FIELD}"]:checked`);
    if (hidden && hidden.closest(`[${DAY_GROUP_ATTRIBUTE}]`)?.getAttribute(DAY_GROUP_ATTRIBUTE) !== day.value) {
      hidden.checked = false;
      hidden.dispatchEvent(new Event("change", { bubbles: true }));
    }
  };

  return (
    <fieldset className="min-w-0">
      <legend className="mb-2 font-semibold text-white">Jour</legend>
      <div
        id={id}
        onChange={onChange}
        className={`relative grid gap-x-1.5 gap-y-5 sm:gap-x-2 ${COLUMNS[Math.min(days.length, COLUMNS.length) - 1]}`}
      >
        {days.map((day) => {
          const spokenDay = formatCalendarDate(day.date);
          const noon = new Date(`${day.date}T12:00:00Z`);
          const free = day.slots.filter((slot) => slot.free > 0 && slot.start !== current).length;
          const dayId = `${id}-${day.date}`;
          return (
            <div key={day.date} className="contents">
              <input
                type="radio"
                name={DAY_FIELD}
                value={day.date}
                id={dayId}
                defaultChecked={day.date === initialDay}
                className="peer sr-only"
              />
              <label
                htmlFor={dayId}
                className={`row-start-1 flex min-h-16 cursor-pointer flex-col items-center justify-center rounded-lg border px-1 py-1.5 leading-tight hover:border-sky-300 peer-checked:border-sky-300 peer-checked:bg-sky-950 peer-checked:text-white ${focusRing} ${
                  free > 0
                    ? "border-slate-600 bg-slate-900 text-slate-100"
                    : "border-dashed border-slate-700 text-slate-400"
                }`}
              >
                <span aria-hidden="true" className="text-xs">
                  {WEEKDAY.format(noon)}
                </span>
                <span aria-hidden="true" className="text-lg font-semibold">
                  {DAY_OF_MONTH.format(noon)}
                </span>
                <span aria-hidden="true" className="text-xs">
                  {MONTH.format(noon)}
                </span>
                <span className="sr-only">
                  {spokenDay},{" "}
                  {free === 0 ? "complet" : `${free} créneau${free > 1 ? "x" : ""} libre${free > 1 ? "s" : ""}`}
                </span>
              </label>
              <fieldset
                {...{ [DAY_GROUP_ATTRIBUTE]: day.date }}
                hidden={shown !== undefined && shown !== day.date}
                className={`col-span-full row-start-2 min-w-0 ${shown === undefined ? "hidden peer-checked:block" : ""}`}
              >
                <legend className="mb-2 font-semibold text-white first-letter:uppercase">{spokenDay}</legend>
                <ul className="grid grid-cols-3 gap-2 sm:grid-cols-4 lg:grid-cols-6">
                  {day.slots.map((slot) => (
                    <TimeOption
                      key={slot.start}
                      slot={slot}
                      spokenDay={spokenDay}
                      checked={slot.start === selected}
                      current={slot.start === current}
                    />
                  ))}
                </ul>
              </fieldset>
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
