/**
 * Issue 38 §4, « The computer's facts, before the technician joins » (`app/remote-support/facts-protocol.ts`):
 * where the server keeps what the desktop app said of the computer, and who reads it.
 *
 * - Stored (`storeComputerFacts`) in the transaction that starts the session from the app (`app-sessions.ts`) or
 *   pairs the app (`device-pairing.ts`), from bodies the protocol's zod schema already validated and bounded
 *   (`DeviceSessionBody`, `DevicePairBody`, their `facts`); one row per session in `session_computer_facts`
 *   (`database/schema-facts.ts`), deleted with the session. A pairing without facts (the customer unticked them)
 *   removes the previous computer's: the technician never reads another computer's facts as this one's.
 * - Read (`loadComputerFacts`, validated again on the way out) by the waiting queue (its short line,
 *   `waiting-queue.ts`), the session's report (`session-record.ts`) and `GET /api/sessions/:code/facts`
 *   (`computerFacts`, below; `facts-api.ts`): the session's technician only, once he joined it.
 * - Logs carry the session's id only, never a fact.
 */
import { eq } from "drizzle-orm";
import type { AppDatabase } from "#database/connection.ts";
import { sessionComputerFacts } from "#database/schema-facts.ts";
import { readComputerFacts, type ComputerFacts } from "#app/remote-support/facts-protocol.ts";
import { can, type Caller } from "#server/access.ts";
import { refuse, roleIn, type Outcome, type SessionContext, type Transaction } from "./session-rules.ts";

/**
 * Writes `facts` as session `sessionId`'s (replacing earlier ones), or removes them when `facts` is null or
 * undefined (the customer did not consent). Runs inside the caller's transaction. @throws on a database failure.
 */
export async function storeComputerFacts(
  tx: Transaction,
  sessionId: string,
  facts: ComputerFacts | null | undefined,
): Promise<void> {
  if (!facts) {
    await tx.delete(sessionComputerFacts).where(eq(sessionComputerFacts.sessionId, sessionId));
    return;
  }
  const receivedAt = new Date();
  await tx
    .insert(sessionComputerFacts)
    .values({ sessionId, facts, receivedAt })
    .onConflictDoUpdate({ target: sessionComputerFacts.sessionId, set: { facts, receivedAt } });
}

/** Session `sessionId`'s facts, or null when none were sent (or what is stored is not facts). @throws on a database failure. */
export async function loadComputerFacts(db: AppDatabase, sessionId: string): Promise<ComputerFacts | null> {
  const [row] = await db
    .select({ facts: sessionComputerFacts.facts })
    .from(sessionComputerFacts)
    .where(eq(sessionComputerFacts.sessionId, sessionId))
    .limit(1);
  return row ? readComputerFacts(row.facts) : null;
}

/** The facts' method of `SessionService`. */
export type ComputerFactsMethods = {
  /**
   * `GET /api/sessions/:code/facts`: session `code`'s facts (null when none were sent), for its technician
   * (`session:join`, joined to it). Refusals: "not-signed-in", "not-permitted", "not-found", "not-participant"
   * (answered as "not-found"), "failed".
   */
  computerFacts(caller: Caller | null, code: string): Promise<Outcome<{ facts: ComputerFacts | null }>>;
};

/** The method above over `context` (part of `createSessionService`). */
export function createComputerFacts(context: SessionContext): ComputerFactsMethods {
  const { db, guarded, findByCode } = context;
  return {
    computerFacts(caller, code) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      if (!can(caller, "session:join")) return Promise.resolve(refuse("not-permitted"));
      return guarded("Erreur lors de la lecture des informations de l'ordinateur", async () => {
        const session = await findByCode(code);
        if (!session) return refuse("not-found");
        if (roleIn(session, caller) !== "technician") return refuse("not-participant");
        return { ok: true, facts: await loadComputerFacts(db, session.id) };
      });
    },
  };
}
