/**
 * Issue 18 §1: the week of slots a booking or manage page shows, read from
 * the booking services, with the links to the weeks around it. Server-only
 * (route loaders and actions).
 */
import type { BookingServices, DayView } from "./context.ts";
import { CalendarDate } from "./settings.ts";
import { dateOfDay, dayNumber } from "./slots.ts";

/** Days shown at once. */
export const WEEK_DAYS = 7;

export type WeekData = { days: DayView[]; previousWeek?: string; nextWeek?: string };

/**
 * The 7 days from `requested` (a "YYYY-MM-DD" from the query, untrusted;
 * clamped to the bookable range, default its first day). `link(date)` builds
 * a week's address. Null when the database cannot be read.
 */
export async function weekOf(
  services: BookingServices,
  requested: string | null,
  link: (date: string) => string,
): Promise<WeekData | null> {
  const wanted = CalendarDate.safeParse(requested);
  const probe = await services.availability(wanted.success ? wanted.data : "1970-01-01", WEEK_DAYS);
  if (!probe) return null;
  const first = dayNumber(probe.first);
  const last = dayNumber(probe.last);
  const start = wanted.success ? Math.min(Math.max(dayNumber(wanted.data), first), last) : first;
  const found =
    start === dayNumber(probe.days[0]?.date ?? "") ? probe : await services.availability(dateOfDay(start), WEEK_DAYS);
  if (!found) return null;
  return {
    days: found.days,
    previousWeek: start > first ? link(dateOfDay(Math.max(first, start - WEEK_DAYS))) : undefined,
    nextWeek: start + WEEK_DAYS <= last ? link(dateOfDay(start + WEEK_DAYS)) : undefined,
  };
}
