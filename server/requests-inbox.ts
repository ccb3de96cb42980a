/**
 * The technicians' "Demandes" view (issue 4 requests, shown in the
 * remote-support dashboard): contact and quote requests with their mail's
 * delivery state and, issue 40, whether a staff member marked them « Traité »
 * (when, by whom): those « À traiter » first, then the treated ones, newest
 * first in each. Requests are accepted in `requests.ts`; marking them is
 * `requests-treatment.ts`. This is the reading side, part of
 * `createSessionService` (`remote-support/sessions.ts`, issue 14).
 */
import type { RequestView } from "#app/requests/views.ts";
import { can, type Caller } from "./access.ts";
import { LIST_LIMIT, refuse, type Outcome, type SessionContext } from "./remote-support/session-rules.ts";
import { compareRequests, readRequests } from "./requests-rows.ts";
import { createRequestsTreatment, type RequestsTreatment } from "./requests-treatment.ts";

/** The requests methods of `SessionService`: the list here, « Traité » in `requests-treatment.ts`. */
export type RequestsInbox = RequestsTreatment & {
  /** Needs `requests:read`. At most `LIST_LIMIT` requests: every one « À traiter » comes before a treated one. */
  requests(caller: Caller | null): Promise<Outcome<{ requests: RequestView[] }>>;
};

/** The requests methods of the session service (see `RequestsInbox`). */
export function createRequestsInbox(context: SessionContext): RequestsInbox {
  const { db, guarded } = context;
  return {
    ...createRequestsTreatment(context),
    requests(caller) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      if (!can(caller, "requests:read")) return Promise.resolve(refuse("not-permitted"));
      return guarded("Erreur lors de la récupération des demandes", async () => {
        const [contacts, quotes] = await Promise.all([
          readRequests(db, "contact", { limit: LIST_LIMIT }),
          readRequests(db, "quote", { limit: LIST_LIMIT }),
        ]);
        return { ok: true, requests: [...contacts, ...quotes].sort(compareRequests).slice(0, LIST_LIMIT) };
      });
    },
  };
}
