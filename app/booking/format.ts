/**
 * Issue 18 §1: appointment dates and times in French, always in the shop's
 * time zone (a visitor abroad still sees the shop's wall clock), for the
 * pages, the agenda and the mails.
 */
import { SHOP_TIME_ZONE } from "./time-zone.ts";

const DAY = new Intl.DateTimeFormat("fr-FR", {
  timeZone: SHOP_TIME_ZONE,
  weekday: "long",
  day: "numeric",
  month: "long",
  year: "numeric",
});
const SHORT_DAY = new Intl.DateTimeFormat("fr-FR", {
  timeZone: SHOP_TIME_ZONE,
  weekday: "short",
  day: "numeric",
  month: "short",
});
const TIME = new Intl.DateTimeFormat("fr-FR", { timeZone: SHOP_TIME_ZONE, hour: "2-digit", minute: "2-digit" });

/** "mercredi 25 novembre 2026" */
export function formatDay(at: Date): string {
  return DAY.format(at);
}

/** "mer. 25 nov." */
export function formatShortDay(at: Date): string {
  return SHORT_DAY.format(at);
}

/** "09:30" */
export function formatTime(at: Date): string {
  return TIME.format(at);
}

/** "mercredi 25 novembre 2026 à 09:30" */
export function formatWhen(at: Date): string {
  return `${formatDay(at)} à ${formatTime(at)}`;
}

/** A calendar date "2026-11-25" as "mercredi 25 novembre 2026" (noon, so no time zone can shift the day). */
export function formatCalendarDate(date: string): string {
  return formatDay(new Date(`${date}T12:00:00Z`));
}
