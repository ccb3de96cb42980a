/**
 * Who is calling (issue 5; spec §6 roles): the signed-in account behind a
 * request's or a Socket.IO handshake's session cookie, read fresh from the
 * database by better-auth on every call, so a role change (`npm run user`) or
 * a sign-out elsewhere applies to the next request.
 */
import type { IncomingHttpHeaders } from "node:http";
import { fromNodeHeaders } from "better-auth/node";
import type { Auth } from "../auth.ts";

/** A signed-in account, as the remote-support rules need it. */
export type Caller = {
  userId: string;
  name: string;
  email: string;
  /** Spec §3 `is_technician`, from the database (never from the browser). */
  isTechnician: boolean;
  /** The better-auth sign-in session (one per browser): report grants and socket rooms are keyed by it. */
  authSessionId: string;
};

/** What `resolveCaller` found; `setCookie` is better-auth's refreshed session cookie to pass on, if any. */
export type ResolvedCaller = { caller: Caller | null; setCookie: string[] };

/**
 * Reads the session cookie in `headers`.
 * @param refresh false for background checks: they must not extend the session of an idle tab.
 * @returns `caller` null when there is no valid session (absent, expired, signed out, account deleted).
 * @throws when the database cannot be read (not the same as "not signed in").
 */
export async function resolveCaller(
  auth: Auth,
  headers: IncomingHttpHeaders,
  { refresh = true }: { refresh?: boolean } = {},
): Promise<ResolvedCaller> {
  if (!headers.cookie) return { caller: null, setCookie: [] };
  const { headers: responseHeaders, response } = await auth.api.getSession({
    headers: fromNodeHeaders(headers),
    query: refresh ? undefined : { disableRefresh: true },
    returnHeaders: true,
  });
  const setCookie = responseHeaders?.getSetCookie() ?? [];
  if (!response) return { caller: null, setCookie };
  const { user, session } = response;
  return {
    caller: {
      userId: user.id,
      name: user.name,
      email: user.email,
      isTechnician: user.isTechnician === true,
      authSessionId: session.id,
    },
    setCookie,
  };
}
