/**
 * The technicians' "Demandes" inbox as the API answers it (issue 4 requests,
 * moved here from the remote-support protocol by issue 14): the JSON shapes
 * of `GET /api/requests`, shared by the server (`server/requests-inbox.ts`)
 * and the dashboard (`requests-view.tsx`). Types only. Times ISO 8601.
 */

/** The outbox delivery of a request's mail. */
export type DeliveryView = {
  status: "pending" | "sent";
  attempts: number;
  lastError: string | null;
  sentAt: string | null;
};
/** A contact message or quote request (spec §3) as `GET /api/requests` lists it; `delivery` null if no mail was queued. */
export type RequestView =
  | {
      kind: "contact";
      id: string;
      createdAt: string;
      name: string;
      email: string;
      message: string;
      delivery: DeliveryView | null;
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
    };
/** `GET /api/requests`: newest first. */
export type RequestListResponse = { requests: RequestView[] };
