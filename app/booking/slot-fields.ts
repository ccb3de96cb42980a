/**
 * Issue 30: the slot choice's field names and the sentence that repeats the choice, shared by the React
 * components (`slot-days.tsx`, `chosen-slot.tsx`) and the islands page's enhancer
 * (`app/islands/enhancers/slots.ts`), which must not carry zod (`settings.ts`).
 */

/** The form field of a slot's ISO start, the one the booking and manage actions read. */
export const SLOT_FIELD = "slot";

/** The day radios' name: the day shown. Posted with the form, ignored by the actions. */
export const DAY_FIELD = "jour";

/** Attribute of a day's group of times: its date ("YYYY-MM-DD"). */
export const DAY_GROUP_ATTRIBUTE = "data-jour";

/** Words of the chosen-slot sentence (`ChosenSlot`). */
export const CHOSEN_SLOT_TEXT = {
  chosen: "Votre créneau : ",
  none: "Aucun créneau choisi : choisissez un jour, puis une heure.",
  /** The length sentence after `none`, e.g. « Un rendez-vous dure 30 min. ». */
  length: (length: string) => `Un rendez-vous dure ${length}.`,
} as const;
