/**
 * Issue 40, « Demandes »: a staff member marks a contact message or quote request « Traité », or « Remettre à
 * traiter ». Part of `createSessionService` through `requests-inbox.ts`; the route is `server/dashboard-api.ts`,
 * the table `request_treatments` (`database/schema-requests.ts`): when and by whom, written in one row.
 *
 * Rules: `requests:read` (staff); the id must name a request of that kind, else 404 « Cette demande n'existe pas
 * ou a été supprimée. »; marking a treated request again keeps the first who and when (two technicians clicking
 * at once store one row), and « Remettre à traiter » an untreated one changes nothing.
 */
import { count, eq, isNull } from "drizzle-orm";
import type { AppDatabase } from "#database/connection.ts";
import { contactRequests, quoteRequests } from "#database/schema.ts";
import { requestTreatments } from "#database/schema-requests.ts";
import { RequestId, TREATMENT_MESSAGES } from "#app/requests/treatment.ts";
import type { RequestView, TreatmentBody } from "#app/requests/views.ts";
import { can, type Caller } from "./access.ts";
import { refuse, type Outcome, type Refusal, type SessionContext } from "./remote-support/session-rules.ts";
import { readRequests } from "./requests-rows.ts";

export type RequestsTreatment = {
  /**
   * Marks request `id` (untrusted: anything but a UUID is unknown) of `body.kind` « Traité » by `caller` when
   * `body.treated`, else « À traiter » again. `body` is already validated (`TreatmentBody`).
   * @returns the request as it now is; refusals: not signed in, not permitted, `not-found` (message
   * `TREATMENT_MESSAGES.notFound`), `failed` (database).
   */
  setRequestTreated(caller: Caller | null, id: string, body: TreatmentBody): Promise<Outcome<{ request: RequestView }>>;
};

const notFound: Refusal = { ...refuse("not-found"), message: TREATMENT_MESSAGES.notFound };

/** How many contact messages and quote requests are not marked « Traité » (the « Demandes » tab's count). */
export async function untreatedRequestCount(db: AppDatabase): Promise<number> {
  const [[contacts], [quotes]] = await Promise.all([
    db
      .select({ n: count() })
      .from(contactRequests)
      .leftJoin(requestTreatments, eq(requestTreatments.contactRequestId, contactRequests.id))
      .where(isNull(requestTreatments.id)),
    db
      .select({ n: count() })
      .from(quoteRequests)
      .leftJoin(requestTreatments, eq(requestTreatments.quoteRequestId, quoteRequests.id))
      .where(isNull(requestTreatments.id)),
  ]);
  return (contacts?.n ?? 0) + (quotes?.n ?? 0);
}

/** The treatment method of the session service (see `RequestsTreatment`). */
export function createRequestsTreatment(context: SessionContext): RequestsTreatment {
  const { db, guarded } = context;
  return {
    setRequestTreated(caller, id, body) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      if (!can(caller, "requests:read")) return Promise.resolve(refuse("not-permitted"));
      if (!RequestId.safeParse(id).success) return Promise.resolve(notFound);
      return guarded("Erreur lors du marquage d'une demande", async () => {
        const table = body.kind === "contact" ? contactRequests : quoteRequests;
        const column = body.kind === "contact" ? requestTreatments.contactRequestId : requestTreatments.quoteRequestId;
        const found = await db.transaction(async (tx) => {
          // Held until the commit: a purge deleting the request waits, so no treatment points at a gone row.
          const [request] = await tx.select({ id: table.id }).from(table).where(eq(table.id, id)).for("key share");
          if (!request) return false;
          if (!body.treated) {
            await tx.delete(requestTreatments).where(eq(column, id));
            return true;
          }
          const target = body.kind === "contact" ? { contactRequestId: id } : { quoteRequestId: id };
          // When and who in one row (`treated_at` the database's clock); a second click keeps the first.
          await tx
            .insert(requestTreatments)
            .values({ ...target, treatedBy: caller.userId })
            .onConflictDoNothing();
          return true;
        });
        if (!found) return notFound;
        const [request] = await readRequests(db, body.kind, { where: eq(table.id, id), limit: 1 });
        return request ? { ok: true, request } : notFound;
      });
    },
  };
}
