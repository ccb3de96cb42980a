/**
 * The technicians' "Demandes" inbox as the API answers it (issue 4 requests,
 * moved here from the remote-support protocol by issue 14): the JSON shapes
 * of `GET /api/requests` (and issue 40's « Traité »), shared by the server
 * (`server/requests-inbox.ts`) and the dashboard (`requests-view.tsx`). Types
 * only. Times ISO 8601.
 */

/** The outbox delivery of a request's mail. */
export type DeliveryView = {
  status: "pending" | "sent";
  attempts: number;
  lastError: string | null;
  sentAt: string | null;
};
/**
 * Issue 40: a request marked « Traité »: when, and the name of the staff member who did it (null once that
 * account was deleted).
 */
export type TreatmentView = { at: string; byName: string | null };
/** The two kinds of requests, as `RequestView.kind` and the treatment's body name them. */
export type RequestKind = "contact" | "quote";
/**
 * A contact message or quote request (spec §3) as `GET /api/requests` lists it; `delivery` null if no mail was
 * queued; `treated` null while it is « À traiter » (issue 40).
 */
export type RequestView =
  | {
      kind: "contact";
      id: string;
      createdAt: string;
      name: string;
      email: string;
      message: string;
      delivery: DeliveryView | null;
      treated: TreatmentView | null;
    }
  | {
      kind: "quote";
      id: string;
      createdAt: string;
      companyName: string;
      contactName: string;
      email: string;
      phone: string;
      description: string;
      domain: string;
      emailOption: string;
      budget: string;
      delivery: DeliveryView | null;
      treated: TreatmentView | null;
    };
/** `GET /api/requests`: those « À traiter » first, then the treated ones; newest first in each. */
export type RequestListResponse = { requests: RequestView[] };
/** Issue 40, `POST /api/requests/:id/treatment`'s body (`TreatmentBody` in `treatment-schemas.ts`). */
export type TreatmentBody = { kind: RequestKind; treated: boolean };
/** Issue 40, `POST /api/requests/:id/treatment`: the request as it now is. */
export type RequestResponse = { request: RequestView };
