/**
 * Who may do what (issue 14: one auth guard with named permissions; spec §6
 * "Roles and permissions"). The one place that turns a sign-in into a
 * `Caller`, a caller into permissions, and a missing one into a refusal.
 *
 * - The stored fact is the account's `role` column (issue 29: `customer`,
 *   `technician`, `manager` « gérant »; it replaced spec §3's `is_technician`
 *   boolean, migration 0019 copied it): `roleOf` reads it as a `Role`,
 *   `roleFields` writes it back (`npm run user`, the invitation of a
 *   technician by the manager). No other code reads or writes it.
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
 * - `requests:read`: the contact and quote requests ("Demandes"), and marking them « Traité » (issue 40);
 * - `assistant:use`: the chat assistant (issue 7), and rating its answers (issue 17 §4);
 * - `assistant:review`: the customers' ratings of the assistant's answers,
 *   with the rated exchanges ("Avis sur l'assistant", issue 17 §4);
 * - `repairs:manage`: repair tickets, their statuses and quotes ("Réparations", issue 18 §2);
 * - `staff:manage` (issue 29, the manager): the « Équipe » view, staff accounts, invitations,
 *   disabling and password-reset links (`server/staff/`);
 * - `shop:manage` (issue 29, the manager): the shop's settings and prices views (named now, opened next);
 * - `backups:read` (issue 29, the manager): the backup status.
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
  "staff:manage",
  "shop:manage",
  "backups:read",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const TECHNICIAN_PERMISSIONS = [
  "session:create",
  "assistant:use",
  "session:join",
  "session:history",
  "report:read",
  "requests:read",
  "assistant:review",
  "agenda:manage",
  "repairs:manage",
] as const satisfies readonly Permission[];

/**
 * What each role may do. A new kind of caller (the desktop app) is a new entry here.
 * The manager (« gérant », issue 29) may do everything a technician may, and run the shop.
 */
export const ROLE_PERMISSIONS = {
  customer: ["session:create", "assistant:use"],
  technician: TECHNICIAN_PERMISSIONS,
  manager: [...TECHNICIAN_PERMISSIONS, "staff:manage", "shop:manage", "backups:read"],
} as const satisfies Record<string, readonly Permission[]>;
export type Role = keyof typeof ROLE_PERMISSIONS;
/** Every role, in rank order (the database's check constraint on `users.role` lists the same). */
export const ROLES = ["customer", "technician", "manager"] as const satisfies readonly Role[];
/** The shop's own accounts (issue 29: the « Équipe » view lists them). */
export const STAFF_ROLES = ["technician", "manager"] as const satisfies readonly Role[];
/** How each role is named to people (the CLI's `list`, the « Équipe » view). */
export const ROLE_LABELS: Record<Role, string> = { customer: "client", technician: "technicien", manager: "gérant" };

/**
 * The 403 message of a permission a technician lacks (issue 29); any other
 * missing permission reads "Réservé aux techniciens." as before.
 */
const MANAGER_ONLY_MESSAGE = "Réservé au gérant de l'atelier.";
export function refusalMessage(permission: Permission): string {
  return (ROLE_PERMISSIONS.technician as readonly Permission[]).includes(permission)
    ? SESSION_MESSAGES.technicianOnly
    : MANAGER_ONLY_MESSAGE;
}

/**
 * The account's stored role field for better-auth's `user.additionalFields`
 * (`auth.ts`): `input: false`, so sign-up ignores it and update-user refuses
 * it; only `npm run user` and the staff service write it (through `roleFields`).
 */
export const ROLE_FIELDS = {
  role: { type: "string", required: false, defaultValue: "customer", input: false },
  // Issue 29: set when the manager (or `npm run user -- disable`) disables the account; read by `resolveCaller`.
  disabledAt: { type: "date", required: false, input: false },
} as const;

/** The role an account's stored fields give; anything unknown is the least one, `customer`. */
export function roleOf(account: { role?: string | null }): Role {
  return (ROLES as readonly (string | null | undefined)[]).includes(account.role) ? (account.role as Role) : "customer";
}

/** The stored fields that give an account `role` (`npm run user -- promote|demote`, an accepted invitation). */
export function roleFields(role: Role): { role: Role } {
  return { role };
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
 * @returns `caller` null when there is no valid session (absent, expired, signed out, account deleted or disabled).
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
  // Issue 29: its sessions are deleted when it is disabled; this also covers a sign-in racing the disabling.
  if (user.disabledAt) return { caller: null, setCookie };
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
 * techniciens." when the permission is missing (« Réservé au gérant de
 * l'atelier. » for the manager's, `refusalMessage`); otherwise runs `handler`.
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
        return void res.status(403).json({ message: refusalMessage(access) } satisfies ApiError);
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
