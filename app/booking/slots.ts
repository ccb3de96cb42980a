/**
 * Issue 18 §1: the slots offered for booking, computed from the settings
 * (`./settings.ts`) and the appointments already taken. Pure: the server's
 * availability query and the booking check use it, the tests and
 * `bench/booking.ts` call it directly.
 *
 * A slot is an instant range [start, end) in the shop's time zone's wall
 * clock: "09:00" on 2026-03-29 (a DST change day) is still 09:00 in Paris.
 * Taken places count every appointment overlapping the slot, so an
 * appointment booked before the slot length changed still holds its place.
 */
import { TZDate } from "@date-fns/tz";
import { minutesOf, SHOP_TIME_ZONE, type BookingSettings } from "./settings.ts";

/** One offered slot: `start`/`end` instants, `time` its "HH:MM" label, `free` places left (≥ 0). */
export type Slot = { start: Date; end: Date; date: string; time: string; free: number };

/** An appointment as far as availability is concerned (cancelled ones are not passed in). */
export type TakenRange = { startsAt: Date; endsAt: Date };

const DAY_MS = 86_400_000;

/** "2026-11-24" → whole days since 1970-01-01 (a calendar count, no time zone). */
export function dayNumber(date: string): number {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d) / DAY_MS;
}

/** The inverse of `dayNumber`. */
export function dateOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** ISO weekday (1 = lundi … 7 = dimanche) of a calendar date. */
export function isoWeekday(date: string): number {
  const weekday = new Date(dayNumber(date) * DAY_MS).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}

/** The shop's calendar date at instant `at`, "YYYY-MM-DD". */
export function shopDate(at: Date): string {
  const local = new TZDate(at.getTime(), SHOP_TIME_ZONE);
  return `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}`;
}

/** The shop's wall-clock time of instant `at`, "HH:MM". */
export function shopTime(at: Date): string {
  const local = new TZDate(at.getTime(), SHOP_TIME_ZONE);
  return `${pad(local.getHours())}:${pad(local.getMinutes())}`;
}

/** The instant of wall-clock `minutes` after midnight on `date` in the shop's time zone. */
export function shopInstant(date: string, minutes: number): Date {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(new TZDate(y, m - 1, d, Math.floor(minutes / 60), minutes % 60, SHOP_TIME_ZONE).getTime());
}

/**
 * `minutes` after midnight on `date` → instant, for every slot of one day.
 * A time-zone lookup costs about 8 µs and a month has ~900 slot bounds: the
 * offset is read at both ends of the day and, when equal (every day but the
 * two DST changes), applied arithmetically.
 */
function dayClock(date: string): (minutes: number) => Date {
  const midnight = dayNumber(date) * DAY_MS;
  const offsetAt = (minutes: number) => midnight + minutes * 60_000 - shopInstant(date, minutes).getTime();
  const offset = offsetAt(0);
  if (offsetAt(24 * 60 - 1) !== offset) return (minutes) => shopInstant(date, minutes);
  return (minutes) => new Date(midnight + minutes * 60_000 - offset);
}

function pad(value: number): string {
  return String(value).padStart(2, "0");
}

/** The first and last dates (inclusive) one may book at `now`: today until today + horizon − 1. */
export function bookableDates(settings: BookingSettings, now: Date): { first: string; last: string } {
  const today = dayNumber(shopDate(now));
  return { first: dateOfDay(today), last: dateOfDay(today + settings.horizonDays - 1) };
}

/**
 * Every slot of the dates `from`…`to` (inclusive, clamped to what is
 * bookable at `now`), with the places left once `taken` is counted. Slots
 * starting before `now + leadHours`, on closed dates or outside the weekly
 * hours are absent; full slots are present with `free: 0`.
 */
export function slotsBetween(
  settings: BookingSettings,
  range: { from: string; to: string },
  taken: readonly TakenRange[],
  now: Date,
): Slot[] {
  const bookable = bookableDates(settings, now);
  const first = Math.max(dayNumber(range.from), dayNumber(bookable.first));
  const last = Math.min(dayNumber(range.to), dayNumber(bookable.last));
  const earliest = now.getTime() + settings.leadHours * 3_600_000;
  const closed = new Set(settings.closedDates.map((closedDate) => closedDate.date));
  const slots: Slot[] = [];
  for (let day = first; day <= last; day++) {
    const date = dateOfDay(day);
    if (closed.has(date)) continue;
    const weekday = isoWeekday(date);
    const ranges = settings.hours
      .filter((range) => range.day === weekday)
      .toSorted((a, b) => minutesOf(a.opens) - minutesOf(b.opens));
    if (ranges.length === 0) continue;
    const instant = dayClock(date);
    for (const range of ranges) {
      const closes = minutesOf(range.closes);
      for (
        let minute = minutesOf(range.opens);
        minute + settings.slotMinutes <= closes;
        minute += settings.slotMinutes
      ) {
        const start = instant(minute);
        const end = instant(minute + settings.slotMinutes);
        // The hour skipped when clocks go forward has no length: no slot there.
        if (start.getTime() < earliest || end.getTime() <= start.getTime()) continue;
        const time = `${pad(Math.floor(minute / 60))}:${pad(minute % 60)}`;
        slots.push({
          start,
          end,
          date,
          time,
          free: settings.capacity,
        });
      }
    }
  }
  countTaken(slots, taken);
  return slots;
}

/**
 * Lowers each slot's `free` by the appointments overlapping it: slots are in
 * time order, so each appointment is placed by binary search and only the
 * slots it overlaps are visited (a month of slots with 1 000 appointments in
 * well under a millisecond; `bench/booking.ts`).
 */
function countTaken(slots: Slot[], taken: readonly TakenRange[]): void {
  for (const appointment of taken) {
    const startMs = appointment.startsAt.getTime();
    const endMs = appointment.endsAt.getTime();
    let low = 0;
    let high = slots.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (slots[middle]!.end.getTime() <= startMs) low = middle + 1;
      else high = middle;
    }
    for (let index = low; index < slots.length && slots[index]!.start.getTime() < endMs; index++) {
      const slot = slots[index]!;
      slot.free = Math.max(0, slot.free - 1);
    }
  }
}

/** The slot of `settings` starting exactly at `start`, if it is one that can be booked at `now` (places not counted). */
export function slotAt(settings: BookingSettings, start: Date, now: Date): Slot | undefined {
  const date = shopDate(start);
  return slotsBetween(settings, { from: date, to: date }, [], now).find(
    (slot) => slot.start.getTime() === start.getTime(),
  );
}

/**
 * Issue 28 §4: whether `start` lies in the booking window at `now`: from `now` plus the lead time (none
 * when `ignoreLeadTime`, the shop's moves) until the end of the last bookable date. Only comparisons of
 * `start`'s milliseconds, so any instant a visitor sends (year 9999 or 0001) is answered without the
 * arithmetic that overflowed the slot lock's 32-bit key; callers check this before anything else.
 */
export function withinBookingWindow(
  settings: BookingSettings,
  start: Date,
  now: Date,
  options: { ignoreLeadTime?: boolean } = {},
): boolean {
  const at = start.getTime();
  if (!Number.isFinite(at)) return false;
  const earliest = now.getTime() + (options.ignoreLeadTime ? 0 : settings.leadHours * 3_600_000);
  const end = shopInstant(dateOfDay(dayNumber(bookableDates(settings, now).last) + 1), 0).getTime();
  return at >= earliest && at < end;
}
