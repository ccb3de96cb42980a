/**
 * Issue 40, « Demandes »: marking a contact message or quote request « Traité » (and « Remettre à traiter »).
 * The route, the body's zod schema and the French messages, shared by the server (`server/dashboard-api.ts`,
 * `server/requests-treatment.ts`) and the dashboard (`requests-view.tsx`, through `client/api.ts`).
 *
 * `POST /api/requests/:id/treatment` with `{ kind: "contact" | "quote", treated: boolean }`: 200 `RequestResponse`
 * (the request as it now is); 400 `badBody`; 404 `notFound` for an id that names no request of that kind.
 */
import { z } from "zod";
import type { TreatmentBody as TreatmentBodyShape } from "./views.ts";

/** Express pattern, relative to `/api`. */
export const REQUEST_TREATMENT_ROUTE = "/requests/:id/treatment";

/** The browser's path of request `id`'s treatment (percent-encoded: the id comes from the list, never typed). */
export function requestTreatmentPath(id: string): string {
  return `/api/requests/${encodeURIComponent(id)}/treatment`;
}

export const TREATMENT_MESSAGES = {
  /** 404: an unknown id, a malformed one, or the id of a request of the other kind. */
  notFound: "Cette demande n'existe pas ou a été supprimée.",
  /** 400: the body does not say which kind of request, or whether it is treated. */
  badBody: "Indiquez le type de demande (contact ou devis) et si elle est traitée.",
  /** The list's filter and the cards' buttons. */
  toTreat: "À traiter",
  treatedFilter: "Traitées",
  markTreated: "Marquer traitée",
  markUntreated: "Remettre à traiter",
} as const;

/** A request's id: the database's UUID. Anything else names no request (404, not 400). */
export const RequestId = z.uuid();

/** The body of the treatment route; extra keys are refused (a typo must not pass for « Traité »). */
export const TreatmentBody = z.strictObject({
  kind: z.enum(["contact", "quote"]),
  treated: z.boolean(),
}) satisfies z.ZodType<TreatmentBodyShape>;
