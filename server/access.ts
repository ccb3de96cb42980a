/**
 * Who may do what (issue 14: one auth guard with named permissions; spec §6
 * "Roles and permissions"). The one place that turns a sign-in into a
 * `Caller`, a caller into permissions, and a missing one into a refusal.
 *
 * - The stored fact stays the account's `is_technician` boolean (spec §3,
 *   set only by `npm run user`): `roleOf` reads it as a `Role`,
 *   `roleFields` writes it back. No other code reads it.
 * - `ROLE_PERMISSIONS` says what each role may do, by `Permission` name.
 *   Code asks `can(caller, "report:read")`, never which role a caller has,
 *   so a new role (the desktop app's, say `session:share`, `input:inject`)
 *   is one entry in this table (docs/decisions/006-permissions.md).
 * - Guards: every signed-in HTTP route under `/api` is built with
 *   `createGuards(auth)` (`requireCaller`, `requirePermission`): 401
 *   "Utilisateur non connecté" without a valid session, 403 "Réservé aux
 *   techniciens." without the permission, before the handler reads the body.
 *   Socket.IO handshakes go through `requireSocketCaller`. The rules of the
 *   session service check `can` too, whoever calls them.
 *
 * Caller resolution (issue 5): the account is read fresh from the database by
 * better-auth on every call, so a role change or a sign-out elsewhere applies
 * to the next request.
 */
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { fromNodeHeaders } from "better-auth/node";
import type { Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import { SESSION_MESSAGES, type ApiError } from "#app/remote-support/protocol.ts";
import type { Auth } from "./auth.ts";

/**
 * Everything the server checks beyond "signed in", named after what it
 * opens (`area:action`):
 * - `session:create`: start a remote-support session and list one's own (customer side);
 * - `session:join`: join someone's session by its code;
 * - `session:history`: the sessions one joined (the one in progress and the
 *   history), and being told when they change (Socket.IO `technicians` room);
 * - `report:read`: the password check, then a joined session's report;
 * - `requests:read`: the contact and quote requests ("Demandes");
 * - `assistant:use`: the chat assistant (issue 7), and rating its answers (issue 17 §4);
 * - `assistant:review`: the customers' ratings of the assistant's answers,
 *   with the rated exchanges ("Avis sur l'assistant", issue 17 §4);
 * - `repairs:manage`: repair tickets, their statuses and quotes ("Réparations", issue 18 §2).
 */
export const PERMISSIONS = [
  "session:create",
  "session:join",
  "session:history",
  "report:read",
  "requests:read",
  "assistant:use",
  "assistant:review",
  "agenda:manage",
  "repairs:manage",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** What each role may do. A new kind of caller (the desktop app) is a new entry here. */
export const ROLE_PERMISSIONS = {
  customer: ["session:create", "assistant:use"],
  technician: [
    "session:create",
    "assistant:use",
    "session:join",
    "session:history",
    "report:read",
    "requests:read",
    "assistant:review",
    "agenda:manage",
    "repairs:manage",
  ],
} as const satisfies Record<string, readonly Permission[]>;
export type Role = keyof typeof ROLE_PERMISSIONS;

/**
 * The account's stored role field for better-auth's `user.additionalFields`
 * (`auth.ts`): `input: false`, so sign-up ignores it and update-user refuses
 * it; only `npm run user` writes it (through `roleFields`).
 */
export const ROLE_FIELDS = {
  isTechnician: { type: "boolean", required: false, defaultValue: false, input: false },
} as const;

/** The role an account's stored fields give (spec §6: technician when `is_technician` is true). */
export function roleOf(account: { isTechnician?: boolean | null }): Role {
  return account.isTechnician === true ? "technician" : "customer";
}

/** The stored fields that give an account `role` (`npm run user -- promote|demote`). */
export function roleFields(role: Role): { isTechnician: boolean } {
  return { isTechnician: role === "technician" };
}

/** A signed-in account, as the rules need it. */
export type Caller = {
  userId: string;
  name: string;
  email: string;
  /** From the database (never from the browser): what the caller may do is `permissionsOf` it. */
  role: Role;
  /** The better-auth sign-in session (one per browser): report grants and socket rooms are keyed by it. */
  authSessionId: string;
};

/** Everything `caller` may do. */
export function permissionsOf(caller: Pick<Caller, "role">): readonly Permission[] {
  return ROLE_PERMISSIONS[caller.role];
}

/** Whether `caller` may do `permission`. */
export function can(caller: Pick<Caller, "role">, permission: Permission): boolean {
  return permissionsOf(caller).includes(permission);
}

/** What `resolveCaller` found; `setCookie` is better-auth's refreshed session cookie to pass on, if any. */
export type ResolvedCaller = { caller: Caller | null; setCookie: string[] };

/**
 * Reads the session cookie in `headers` (Node's, or a fetch `Headers` as route loaders get).
 * @param refresh false for background checks: they must not extend the session of an idle tab.
 * @returns `caller` null when there is no valid session (absent, expired, signed out, account deleted).
 * @throws when the database cannot be read (not the same as "not signed in").
 */
export async function resolveCaller(
  auth: Auth,
  headers: IncomingHttpHeaders | Headers,
  { refresh = true }: { refresh?: boolean } = {},
): Promise<ResolvedCaller> {
  const fetchHeaders = headers instanceof Headers ? headers : fromNodeHeaders(headers);
  if (!fetchHeaders.has("cookie")) return { caller: null, setCookie: [] };
  const { headers: responseHeaders, response } = await auth.api.getSession({
    headers: fetchHeaders,
    query: refresh ? undefined : { disableRefresh: true },
    returnHeaders: true,
  });
  const setCookie = responseHeaders?.getSetCookie() ?? [];
  if (!response) return { caller: null, setCookie };
  const { user, session } = response;
  return {
    caller: { userId: user.id, name: user.name, email: user.email, role: roleOf(user), authSessionId: session.id },
    setCookie,
  };
}

/** A route's work once the guard let the caller in. */
export type GuardedHandler = (req: Request, res: Response, caller: Caller) => Promise<void>;

/** What a guarded handler requires: any signed-in account, or one holding a permission. */
export type Access = "signed-in" | Permission;

/** Handlers built by `createGuards`, with what they require (read by `accessOf`). */
const guardedHandlers = new WeakMap<object, Access>();

/**
 * What an Express handler built by `createGuards` requires, or undefined for
 * any other handler (tests walk the routers with it: no route under `/api`
 * but the public ones may do without a guard).
 */
export function accessOf(handler: unknown): Access | undefined {
  return typeof handler === "function" ? guardedHandlers.get(handler) : undefined;
}

/**
 * The HTTP guards of every signed-in route. Each returns an Express handler
 * that answers `Cache-Control: no-store`, passes on better-auth's refreshed
 * cookie, then refuses with `{ message }` (`ApiError`): 401
 * "Utilisateur non connecté" without a valid session, 403 "Réservé aux
 * techniciens." when the permission is missing; otherwise runs `handler`.
 * A database failure while reading the session is thrown to the router's
 * error handler (500).
 */
export function createGuards(auth: Auth): {
  requireCaller(handler: GuardedHandler): RequestHandler;
  requirePermission(permission: Permission, handler: GuardedHandler): RequestHandler;
} {
  const guard = (access: Access, handler: GuardedHandler): RequestHandler => {
    const guarded: RequestHandler = async (req, res) => {
      res.setHeader("Cache-Control", "no-store");
      const { caller, setCookie } = await resolveCaller(auth, req.headers);
      // better-auth may refresh the session cookie; the browser must get it like from /api/auth.
      for (const cookie of setCookie) res.append("Set-Cookie", cookie);
      if (!caller) return void res.status(401).json({ message: SESSION_MESSAGES.notSignedIn } satisfies ApiError);
      if (access !== "signed-in" && !can(caller, access)) {
        return void res.status(403).json({ message: SESSION_MESSAGES.technicianOnly } satisfies ApiError);
      }
      await handler(req, res, caller);
    };
    guardedHandlers.set(guarded, access);
    return guarded;
  };
  return {
    requireCaller: (handler) => guard("signed-in", handler),
    requirePermission: (permission, handler) => guard(permission, handler),
  };
}

/**
 * The Socket.IO handshake guard (`io.use(…)`): a connection without a valid
 * session is refused with the error "Utilisateur non connecté" (the client's
 * `connect_error`), and with "Une erreur est survenue…" (`SESSION_MESSAGES.failed`,
 * logged) when the database cannot be read. Otherwise `accept` keeps the caller
 * (in `socket.data`) before the connection goes on.
 */
export function requireSocketCaller<S extends { request: IncomingMessage }>(
  auth: Auth,
  logger: Logger,
  accept: (socket: S, caller: Caller) => void,
): (socket: S, next: (error?: Error) => void) => Promise<void> {
  return async (socket, next) => {
    try {
      const { caller } = await resolveCaller(auth, socket.request.headers);
      if (!caller) return next(new Error(SESSION_MESSAGES.notSignedIn));
      accept(socket, caller);
      next();
    } catch (error) {
      logger.error({ err: error }, "Socket.IO : lecture de la session impossible");
      next(new Error(SESSION_MESSAGES.failed));
    }
  };
}
