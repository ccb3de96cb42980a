/**
 * Issue 30: what the slot picker says about the slot a customer is choosing, as pure functions over
 * the page's `DayView`s (ISO instants): its length in minutes, that length in French, and whether a
 * posted start is still one of the free slots offered (then it is pre-selected and repeated).
 */
import type { DayView } from "./context.ts";
import { DEFAULT_BOOKING_SETTINGS } from "./settings.ts";
import { SLOT_FIELD } from "./slot-fields.ts";

/** The form field of a slot's ISO start (`slot-fields.ts`). */
export { SLOT_FIELD };

/**
 * A slot's length in minutes, read from the week shown: the shortest gap between two starts of one
 * day. Staff set the length (« Réglages de l'agenda ») and the pages receive only starts; consecutive
 * slots of an opening range are exactly one length apart and no two starts are closer, so any range
 * with two slots in the week gives it. A week without one (every range a single slot) falls back to
 * the code's default length (`DEFAULT_BOOKING_SETTINGS.slotMinutes`, 30).
 */
export function slotMinutesOf(days: readonly DayView[]): number {
  let shortest = Infinity;
  for (const day of days) {
    for (let index = 1; index < day.slots.length; index++) {
      const gap = (Date.parse(day.slots[index]!.start) - Date.parse(day.slots[index - 1]!.start)) / 60_000;
      // A daylight-saving change inside a range can give a zero or negative gap: never a length.
      if (gap > 0 && gap < shortest) shortest = gap;
    }
  }
  return Number.isFinite(shortest) ? shortest : DEFAULT_BOOKING_SETTINGS.slotMinutes;
}

/** A length in minutes in French: 30 → "30 min", 60 → "1 h", 90 → "1 h 30". */
export function formatSlotLength(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return `${Math.floor(minutes / 60)} h${rest ? ` ${String(rest).padStart(2, "0")}` : ""}`;
}

/**
 * `start` (an ISO instant posted before, untrusted) if it is a free slot of `days` other than
 * `current` (the appointment's own start on the manage page), else undefined: only such a start is
 * pre-selected, so only it may be repeated next to the button before any script runs.
 */
export function offeredStart(
  start: string | undefined,
  days: readonly DayView[],
  current?: string,
): string | undefined {
  if (!start || start === current) return undefined;
  return days.some((day) => day.slots.some((slot) => slot.start === start && slot.free > 0)) ? start : undefined;
}
