/**
 * Issue 18 §1: the dashboard's calls of the agenda API
 * (`agenda-protocol.ts`). Every call resolves (never throws) with the data
 * or the French message to show (status 0 when no answer came). Zod-free,
 * for the dashboard's chunk.
 */
import {
  AGENDA_PATHS,
  type AgendaError,
  type AgendaListResponse,
  type AppointmentResponse,
  type SettingsResponse,
  type ShopSettingsView,
  type SlotsResponse,
} from "./agenda-protocol.ts";

export type AgendaCallResult<T> =
  { ok: true; data: T } | { ok: false; status: number; message: string; errors?: AgendaError["errors"] };

const UNREACHABLE = "Le serveur ne répond pas. Vérifiez la connexion et réessayez.";

async function call<T>(path: string, init: RequestInit = {}): Promise<AgendaCallResult<T>> {
  let response: Response;
  try {
    response = await fetch(path, {
      credentials: "same-origin",
      ...init,
      headers: { Accept: "application/json", ...(init.body ? { "Content-Type": "application/json" } : {}) },
    });
  } catch {
    return { ok: false, status: 0, message: UNREACHABLE };
  }
  const payload = (await response.json().catch(() => null)) as (AgendaError & T) | null;
  if (response.ok && payload) return { ok: true, data: payload };
  return {
    ok: false,
    status: response.status,
    message: typeof payload?.message === "string" ? payload.message : UNREACHABLE,
    errors: payload?.errors,
  };
}

/** Appointments starting from `from` (inclusive) to `to` (exclusive), shop dates. */
export const fetchAgenda = (from: string, to: string) =>
  call<AgendaListResponse>(`${AGENDA_PATHS.list}?from=${from}&to=${to}`);

/** Free and full slots of `days` days from `from`, to move an appointment. */
export const fetchSlots = (from: string, days: number) =>
  call<SlotsResponse>(`${AGENDA_PATHS.slots}?from=${from}&days=${days}`);

export const confirmAppointment = (id: string) =>
  call<AppointmentResponse>(AGENDA_PATHS.action(id, "confirm"), { method: "POST" });

export const cancelAppointment = (id: string) =>
  call<AppointmentResponse>(AGENDA_PATHS.action(id, "cancel"), { method: "POST" });

export const moveAppointment = (id: string, start: string) =>
  call<AppointmentResponse>(AGENDA_PATHS.action(id, "move"), { method: "POST", body: JSON.stringify({ start }) });

export const fetchSettings = () => call<SettingsResponse>(AGENDA_PATHS.settings);

export const saveSettings = (settings: ShopSettingsView) =>
  call<SettingsResponse>(AGENDA_PATHS.settings, { method: "PUT", body: JSON.stringify(settings) });
