/**
 * What the Express server (`server/app.ts`) hands to route loaders and
 * actions through the router context: the form services (issue 4) and the
 * visitor's address. Route modules only see these interfaces, never the
 * database or a mail transport.
 *
 * The server bundle and `server/app.ts` each load their own copy of this
 * module, so every context key is shared through a global symbol (as in
 * `csp-nonce.ts`).
 */
import { createContext, type RouterContext } from "react-router";
import type { ContactInput, QuoteInput, RequestKind, SubmissionResult } from "#app/requests/schemas.ts";

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

function sharedContext<T>(name: string): RouterContext<T | undefined> {
  const key = Symbol.for(`atelier-informatique.${name}`);
  const registry = globalThis as typeof globalThis & Record<symbol, RouterContext<T | undefined> | undefined>;
  return (registry[key] ??= createContext<T | undefined>(undefined));
}

export const formServicesContext = sharedContext<FormServices>("form-services");
export const requestOriginContext = sharedContext<RequestOrigin>("request-origin");

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
