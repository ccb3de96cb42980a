/**
 * Issue 18 §1: the agenda API's query and body schemas (`agenda-protocol.ts`
 * has the table), for `server/booking/api.ts`. French messages.
 */
import { z } from "zod";
import { AGENDA_MAX_DAYS } from "./agenda-protocol.ts";
import { CalendarDate } from "./settings.ts";
import { dayNumber } from "./slots.ts";
import { SlotStart } from "./schemas.ts";

export const AgendaQuery = z
  .object({ from: CalendarDate, to: CalendarDate })
  .refine((query) => dayNumber(query.to) > dayNumber(query.from), { error: "La fin doit suivre le début." })
  .refine((query) => dayNumber(query.to) - dayNumber(query.from) <= AGENDA_MAX_DAYS, {
    error: `${AGENDA_MAX_DAYS} jours au plus.`,
  });

export const SlotsQuery = z.object({
  from: CalendarDate,
  days: z.coerce.number({ error: "Nombre de jours attendu." }).int().min(1).max(AGENDA_MAX_DAYS),
});

export const AppointmentId = z.uuid({ error: "Ce rendez-vous n'existe pas." });

export const MoveBody = z.object({ start: SlotStart });
