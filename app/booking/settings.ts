/**
 * Issue 18 §1: the booking settings staff set in the dashboard (slot length,
 * places per slot, lead time, how far ahead, weekly opening hours, closed
 * dates, and issue 28 §5's caps per customer), one zod schema for the dashboard form, the API and the stored row
 * (`shop_settings.booking`, database/schema-booking.ts).
 *
 * Times are "HH:MM" wall-clock times of the shop (Europe/Paris), dates
 * "YYYY-MM-DD" calendar dates there; durations in minutes, hours or days as
 * named. Until staff set them, the hours are the shop's opening hours (issue 29: the identity's current
 * ones, « Boutique »; spec §9's by default).
 */
import { z } from "zod";
import { defaultShop, type ShopIdentity } from "#app/config/shop.ts";
import { typedString } from "#app/utils/text.ts";
import { SHOP_TIME_ZONE } from "./time-zone.ts";

/** The shop's time zone: every slot is a wall-clock time there (`time-zone.ts`). */
export { SHOP_TIME_ZONE };

/** French names of ISO weekdays, 1 = lundi … 7 = dimanche. */
export const WEEKDAY_NAMES = ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"] as const;

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** "09:30" → 570 (minutes since midnight). */
export function minutesOf(time: string): number {
  const [hours, minutes] = time.split(":").map(Number) as [number, number];
  return hours * 60 + minutes;
}

const time = typedString({ error: "Heure attendue au format HH:MM." }).regex(TIME, {
  error: "Heure attendue au format HH:MM, par exemple 09:00.",
});

/** A calendar date "YYYY-MM-DD" that exists (no 31 février). */
export const CalendarDate = typedString({ error: "Date attendue au format AAAA-MM-JJ." })
  .regex(DATE, { error: "Date attendue au format AAAA-MM-JJ, par exemple 2026-12-25." })
  .refine(
    (value) => {
      const [y, m, d] = value.split("-").map(Number) as [number, number, number];
      const date = new Date(Date.UTC(y, m - 1, d));
      return date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
    },
    { error: "Cette date n'existe pas." },
  );

/** One opening range of one weekday, e.g. lundi 09:00–14:00. */
export const OpeningRange = z
  .object({
    /** ISO weekday, 1 = lundi … 7 = dimanche. */
    day: z.number().int().min(1).max(7),
    opens: time,
    closes: time,
  })
  .refine((range) => minutesOf(range.opens) < minutesOf(range.closes), {
    error: "L'heure de fermeture doit suivre l'heure d'ouverture.",
    path: ["closes"],
  });
export type OpeningRange = z.infer<typeof OpeningRange>;

export const ClosedDate = z.object({
  date: CalendarDate,
  /** Shown to staff only, e.g. "Noël", "Congés". */
  label: typedString().trim().max(80, { error: "80 caractères au plus." }).default(""),
});
export type ClosedDate = z.infer<typeof ClosedDate>;

export const BookingSettings = z
  .object({
    /** Length of one slot, minutes. */
    slotMinutes: z
      .number({ error: "Durée d'un créneau attendue en minutes." })
      .int()
      .min(10, { error: "Un créneau dure au moins 10 minutes." })
      .max(240, { error: "Un créneau dure au plus 240 minutes." }),
    /** Appointments one slot can take at once. */
    capacity: z
      .number({ error: "Nombre de places attendu." })
      .int()
      .min(1, { error: "Au moins une place par créneau." })
      .max(20, { error: "20 places par créneau au plus." }),
    /** A slot can be booked until this many hours before it starts. */
    leadHours: z
      .number({ error: "Délai attendu en heures." })
      .int()
      .min(0, { error: "Le délai ne peut pas être négatif." })
      .max(168, { error: "Le délai est de 168 heures (7 jours) au plus." }),
    /** How many days ahead slots are offered. */
    horizonDays: z
      .number({ error: "Nombre de jours attendu." })
      .int()
      .min(1, { error: "Au moins un jour." })
      .max(180, { error: "180 jours au plus." }),
    /**
     * Issue 28 §5: upcoming (not cancelled, not started) appointments one e-mail address, or one phone
     * number, may hold at once; past it the site asks to call the shop. Absent from rows stored before
     * it existed: the default applies.
     */
    maxUpcomingPerContact: z
      .number({ error: "Nombre de rendez-vous attendu." })
      .int({ error: "Nombre entier attendu." })
      .min(1, { error: "Au moins un rendez-vous à venir par client." })
      .max(50, { error: "50 rendez-vous à venir par client au plus." })
      .default(3),
    /**
     * Issue 28 §5: bookings, hence confirmation mails, one e-mail address may receive per 24 hours
     * (cancelled bookings count: their mail went out).
     */
    maxBookingMailsPerDay: z
      .number({ error: "Nombre de messages attendu." })
      .int({ error: "Nombre entier attendu." })
      .min(1, { error: "Au moins un message par jour." })
      .max(100, { error: "100 messages par jour au plus." })
      .default(5),
    /** Weekly opening ranges; a weekday without any is closed. */
    hours: z.array(OpeningRange).max(35, { error: "35 plages horaires au plus." }),
    /** Holidays and other closed dates. */
    closedDates: z.array(ClosedDate).max(200, { error: "200 dates de fermeture au plus." }),
  })
  .superRefine((settings, context) => {
    const byDay = new Map<number, OpeningRange[]>();
    for (const range of settings.hours) byDay.set(range.day, [...(byDay.get(range.day) ?? []), range]);
    for (const [day, ranges] of byDay) {
      const sorted = ranges.toSorted((a, b) => minutesOf(a.opens) - minutesOf(b.opens));
      for (let index = 1; index < sorted.length; index++) {
        if (minutesOf(sorted[index]!.opens) < minutesOf(sorted[index - 1]!.closes)) {
          context.addIssue({
            code: "custom",
            path: ["hours"],
            message: `Deux plages horaires du ${WEEKDAY_NAMES[day - 1]} se chevauchent.`,
          });
        }
      }
    }
    const dates = new Set<string>();
    for (const closed of settings.closedDates) {
      if (dates.has(closed.date)) {
        context.addIssue({ code: "custom", path: ["closedDates"], message: `La date ${closed.date} est en double.` });
      }
      dates.add(closed.date);
    }
  });
export type BookingSettings = z.infer<typeof BookingSettings>;

/**
 * The settings that apply until staff store their own: 30-minute slots, one place each, booked 2 hours
 * ahead at least, 60 days ahead; issue 28 §5: 3 upcoming appointments per e-mail or phone, 5 booking mails
 * per address a day; and the opening hours of `shop` (issue 29: the current identity, so a change of
 * hours in « Boutique » moves the bookable slots too). The identity's schema refuses overlapping lines.
 */
export function defaultBookingSettings(shop: Pick<ShopIdentity, "openingHours">): BookingSettings {
  return {
    slotMinutes: 30,
    capacity: 1,
    leadHours: 2,
    horizonDays: 60,
    maxUpcomingPerContact: 3,
    maxBookingMailsPerDay: 5,
    hours: shop.openingHours.flatMap((slot) =>
      slot.days.map((day) => ({ day, opens: slot.opens, closes: slot.closes })),
    ),
    closedDates: [],
  };
}

/** Spec §9's defaults: `defaultBookingSettings` of the default identity (Mon–Fri 9h–14h and 14h–19h). */
export const DEFAULT_BOOKING_SETTINGS: BookingSettings = defaultBookingSettings(defaultShop);
