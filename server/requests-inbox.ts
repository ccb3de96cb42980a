/**
 * The technicians' "Demandes" view (issue 4 requests, shown in the
 * remote-support dashboard): contact and quote requests, newest first, with
 * their mail's delivery state. Requests are accepted in `requests.ts`; this
 * is the reading side, part of `createSessionService`
 * (`remote-support/sessions.ts`, issue 14).
 */
import { desc, eq } from "drizzle-orm";
import { contactRequests, outboxMessages, quoteRequests } from "#database/schema.ts";
import type { DeliveryView, RequestView } from "#app/requests/views.ts";
import { can, type Caller } from "./access.ts";
import { LIST_LIMIT, refuse, type Outcome, type SessionContext } from "./remote-support/session-rules.ts";

/** The requests method of `SessionService` (documented there, in `remote-support/sessions.ts`). */
export type RequestsInbox = {
  requests(caller: Caller | null): Promise<Outcome<{ requests: RequestView[] }>>;
};

/** An outbox row's delivery columns, all null when the request has no mail (left join). */
type DeliveryRow = {
  status: "pending" | "sent" | null;
  attempts: number | null;
  lastError: string | null;
  sentAt: Date | null;
};

export function createRequestsInbox(context: SessionContext): RequestsInbox {
  const { db, guarded } = context;
  return {
    requests(caller) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      if (!can(caller, "requests:read")) return Promise.resolve(refuse("not-permitted"));
      return guarded("Erreur lors de la récupération des demandes", async () => {
        const delivery = {
          status: outboxMessages.status,
          attempts: outboxMessages.attempts,
          lastError: outboxMessages.lastError,
          sentAt: outboxMessages.sentAt,
        };
        const [contacts, quotes] = await Promise.all([
          db
            .select({ request: contactRequests, delivery })
            .from(contactRequests)
            .leftJoin(outboxMessages, eq(outboxMessages.requestId, contactRequests.id))
            .orderBy(desc(contactRequests.createdAt))
            .limit(LIST_LIMIT),
          db
            .select({ request: quoteRequests, delivery })
            .from(quoteRequests)
            .leftJoin(outboxMessages, eq(outboxMessages.requestId, quoteRequests.id))
            .orderBy(desc(quoteRequests.createdAt))
            .limit(LIST_LIMIT),
        ]);
        const toDelivery = (row: DeliveryRow | null): DeliveryView | null =>
          !row?.status
            ? null
            : {
                status: row.status,
                attempts: row.attempts ?? 0,
                lastError: row.lastError,
                sentAt: row.sentAt?.toISOString() ?? null,
              };
        const views: (RequestView & { at: number })[] = [
          ...contacts.map(({ request, delivery }) => ({
            kind: "contact" as const,
            id: request.id,
            createdAt: request.createdAt.toISOString(),
            name: request.name,
            email: request.email,
            message: request.message,
            delivery: toDelivery(delivery),
            at: request.createdAt.getTime(),
          })),
          ...quotes.map(({ request, delivery }) => ({
            kind: "quote" as const,
            id: request.id,
            createdAt: request.createdAt.toISOString(),
            companyName: request.companyName,
            contactName: request.contactName,
            email: request.email,
            phone: request.phone,
            description: request.description,
            domain: request.domain,
            emailOption: request.emailOption,
            budget: request.budget,
            delivery: toDelivery(delivery),
            at: request.createdAt.getTime(),
          })),
        ];
        views.sort((a, b) => b.at - a.at);
        return { ok: true, requests: views.slice(0, LIST_LIMIT).map(({ at: _at, ...view }) => view as RequestView) };
      });
    },
  };
}
