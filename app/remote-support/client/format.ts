/** Small display helpers of the remote-support screens (spec §2, §9). */
import { SHOP_TIME_ZONE } from "#app/booking/time-zone.ts";

/**
 * Date and time in French, as the history, the report and the requests show them: the shop's wall clock
 * (Europe/Paris) whatever the server's or the browser's zone, so the server's HTML and the hydrated page agree
 * (a server in UTC made React re-render the whole dashboard, and a code typed meanwhile was lost).
 */
export function formatDateTime(iso: string | null): string {
  if (!iso) return "—";
  return new Date(iso).toLocaleString("fr-FR", { dateStyle: "short", timeStyle: "medium", timeZone: SHOP_TIME_ZONE });
}

/** What the code input keeps of a keystroke: forced to upper case as typed (spec §2, §5). */
export function codeInputValue(typed: string): string {
  return typed.toUpperCase();
}

/** Time of day in French ("14:05", the shop's wall clock), for chat lines and the session record. */
export function formatTime(iso: string): string {
  return new Date(iso).toLocaleTimeString("fr-FR", { hour: "2-digit", minute: "2-digit", timeZone: SHOP_TIME_ZONE });
}
