/**
 * The desktop app's HTTP API (issue 15, `app/remote-support/device-protocol.ts`),
 * mounted by `createRemoteSupportRouter` (`api.ts`) under `/api`, paths from
 * `API_ROUTES`. Every rule lives in `device-service.ts`; this layer checks
 * who calls (the guards of `server/access.ts`), validates bodies with the
 * protocol's zod schemas and maps refusals to statuses.
 *
 * | Method, path                          | Who                         | Success                     |
 * |---------------------------------------|-----------------------------|-----------------------------|
 * | POST /api/sessions/:code/pairing      | the session's customer      | 201 `PairingCodeResponse`   |
 * | POST /api/sessions/:code/consent `ConsentBody` | the session's customer | 200 `DeviceResponse`     |
 * | POST /api/sessions/:code/surface `SurfaceBody` | the session's customer | 200 `DeviceResponse` (issue 28 §8: the same surface again is neither stored nor announced) |
 * | GET  /api/sessions/:code/device       | customer or joined technician | 200 `DeviceResponse`      |
 * | POST /api/device/pair `DevicePairBody`| the app, by its pairing code (no cookie) | 201 `DevicePairResponse` |
 * | POST /api/device/sessions `DeviceSessionBody` | the app, no account (no cookie), issue 26 | 201 `DeviceSessionResponse` |
 * | POST /api/device/resume `DeviceResumeBody` | the app relaunched as administrator, by its ticket, issue 36 §4 | 201 `DevicePairResponse` |
 *
 * Errors are `{ message }` in French: 400 bad body, bad code, or a pairing
 * code that is wrong, used, expired or whose session ended
 * (`DEVICE_MESSAGES.pairingInvalid`, the same for each so a guess learns
 * nothing), or such a resume ticket (`ELEVATION_MESSAGES.ticketInvalid`); 401 not signed in; 403 not the customer
 * (`DEVICE_MESSAGES.ownerOnly`); 404 no such session, or (issue 28 §7) one
 * the caller takes no part in, answered alike; 409 session ended, or
 * consent without a paired app (`DEVICE_MESSAGES.notPaired`); 413 body too
 * large; 429 too many failed pairings, or (issue 26) too many sessions
 * started by the app, from one IP address, or (issue 28) too many 404 on the
 * `:code` routes per account (`code-lookups.ts`), too many surfaces per
 * session (`Retry-After`, s); 500 database failure. Always
 * `Cache-Control: no-store`.
 *
 * `POST /api/device/pair`, `POST /api/device/sessions` and `POST /api/device/resume` pass the `/api`
 * Origin check (`server/security.ts`) because the app sends neither an
 * Origin nor a cookie: they carry no one's session, so there is nothing for
 * another site to forge (a browser page of another site always sends its
 * Origin, and is refused).
 */
import express, { type Response } from "express";
import { API_ROUTES } from "#app/remote-support/api-paths.ts";
import {
  ConsentBody,
  DEVICE_MESSAGES,
  DevicePairBody,
  DeviceResumeBody,
  DeviceSessionBody,
  SurfaceBody,
  type DevicePairResponse,
  type DeviceResponse,
  type DeviceSessionResponse,
  type PairingCodeResponse,
} from "#app/remote-support/device-protocol.ts";
import type { Auth } from "#server/auth.ts";
import { createGuards } from "#server/access.ts";
import { ipLimitKey } from "#server/rate-limit.ts";
import { UNTYPABLE_TEXT_MESSAGE } from "#app/utils/text.ts";
import type { DeviceRefusal, DeviceRefusalReason, DeviceService } from "./device-service.ts";
import type { SessionService } from "./sessions.ts";
import { storableStrings } from "./device-state.ts";
import { bodyOf, jsonErrorHandler, parse, REFUSAL_STATUS, sendError, sendRefusal } from "./http.ts";
import { codeAddressed, type CodeHandler } from "./code-lookups.ts";

/** Largest body of the signed-in device routes, bytes (`{ allowed }`, a surface). */
export const DEVICE_BODY_LIMIT_BYTES = 4 * 1024;
/** Largest pairing body, bytes: 16 screens and an injection reason fit several times over. */
export const PAIR_BODY_LIMIT_BYTES = 16 * 1024;

/** HTTP status of each refusal: the session service's, and the app's own. */
export const DEVICE_REFUSAL_STATUS: Record<DeviceRefusalReason, number> = {
  ...REFUSAL_STATUS,
  "owner-only": 403,
  "not-paired": 409,
  "pairing-invalid": 400,
  "too-many-pairings": 429,
  "resume-invalid": 400,
};

const sendRefusalOf = (res: Response, refusal: DeviceRefusal) => sendRefusal(res, refusal, DEVICE_REFUSAL_STATUS);

/**
 * The routes above, for `createRemoteSupportRouter`.
 * @param devices the rules (`createDeviceService`).
 * @param sessions issue 26: starts the sessions the app asks for (`SessionService.createFromApp`); issue 28 §7:
 *   counts the `:code` routes' misses per account (`SessionService.codeLookups`).
 */
export function createDeviceRouter({
  auth,
  devices,
  sessions,
}: {
  auth: Auth;
  devices: DeviceService;
  sessions: Pick<SessionService, "createFromApp" | "codeLookups">;
}): express.Router {
  const router = express.Router();
  const json = express.json({ limit: DEVICE_BODY_LIMIT_BYTES });
  const pairJson = express.json({ limit: PAIR_BODY_LIMIT_BYTES });
  const { requireCaller } = createGuards(auth);

  /** A `:code` route (issue 28 §7): the code checked, and its misses counted per account (`code-lookups.ts`). */
  const codeRoute = (handler: CodeHandler) => requireCaller(codeAddressed(sessions.codeLookups, handler));

  router.post(
    API_ROUTES.pairing,
    codeRoute(async (_req, res, caller, code) => {
      const result = await devices.issuePairingCode(caller, code);
      if (!result.ok) return sendRefusalOf(res, result);
      res.status(201).json({
        pairingCode: result.pairingCode,
        expiresAt: result.expiresAt.toISOString(),
      } satisfies PairingCodeResponse);
    }),
  );

  router.post(
    API_ROUTES.consent,
    json,
    codeRoute(async (req, res, caller, code) => {
      const body = parse(ConsentBody, bodyOf(req), DEVICE_MESSAGES.badBody);
      if (!body.ok) return sendError(res, 400, body.message);
      const result = await devices.setConsent(caller, code, body.data.allowed);
      if (!result.ok) return sendRefusalOf(res, result);
      res.json({ device: result.device } satisfies DeviceResponse);
    }),
  );

  router.post(
    API_ROUTES.surface,
    json,
    codeRoute(async (req, res, caller, code) => {
      const body = parse(SurfaceBody, bodyOf(req), DEVICE_MESSAGES.badBody);
      if (!body.ok) return sendError(res, 400, body.message);
      const result = await devices.reportSurface(caller, code, body.data);
      if (!result.ok) return sendRefusalOf(res, result);
      res.json({ device: result.device } satisfies DeviceResponse);
    }),
  );

  router.get(
    API_ROUTES.device,
    codeRoute(async (_req, res, caller, code) => {
      const result = await devices.view(caller, code);
      if (!result.ok) return sendRefusalOf(res, result);
      res.json({ device: result.device } satisfies DeviceResponse);
    }),
  );

  // Public: the app has no account cookie; the single-use pairing code is its credential.
  router.post(API_ROUTES.devicePair, pairJson, async (req, res) => {
    res.setHeader("Cache-Control", "no-store");
    const body = parse(DevicePairBody, bodyOf(req), DEVICE_MESSAGES.badBody);
    if (!body.ok) return sendError(res, 400, body.message);
    if (!storableStrings(body.data)) return sendError(res, 400, UNTYPABLE_TEXT_MESSAGE);
    const result = await devices.pair(body.data, ipLimitKey(req.ip ?? "inconnue"));
    if (!result.ok) return sendRefusalOf(res, result);
    res.status(201).json({
      deviceToken: result.deviceToken,
      customerName: result.customerName,
      sessionCode: result.sessionCode,
    } satisfies DevicePairResponse);
  });

  // Issue 26, public like the pairing: the app starts a session without an account; limited per IP address.
  router.post(API_ROUTES.deviceSessions, pairJson, async (req, res) => {
    res.setHeader("Cache-Control", "no-store");
    const body = parse(DeviceSessionBody, bodyOf(req), DEVICE_MESSAGES.badBody);
    if (!body.ok) return sendError(res, 400, body.message);
    if (!storableStrings(body.data)) return sendError(res, 400, UNTYPABLE_TEXT_MESSAGE);
    const result = await sessions.createFromApp(body.data, ipLimitKey(req.ip ?? "inconnue"));
    if (!result.ok) return sendRefusalOf(res, result);
    res.status(201).json({
      deviceToken: result.deviceToken,
      customerName: result.customerName,
      sessionCode: result.sessionCode,
      expiresAt: result.expiresAt.toISOString(),
    } satisfies DeviceSessionResponse);
  });

  // Issue 36 §4, public like the pairing: the single-use resume ticket is the relaunched app's credential.
  router.post(API_ROUTES.deviceResume, pairJson, async (req, res) => {
    res.setHeader("Cache-Control", "no-store");
    const body = parse(DeviceResumeBody, bodyOf(req), DEVICE_MESSAGES.badBody);
    if (!body.ok) return sendError(res, 400, body.message);
    if (!storableStrings(body.data)) return sendError(res, 400, UNTYPABLE_TEXT_MESSAGE);
    const result = await devices.resume(body.data, ipLimitKey(req.ip ?? "inconnue"));
    if (!result.ok) return sendRefusalOf(res, result);
    res.status(201).json({
      deviceToken: result.deviceToken,
      customerName: result.customerName,
      sessionCode: result.sessionCode,
    } satisfies DevicePairResponse);
  });

  // A database failure while reading the session cookie, or a bug: logged, never shown.
  const onError = jsonErrorHandler(DEVICE_MESSAGES.badBody, "API du logiciel de bureau : requête en échec");
  router.use(onError);
  return router;
}
