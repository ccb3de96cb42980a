/**
 * What the Express server (`server/app.ts`) hands to route loaders and
 * actions through the router context: the form services (issue 4), the
 * signed-in area's account services (issue 16) and the visitor's address. Route modules only see these interfaces, never the
 * database or a mail transport.
 *
 * The server bundle and `server/app.ts` each load their own copy of this
 * module, so every context key is shared through a global symbol (as in
 * `csp-nonce.ts`).
 */
import { createContext, type RouterContext } from "react-router";
import type { ContactInput, QuoteInput, RequestKind, SubmissionResult } from "#app/requests/schemas.ts";
import type { AccountForm } from "#app/remote-support/account.ts";
import type { AccountView, SessionView } from "#app/remote-support/protocol.ts";

/** Who sent a request, for the per-IP rate limit. */
export type RequestOrigin = { ip: string };

/**
 * Stores a contact message or quote request (`kind`) with its outbox mail
 * (`server/requests.ts`): the one submit path of the route actions and the
 * API (issue 14). `input` is untrusted: a form's fields or a JSON body.
 * Never throws: a storage failure is `{ status: "failed" }`.
 */
export type FormServices = {
  submitRequest(kind: RequestKind, input: unknown, origin: RequestOrigin): Promise<SubmissionResult>;
};
export type { ContactInput, QuoteInput };

/** A router context key shared by the server bundle and `server/app.ts` (one global symbol per `name`). */
export function sharedContext<T>(name: string): RouterContext<T | undefined> {
  const key = Symbol.for(`atelier-informatique.${name}`);
  const registry = globalThis as typeof globalThis & Record<symbol, RouterContext<T | undefined> | undefined>;
  return (registry[key] ??= createContext<T | undefined>(undefined));
}

/**
 * The first view of /soft-assist (issue 16 §1), decided on the server by the
 * session cookie: signed out (`user` null), or the account with the data its
 * screen opens with, so the server's HTML is the screen and nothing jumps
 * once the JavaScript runs.
 */
export type AreaView =
  | { user: null }
  | { user: AccountView; screen: "customer"; sessions: SessionView[] }
  | { user: AccountView; screen: "technician"; active: SessionView | null; history: SessionView[] };

/** What a form of the signed-out view gave: `setCookie` to send on success (sign-in, sign-up), else a French message. */
export type AccountFormResult = { ok: true; setCookie: string[] } | { ok: false; status: number; message: string };

/**
 * The signed-in area's server side for its route (`server/account-forms.ts`).
 * `areaView` @throws when the database cannot be read (the page then says
 * the service is unavailable). `submit` never throws; it goes through
 * better-auth with the same limits and Origin check as `/api/auth`.
 */
export type AccountServices = {
  areaView(request: Request): Promise<{ view: AreaView; setCookie: string[] }>;
  submit(form: AccountForm, request: Request, origin: RequestOrigin): Promise<AccountFormResult>;
};

export const formServicesContext = sharedContext<FormServices>("form-services");
export const requestOriginContext = sharedContext<RequestOrigin>("request-origin");
export const accountServicesContext = sharedContext<AccountServices>("account-services");

/** A context value, or undefined where the server gave none (pre-rendering at build time). */
export function optionalContext<T>(
  context: { get<V>(key: RouterContext<V>): V },
  key: RouterContext<T | undefined>,
): T | undefined {
  try {
    return context.get(key);
  } catch {
    return undefined;
  }
}

/** Reads a context value the server always sets. @throws Error when it is missing (a wiring bug, not user input). */
export function requireContext<T>(context: { get<V>(key: RouterContext<V>): V }, key: RouterContext<T | undefined>): T {
  let value: T | undefined;
  try {
    value = context.get(key);
  } catch {
    // React Router throws when a context without default was never set.
  }
  if (value === undefined) throw new Error("Contexte serveur manquant : le serveur Express ne l'a pas fourni.");
  return value;
}
