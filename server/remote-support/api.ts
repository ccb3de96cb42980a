/**
 * The remote-support JSON API (issue 5), mounted at `/api` before the forms
 * router (whose catch-all answers unknown `/api/*` paths with 404). Its
 * paths are `API_ROUTES` (`app/remote-support/api-paths.ts`, issue 14), the
 * browser's `client/api.ts` calls them through `API_PATHS`. Every
 * rule lives in `sessions.ts`; this layer reads the session cookie, validates
 * bodies with the protocol's zod schemas and maps refusals to statuses.
 *
 * "Who" is the guard (`server/access.ts`, issue 14): signed in, or a
 * permission (held by technicians today); the session rules add the rest.
 *
 * | Method, path                        | Who                     | Success                      |
 * |-------------------------------------|-------------------------|------------------------------|
 * | GET  /api/me                        | signed in               | 200 `MeResponse`             |
 * | POST /api/sessions `{ code? }`      | `session:create` (see below) | 201 new / 200 existing  |
 * | GET  /api/sessions/mine             | `session:create`        | 200 `SessionListResponse`    |
 * | POST /api/sessions/join `{ code }`  | `session:join`          | 200 `SessionResponse`        |
 * | POST /api/sessions/:code/disconnect | owner, joined technician| 200 `SessionResponse`        |
 * | GET  /api/sessions/active           | `session:history`       | 200 `ActiveSessionResponse`  |
 * | GET  /api/sessions/history          | `session:history`       | 200 `SessionListResponse`    |
 * | POST /api/reports/verify `{ password }` | `report:read`       | 200 `VerifyResponse`         |
 * | GET  /api/sessions/:code/report     | `report:read`, technician of that session, after verify | 200 `ReportResponse` |
 * | GET  /api/requests                  | `requests:read`         | 200 `RequestListResponse`    |
 * | POST /api/requests/:id/treatment, GET /api/dashboard/counts | issue 40: `server/dashboard-api.ts` | |
 * | GET  /api/sessions/:code/ice-servers| participant, not ended  | 200 `IceServersResponse`     |
 * | GET  /api/sessions/:code/events     | participant             | 200 `SessionEventsResponse`  |
 * | POST /api/sessions/:code/events `SessionEventBody` | participant, by kind | 201 `SessionEventResponse`; 200 with the last event when that state is already set |
 * | POST /api/sessions/from-assistant   | `session:create` + `assistant:use` | 201 new / 200 existing `SessionFromAssistantResponse` |
 * | GET  /api/sessions/:code/conversation | customer, joined technician; any technician while it waits | 200 `SessionConversationResponse` |
 * | GET  /api/sessions/queue            | `session:join`          | 200 `QueueResponse`          |
 * | POST /api/sessions/:code/claim      | `session:join`          | 200 `SessionResponse`; 409 taken, 410 gone |
 * | GET  /api/sessions/:code/place      | the session's customer  | 200 `QueuePlaceResponse`     |
 *
 * Issue 27, the waiting queue (`waiting-queue.ts`, `app/remote-support/queue.ts`): a new site session records
 * the browser's system (`Sec-CH-UA-Platform`, else the User-Agent: `customer-system.ts`); « Prendre en charge »
 * is the join's own rule (`SessionService.claim`).
 *
 * Issue 18 §4: `from-assistant` is `POST /api/sessions` (same rules and
 * refusals) with the caller's assistant conversation attached; the body is
 * ignored (the server reads the stored conversation itself).
 *
 * Issue 15: the desktop app's routes (pairing, consent, surface, device,
 * `/api/device/pair`; issue 26 `/api/device/sessions`) are in `device-api.ts`,
 * mounted here with `devices`.
 *
 * Errors are `{ message }` in French (`SESSION_MESSAGES`, spec §8): 400 bad
 * body or code, 401 "Utilisateur non connecté", 403 missing permission, own
 * session, wrong side for an event, or "Mot de passe incorrect", 404 "Session
 * non trouvée" (no such code, or, issue 28 §7, a session the caller takes no
 * part in: the same answer), 409 "Session déjà connectée" (also: session
 * ended, session not connected), 410 a code that expired unused (issue 13
 * §8), 413 body too large, 423 report before the password check (so the
 * dashboard knows to show "Vérification"), 429 too many password checks,
 * joins or new sessions, too many 404 on the `:code` routes (issue 28 §7,
 * `code-lookups.ts`: then every `:code` route of the account, until the
 * window ends), or too many events in one session (issue 28 §8) (all with
 * `Retry-After`, s), 500 database failure. Every answer is
 * `Cache-Control: no-store`; no stack trace is ever sent.
 *
 * Issue 28 §8: `sharing-started`/`sharing-stopped` and `control-on`/`control-off`
 * set a state; one that is already set (the pair's last event in the session
 * is the same kind) is neither stored nor passed to the desktop app again,
 * and answers 200 with that last event instead of 201.
 *
 * `POST /api/sessions` with a `code` returns that session only when it is
 * the caller's own (spec §4); any other code is ignored, so the answer (the
 * caller's open session, or a new one with a random code) is the same
 * whether or not someone else uses it (issue 13 §8).
 */
import express, { type Request, type Response } from "express";
import { systemOfBrowser } from "#app/remote-support/customer-system.ts";
import type { QueuePlaceResponse, QueueResponse } from "#app/remote-support/queue.ts";
import {
  CreateSessionBody,
  JoinBody,
  SESSION_MESSAGES,
  SessionEventBody,
  VerifyBody,
} from "#app/remote-support/protocol.ts";
import { API_ROUTES } from "#app/remote-support/api-paths.ts";
import type { Auth } from "#server/auth.ts";
import { can, createGuards, permissionsOf, type GuardedHandler, type Permission } from "#server/access.ts";
import { iceServersFor, type IceConfig } from "./ice.ts";
import type { Refusal, SessionService } from "./sessions.ts";
import { createDeviceRouter } from "./device-api.ts";
import { createFactsRouter } from "./facts-api.ts";
import { createDashboardRouter } from "#server/dashboard-api.ts";
import { bodyOf, jsonErrorHandler, parse, REFUSAL_STATUS, sendError, sendRefusal } from "./http.ts";
import { codeAddressed, type CodeHandler } from "./code-lookups.ts";
import type { DeviceService } from "./device-service.ts";

/** Largest body accepted by these routes, bytes: a code or a password. */
export const SESSION_BODY_LIMIT_BYTES = 4 * 1024;

const sendRefusalOf = (res: Response, refusal: Refusal) => sendRefusal(res, refusal, REFUSAL_STATUS);

/** Issue 27: the system of the browser sending `req`, as the technicians' queue names it (null when unknown). */
const browserSystem = (req: Request) =>
  systemOfBrowser({ platformHint: req.get("sec-ch-ua-platform"), userAgent: req.get("user-agent") });

export type RemoteSupportRouterOptions = {
  auth: Auth;
  sessions: SessionService;
  /** ICE servers handed to participants (issue 6); default none (host candidates only). */
  ice?: IceConfig;
  /** Issue 15, the desktop app: its routes (`device-api.ts`) are mounted here when given. */
  devices?: DeviceService;
};

export function createRemoteSupportRouter({
  auth,
  sessions,
  ice = { stunUrls: [], turn: null },
  devices,
}: RemoteSupportRouterOptions): express.Router {
  const router = express.Router();
  // Parsers per route, not router-wide: other /api routes (forms) keep their own parsers and limits.
  const json = express.json({ limit: SESSION_BODY_LIMIT_BYTES });

  const { requireCaller, requirePermission } = createGuards(auth);
  /**
   * Wraps a handler in the guard (`server/access.ts`): no-store, caller from
   * the cookie (401 when absent) and, with `permission`, 403 without it,
   * before looking at the body. The session service checks the same
   * permission again: this answer only comes first.
   */
  const route = (handler: GuardedHandler, { permission }: { permission?: Permission } = {}) =>
    permission ? requirePermission(permission, handler) : requireCaller(handler);
  /** A `:code` route (issue 28 §7): the code checked, and its misses counted per account (`code-lookups.ts`). */
  const codeRoute = (handler: CodeHandler, options: { permission?: Permission } = {}) =>
    route(codeAddressed(sessions.codeLookups, handler), options);

  router.get(
    API_ROUTES.me,
    route(async (_req, res, caller) => {
      res.json({
        user: {
          id: caller.userId,
          name: caller.name,
          email: caller.email,
          isTechnician: can(caller, "session:history"),
          permissions: [...permissionsOf(caller)],
        },
      });
    }),
  );

  router.post(
    API_ROUTES.sessions,
    json,
    route(
      async (req, res, caller) => {
        const body = parse(CreateSessionBody, bodyOf(req), SESSION_MESSAGES.badBody);
        if (!body.ok) return sendError(res, 400, body.message);
        const result = await sessions.create(caller, { ...body.data, system: browserSystem(req) });
        if (!result.ok) return sendRefusalOf(res, result);
        res.status(result.created ? 201 : 200).json({ session: result.session });
      },
      { permission: "session:create" },
    ),
  );

  router.get(
    API_ROUTES.mine,
    route(
      async (_req, res, caller) => {
        const result = await sessions.mine(caller);
        if (!result.ok) return sendRefusalOf(res, result);
        res.json({ sessions: result.sessions });
      },
      { permission: "session:create" },
    ),
  );

  router.get(
    API_ROUTES.active,
    route(
      async (_req, res, caller) => {
        const result = await sessions.active(caller);
        if (!result.ok) return sendRefusalOf(res, result);
        res.json({ session: result.session });
      },
      { permission: "session:history" },
    ),
  );

  router.get(
    API_ROUTES.history,
    route(
      async (_req, res, caller) => {
        const result = await sessions.history(caller);
        if (!result.ok) return sendRefusalOf(res, result);
        res.json({ sessions: result.sessions });
      },
      { permission: "session:history" },
    ),
  );

  router.post(
    API_ROUTES.join,
    json,
    route(
      async (req, res, caller) => {
        const body = parse(JoinBody, bodyOf(req), SESSION_MESSAGES.badBody);
        if (!body.ok) return sendError(res, 400, body.message);
        const result = await sessions.join(caller, body.data.code);
        if (!result.ok) return sendRefusalOf(res, result);
        res.json({ session: result.session });
      },
      { permission: "session:join" },
    ),
  );

  router.post(
    API_ROUTES.disconnect,
    codeRoute(async (_req, res, caller, code) => {
      const result = await sessions.disconnect(caller, code);
      if (!result.ok) return sendRefusalOf(res, result);
      res.json({ session: result.session });
    }),
  );

  router.get(
    API_ROUTES.report,
    codeRoute(
      async (_req, res, caller, code) => {
        const result = await sessions.report(caller, code);
        if (!result.ok) return sendRefusalOf(res, result);
        res.json({ report: result.report });
      },
      { permission: "report:read" },
    ),
  );

  router.post(
    API_ROUTES.verify,
    json,
    route(
      async (req, res, caller) => {
        const body = parse(VerifyBody, bodyOf(req), SESSION_MESSAGES.badBody);
        if (!body.ok) return sendError(res, 400, body.message);
        const result = await sessions.verifyPassword(caller, body.data.password);
        if (!result.ok) return sendRefusalOf(res, result);
        res.json({ grantedUntil: result.grantedUntil.toISOString() });
      },
      { permission: "report:read" },
    ),
  );

  router.get(
    API_ROUTES.iceServers,
    codeRoute(async (_req, res, caller, code) => {
      const result = await sessions.participant(caller, code);
      if (!result.ok) return sendRefusalOf(res, result);
      res.json(iceServersFor(ice, caller.userId));
    }),
  );

  router.get(
    API_ROUTES.events,
    codeRoute(async (_req, res, caller, code) => {
      const result = await sessions.events(caller, code);
      if (!result.ok) return sendRefusalOf(res, result);
      res.json({ events: result.events });
    }),
  );

  router.post(
    API_ROUTES.events,
    json,
    codeRoute(async (req, res, caller, code) => {
      const body = parse(SessionEventBody, bodyOf(req), SESSION_MESSAGES.badBody);
      if (!body.ok) return sendError(res, 400, body.message);
      const result = await sessions.recordEvent(caller, code, body.data);
      if (!result.ok) return sendRefusalOf(res, result);
      // Issue 15: the toggle drives the desktop app (views pushed, relay cache dropped, `control-off` releases
      // every key and button), before the answer: input sent right after it must see the new state. Issue 28 §8:
      // a state already set changed nothing, so nothing is pushed.
      const toggle = body.data.kind === "control-on" || body.data.kind === "control-off";
      if (devices && toggle && result.stored) await devices.controlToggled(code, body.data.kind === "control-on");
      res.status(result.stored ? 201 : 200).json({ event: result.event });
    }),
  );

  router.post(
    API_ROUTES.fromAssistant,
    route(
      async (req, res, caller) => {
        const result = await sessions.createFromAssistant(caller, { system: browserSystem(req) });
        if (!result.ok) return sendRefusalOf(res, result);
        res.status(result.created ? 201 : 200).json({ session: result.session, attached: result.attached });
      },
      { permission: "session:create" },
    ),
  );

  router.get(
    API_ROUTES.conversation,
    codeRoute(async (_req, res, caller, code) => {
      const result = await sessions.conversation(caller, code);
      if (!result.ok) return sendRefusalOf(res, result);
      res.json({ conversation: result.conversation });
    }),
  );

  router.get(
    API_ROUTES.queue,
    route(
      async (_req, res, caller) => {
        const result = await sessions.waitingQueue(caller);
        if (!result.ok) return sendRefusalOf(res, result);
        res.json({ entries: result.entries, at: result.at } satisfies QueueResponse);
      },
      { permission: "session:join" },
    ),
  );

  router.post(
    API_ROUTES.claim,
    codeRoute(
      async (_req, res, caller, code) => {
        const result = await sessions.claim(caller, code);
        if (!result.ok) return sendRefusalOf(res, result);
        res.json({ session: result.session });
      },
      { permission: "session:join" },
    ),
  );

  router.get(
    API_ROUTES.place,
    codeRoute(async (_req, res, caller, code) => {
      const result = await sessions.queuePlace(caller, code);
      if (!result.ok) return sendRefusalOf(res, result);
      res.json({ place: result.place } satisfies QueuePlaceResponse);
    }),
  );

  router.get(
    API_ROUTES.requests,
    route(
      async (_req, res, caller) => {
        const result = await sessions.requests(caller);
        if (!result.ok) return sendRefusalOf(res, result);
        res.json({ requests: result.requests });
      },
      { permission: "requests:read" },
    ),
  );

  router.use(createFactsRouter({ auth, sessions })); // Issue 38 §4: the computer's facts (`facts-api.ts`).
  router.use(createDashboardRouter({ auth, sessions })); // Issue 40: tab counts, « Traité » (`server/dashboard-api.ts`).
  if (devices) router.use(createDeviceRouter({ auth, devices, sessions }));

  // A database failure while reading the session cookie, or a bug: logged, never shown.
  const onError = jsonErrorHandler(SESSION_MESSAGES.badBody, "remote-support API request failed");
  router.use(onError);
  return router;
}
