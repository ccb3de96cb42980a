/**
 * Issue 29: the staff API under `/api/staff` (table in `app/staff/protocol.ts`), mounted before the forms
 * router (whose catch-all answers 404). The manager's routes are behind `staff:manage` (401 « Utilisateur
 * non connecté », 403 « Réservé au gérant de l'atelier. »); the four link routes are public, each call
 * counted per IP address (`LINK_LIMIT`), and answer with the sign-in cookie once the account is made.
 *
 * Bodies: JSON only, at most `STAFF_BODY_LIMIT_BYTES`; unreadable JSON 400, too large 413, another type
 * 415: never a 5xx for bad bytes. Every answer is `Cache-Control: no-store`.
 */
import express, { type Request, type Response } from "express";
import { STAFF_MESSAGES } from "#app/staff/protocol.ts";
import { createGuards, type Caller } from "#server/access.ts";
import type { Auth } from "#server/auth.ts";
import { isJsonRequest, jsonApiErrors, noStore } from "#server/json-api.ts";
import type { StaffRefusal } from "./link-accounts.ts";
import type { Manager, StaffService } from "./service.ts";

/** Largest body: a name, an address and a password in JSON, with room to spare. */
export const STAFF_BODY_LIMIT_BYTES = 4 * 1024;

type Answer = ({ ok: true } & Record<string, unknown>) | StaffRefusal;

/** Sends a service answer: `status` on success (without `ok` and `setCookie`), else the refusal. */
/** An account's id as better-auth makes them (letters, digits, `-`, `_`); an invitation's is a UUID. */
const MEMBER_ID = /^[A-Za-z0-9_-]{1,64}$/;
const INVITATION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function send(res: Response, answer: Answer, status = 200): void {
  if (!answer.ok) {
    if (answer.retryAfterSeconds !== undefined) res.setHeader("Retry-After", String(answer.retryAfterSeconds));
    res.status(answer.status).json({ message: answer.message, fieldErrors: answer.fieldErrors });
    return;
  }
  const { ok: _ok, setCookie, ...body } = answer as { ok: true; setCookie?: string[] } & Record<string, unknown>;
  for (const cookie of setCookie ?? []) res.append("Set-Cookie", cookie);
  res.status(status).json(setCookie ? { message: STAFF_MESSAGES.created, ...body } : body);
}

const managerOf = (caller: Caller): Manager => ({ userId: caller.userId, name: caller.name });

/** The router of the table in `app/staff/protocol.ts`. */
export function createStaffRouter({ auth, staff }: { auth: Auth; staff: StaffService }): express.Router {
  const router = express.Router();
  const json = express.json({ limit: STAFF_BODY_LIMIT_BYTES });
  const { requirePermission } = createGuards(auth);
  const ipOf = (req: Request) => req.ip ?? "inconnue";
  router.use("/staff", noStore);
  // Issue 37 §7: an id is checked before any query (`%00` reached PostgreSQL and answered 500).
  router.param("id", (req, res, next, id: string) => {
    const invitation = req.path.startsWith("/staff/invitations/");
    if ((invitation ? INVITATION_ID : MEMBER_ID).test(id)) return next();
    res.status(404).json({ message: invitation ? STAFF_MESSAGES.invitationNotFound : STAFF_MESSAGES.notFound });
  });

  router.get(
    "/staff",
    requirePermission("staff:manage", async (_req, res) => {
      res.json(await staff.list());
    }),
  );
  router.post(
    "/staff/invitations",
    json,
    requirePermission("staff:manage", async (req, res, caller) => {
      if (isJsonRequest(req, res)) send(res, await staff.invite(managerOf(caller), req.body), 201);
    }),
  );
  router.delete(
    "/staff/invitations/:id",
    requirePermission("staff:manage", async (req, res, caller) => {
      send(res, await staff.revoke(managerOf(caller), String(req.params.id)));
    }),
  );
  for (const [action, disabled] of [
    ["disable", true],
    ["enable", false],
  ] as const) {
    router.post(
      `/staff/members/:id/${action}`,
      requirePermission("staff:manage", async (req, res, caller) => {
        send(res, await staff.setDisabled(managerOf(caller), String(req.params.id), disabled));
      }),
    );
  }
  router.post(
    "/staff/members/:id/password-reset",
    requirePermission("staff:manage", async (req, res, caller) => {
      send(res, await staff.sendPasswordReset(managerOf(caller), String(req.params.id)));
    }),
  );

  // Public: whoever holds the link (no account yet). Limited per IP address inside the service.
  router.post("/staff/invitation/check", json, async (req, res) => {
    if (isJsonRequest(req, res)) send(res, await staff.checkInvitation(req.body, ipOf(req)));
  });
  router.post("/staff/invitation/accept", json, async (req, res) => {
    if (isJsonRequest(req, res)) send(res, await staff.acceptInvitation(req.body, ipOf(req)), 201);
  });
  router.post("/staff/setup/check", json, async (req, res) => {
    if (isJsonRequest(req, res)) send(res, await staff.checkSetup(req.body, ipOf(req)));
  });
  router.post("/staff/setup", json, async (req, res) => {
    if (isJsonRequest(req, res)) send(res, await staff.completeSetup(req.body, ipOf(req)), 201);
  });

  router.use("/staff", jsonApiErrors("staff API request failed", { status: 500, message: STAFF_MESSAGES.failed }));
  return router;
}
