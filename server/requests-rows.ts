/**
 * Issue 40: the requests of the "Demandes" view as the API shows them (`RequestView`), read with their mail's
 * delivery and their « Traité » state in one query per kind. Shared by the list (`requests-inbox.ts`) and the
 * treatment (`requests-treatment.ts`), which answers the request as it now is.
 */
import { asc, desc, eq, sql, type SQL } from "drizzle-orm";
import type { AppDatabase } from "#database/connection.ts";
import { contactRequests, outboxMessages, quoteRequests, users } from "#database/schema.ts";
import { requestTreatments } from "#database/schema-requests.ts";
import type { DeliveryView, RequestKind, RequestView, TreatmentView } from "#app/requests/views.ts";

/** An outbox row's delivery columns, all null when the request has no mail (left join). */
type DeliveryRow = {
  status: "pending" | "sent" | null;
  attempts: number | null;
  lastError: string | null;
  sentAt: Date | null;
};

/** A treatment's columns, all null while the request is « À traiter » (left join); `byName` null once the account is gone. */
type TreatmentRow = { id: string | null; at: Date | null; byName: string | null };

const delivery = {
  status: outboxMessages.status,
  attempts: outboxMessages.attempts,
  lastError: outboxMessages.lastError,
  sentAt: outboxMessages.sentAt,
};
const treatment = { id: requestTreatments.id, at: requestTreatments.treatedAt, byName: users.name };
/** Untreated first (false sorts before true). */
const treatedFirstLast = asc(sql`${requestTreatments.id} is not null`);

function toDelivery(row: DeliveryRow | null): DeliveryView | null {
  return !row?.status
    ? null
    : {
        status: row.status,
        attempts: row.attempts ?? 0,
        lastError: row.lastError,
        sentAt: row.sentAt?.toISOString() ?? null,
      };
}

function toTreatment(row: TreatmentRow | null): TreatmentView | null {
  return row?.id && row.at ? { at: row.at.toISOString(), byName: row.byName } : null;
}

/**
 * Requests of `kind` as the view shows them, untreated first then newest first; `where` narrows them (one id),
 * `limit` bounds them.
 */
export async function readRequests(
  db: AppDatabase,
  kind: RequestKind,
  { where, limit }: { where?: SQL; limit: number },
): Promise<RequestView[]> {
  if (kind === "contact") {
    const rows = await db
      .select({ request: contactRequests, delivery, treatment })
      .from(contactRequests)
      .leftJoin(outboxMessages, eq(outboxMessages.requestId, contactRequests.id))
      .leftJoin(requestTreatments, eq(requestTreatments.contactRequestId, contactRequests.id))
      .leftJoin(users, eq(users.id, requestTreatments.treatedBy))
      .where(where)
      .orderBy(treatedFirstLast, desc(contactRequests.createdAt))
      .limit(limit);
    return rows.map(({ request, delivery, treatment }) => ({
      kind: "contact" as const,
      id: request.id,
      createdAt: request.createdAt.toISOString(),
      name: request.name,
      email: request.email,
      message: request.message,
      delivery: toDelivery(delivery),
      treated: toTreatment(treatment),
    }));
  }
  const rows = await db
    .select({ request: quoteRequests, delivery, treatment })
    .from(quoteRequests)
    .leftJoin(outboxMessages, eq(outboxMessages.requestId, quoteRequests.id))
    .leftJoin(requestTreatments, eq(requestTreatments.quoteRequestId, quoteRequests.id))
    .leftJoin(users, eq(users.id, requestTreatments.treatedBy))
    .where(where)
    .orderBy(treatedFirstLast, desc(quoteRequests.createdAt))
    .limit(limit);
  return rows.map(({ request, delivery, treatment }) => ({
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
    treated: toTreatment(treatment),
  }));
}

/** The list's order across both kinds: « À traiter » first, then newest first. */
export function compareRequests(a: RequestView, b: RequestView): number {
  const treated = Number(a.treated !== null) - Number(b.treated !== null);
  return treated !== 0 ? treated : Date.parse(b.createdAt) - Date.parse(a.createdAt);
}
