/**
 * Issue 18 §1: the staff agenda's API, declared once for the dashboard
 * (`agenda-client.ts`) and the server (`server/booking/api.ts`): paths,
 * query and body schemas, answers. Every route requires the
 * `agenda:manage` permission (technicians). Dates are shop dates
 * "YYYY-MM-DD" (Europe/Paris); instants ISO 8601.
 *
 * | Method, path                       | Body / query                 | Answer                                   |
 * | GET  /api/agenda                   | ?from=&to= (to exclusive)    | { appointments: AppointmentView[] }      |
 * | GET  /api/agenda/slots             | ?from=&days=                 | { days: DayView[] }                      |
 * | POST /api/agenda/:id/confirm       | —                            | { appointment }                          |
 * | POST /api/agenda/:id/cancel        | —                            | { appointment }                          |
 * | POST /api/agenda/:id/move          | { start }                    | { appointment } / 409 { message, next }  |
 * |                                    |                              | / 400 outside the booking window (#28 §4) |
 * | GET  /api/agenda/settings          | —                            | { settings }                             |
 * | PUT  /api/agenda/settings          | { booking, bonusReparation } | { settings } / 400 { message, errors }   |
 *
 * Zod-free (the dashboard's chunk imports it); the request schemas are in
 * `agenda-schemas.ts`.
 *
 * Live: the Socket.IO event `agenda:changed` ({ date }) reaches every
 * technician after a change, from the site or the dashboard.
 */
import type { BookingSettings } from "./settings.ts";
import type { AgendaAppointment, AppointmentView, DayView, SlotView } from "./context.ts";

export const AGENDA_ROUTES = {
  list: "/agenda",
  slots: "/agenda/slots",
  confirm: "/agenda/:id/confirm",
  cancel: "/agenda/:id/cancel",
  move: "/agenda/:id/move",
  settings: "/agenda/settings",
} as const;

/** Browser paths of the agenda API. */
export const AGENDA_PATHS = {
  list: "/api/agenda",
  slots: "/api/agenda/slots",
  action: (id: string, action: "confirm" | "cancel" | "move") => `/api/agenda/${encodeURIComponent(id)}/${action}`,
  settings: "/api/agenda/settings",
} as const;

/** Longest agenda range, days (a month and a half, enough for a month view). */
export const AGENDA_MAX_DAYS = 62;

/** The event pushed to technicians when an appointment changed. */
export const AGENDA_CHANGED_EVENT = "agenda:changed";
export type AgendaChanged = { date: string };

export type AgendaListResponse = { appointments: AgendaAppointment[] };
export type SlotsResponse = { days: DayView[] };
export type AppointmentResponse = { appointment: AppointmentView };
export type AgendaError = { message: string; next?: SlotView[]; errors?: Partial<Record<string, string>> };
export type ShopSettingsView = { booking: BookingSettings; bonusReparation: boolean };
export type SettingsResponse = { settings: ShopSettingsView };
