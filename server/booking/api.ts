/**
 * Issue 18 §1: the staff agenda's HTTP API (table in
 * `app/booking/agenda-protocol.ts`), every route behind the `agenda:manage`
 * permission (`server/access.ts`). JSON bodies of at most
 * `AGENDA_BODY_LIMIT_BYTES`; every refusal is a French `{ message }` with a
 * 4xx, and a database failure a 503.
 */
import express, { type ErrorRequestHandler, type Response } from "express";
import { AgendaQuery, AppointmentId, MoveBody, SlotsQuery } from "#app/booking/agenda-schemas.ts";
import {
  AGENDA_ROUTES,
  type AgendaError,
  type AgendaListResponse,
  type AppointmentResponse,
  type SettingsResponse,
  type SlotsResponse,
} from "#app/booking/agenda-protocol.ts";
import { SESSION_MESSAGES } from "#app/remote-support/protocol.ts";
import type { Auth } from "#server/auth.ts";
import { createGuards } from "#server/access.ts";
import type { BookingService, StaffOutcome } from "./service.ts";

/** The settings, the largest body, fit well below (35 ranges, 200 closed dates). */
export const AGENDA_BODY_LIMIT_BYTES = 32 * 1024;
const UNAVAILABLE = "L'agenda est momentanément indisponible. Réessayez dans un instant.";

function sendError(res: Response, status: number, body: AgendaError): void {
  res.status(status).json(body);
}

function sendOutcome(res: Response, outcome: StaffOutcome): void {
  if (outcome.ok) return void res.json({ appointment: outcome.appointment } satisfies AppointmentResponse);
  sendError(res, outcome.status, { message: outcome.message, ...(outcome.next ? { next: outcome.next } : {}) });
}

export function createAgendaRouter({ auth, booking }: { auth: Auth; booking: BookingService }): express.Router {
  const router = express.Router();
  const json = express.json({ limit: AGENDA_BODY_LIMIT_BYTES });
  const { requirePermission } = createGuards(auth);
  const staff = (handler: Parameters<typeof requirePermission>[1]) => requirePermission("agenda:manage", handler);

  router.get(
    AGENDA_ROUTES.list,
    staff(async (req, res) => {
      const query = AgendaQuery.safeParse(req.query ?? {});
      if (!query.success)
        return sendError(res, 400, { message: query.error.issues[0]?.message ?? SESSION_MESSAGES.badBody });
      try {
        const appointments = await booking.agenda(query.data.from, query.data.to);
        res.json({ appointments } satisfies AgendaListResponse);
      } catch (error) {
        req.log?.error({ err: error }, "agenda illisible");
        sendError(res, 503, { message: UNAVAILABLE });
      }
    }),
  );

  router.get(
    AGENDA_ROUTES.slots,
    staff(async (req, res) => {
      const query = SlotsQuery.safeParse(req.query ?? {});
      if (!query.success)
        return sendError(res, 400, { message: query.error.issues[0]?.message ?? SESSION_MESSAGES.badBody });
      const found = await booking.availability(query.data.from, query.data.days);
      if (!found) return sendError(res, 503, { message: UNAVAILABLE });
      res.json({ days: found.days } satisfies SlotsResponse);
    }),
  );

  for (const action of ["confirm", "cancel"] as const) {
    router.post(
      AGENDA_ROUTES[action],
      staff(async (req, res) => {
        const id = AppointmentId.safeParse(req.params.id);
        if (!id.success) return sendError(res, 404, { message: "Ce rendez-vous n'existe pas." });
        sendOutcome(res, await booking[action](id.data));
      }),
    );
  }

  router.post(
    AGENDA_ROUTES.move,
    json,
    staff(async (req, res) => {
      const id = AppointmentId.safeParse(req.params.id);
      if (!id.success) return sendError(res, 404, { message: "Ce rendez-vous n'existe pas." });
      const body = MoveBody.safeParse(req.body ?? {}, { error: () => SESSION_MESSAGES.badBody });
      if (!body.success)
        return sendError(res, 400, { message: body.error.issues[0]?.message ?? SESSION_MESSAGES.badBody });
      sendOutcome(res, await booking.move(id.data, body.data.start));
    }),
  );

  router.get(
    AGENDA_ROUTES.settings,
    staff(async (req, res) => {
      try {
        res.json({ settings: await booking.settings() } satisfies SettingsResponse);
      } catch (error) {
        req.log?.error({ err: error }, "réglages de l'agenda illisibles");
        sendError(res, 503, { message: UNAVAILABLE });
      }
    }),
  );

  router.put(
    AGENDA_ROUTES.settings,
    json,
    staff(async (req, res, caller) => {
      try {
        const saved = await booking.saveSettings(req.body, caller.userId);
        if (!saved.ok) {
          return sendError(res, 400, {
            message: "Certains réglages sont à corriger : voir les messages sous chaque champ.",
            errors: saved.fieldErrors,
          });
        }
        res.json({ settings: saved.value } satisfies SettingsResponse);
      } catch (error) {
        req.log?.error({ err: error }, "réglages de l'agenda non enregistrés");
        sendError(res, 503, { message: UNAVAILABLE });
      }
    }),
  );

  const onError: ErrorRequestHandler = (error, _req, res, next) => {
    if (res.headersSent) return next(error);
    res.setHeader("Cache-Control", "no-store");
    if (error?.type === "entity.parse.failed") return sendError(res, 400, { message: SESSION_MESSAGES.badJson });
    if (error?.type === "entity.too.large")
      return sendError(res, 413, { message: "Le contenu envoyé est trop volumineux." });
    if (typeof error?.status === "number" && error.status >= 400 && error.status < 500)
      return sendError(res, error.status, { message: SESSION_MESSAGES.badBody });
    next(error);
  };
  router.use(onError);
  return router;
}
