/**
 * A session's lifecycle (spec §4 states and transitions, §5 connection code,
 * §6 roles, §7 "Create session" and "History"; issue 13 §4 and §8): create,
 * join (code expiry, join and creation limits), disconnect, end by the
 * server, and the lists and checks of who takes part (active, history, mine,
 * participant). Part of `createSessionService` (`sessions.ts`, issue 14).
 */
import { and, desc, eq, gt, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import { sessionEvents, sessions } from "#database/schema.ts";
import type { SessionView } from "#app/remote-support/protocol.ts";
import { can, type Caller } from "#server/access.ts";
import { consume, createRateLimiter } from "#server/rate-limit.ts";
import {
  CODE_ATTEMPTS,
  LIST_LIMIT,
  endInTransaction,
  refuse,
  roleIn,
  sessionView,
  sessionViews,
  toSessionView,
  type Outcome,
  type Refusal,
  type SessionContext,
  type SessionRow,
  type Transaction,
} from "./session-rules.ts";

/** The lifecycle methods of `SessionService` (documented there, in `sessions.ts`). */
export type SessionLifecycle = {
  create(
    caller: Caller | null,
    input: { code?: string; system?: string | null },
  ): Promise<Outcome<{ session: SessionView; created: boolean }>>;
  join(caller: Caller | null, code: string): Promise<Outcome<{ session: SessionView }>>;
  claim(caller: Caller | null, code: string): Promise<Outcome<{ session: SessionView }>>;
  disconnect(caller: Caller | null, code: string): Promise<Outcome<{ session: SessionView; changed: boolean }>>;
  endByServer(code: string): Promise<Outcome<{ session: SessionView | null }>>;
  active(caller: Caller | null): Promise<Outcome<{ session: SessionView | null }>>;
  history(caller: Caller | null): Promise<Outcome<{ sessions: SessionView[] }>>;
  mine(caller: Caller | null): Promise<Outcome<{ sessions: SessionView[] }>>;
  participant(
    caller: Caller | null,
    code: string,
  ): Promise<Outcome<{ role: "customer" | "technician"; session: SessionView }>>;
  expireCodes(): Promise<Outcome<{ ended: number }>>;
};

export function createLifecycle(context: SessionContext): SessionLifecycle {
  const { db, logger, announce, guarded, findByCode, generateCode, rateLimits, codeTtlSeconds, limits } = context;
  const joinLimiter = createRateLimiter(rateLimits, { name: "session-join", ...limits.joins });
  const joinFailureLimiter = createRateLimiter(rateLimits, { name: "session-join-failure", ...limits.joinFailures });
  const createLimiter = createRateLimiter(rateLimits, { name: "session-create", ...limits.creations });

  /** Issue 13 §8: an open session nobody joined whose code is older than `codeTtlSeconds`. */
  const expiredSql = () =>
    and(
      isNull(sessions.endTime),
      isNull(sessions.startTime),
      lte(sessions.createdAt, sql`now() - (${codeTtlSeconds}::integer * interval '1 second')`),
    )!;

  /** Ends, inside `tx`, the sessions matching `where` whose code expired unused; announce them after commit. */
  async function endExpired(tx: Transaction, where: SQL): Promise<SessionRow[]> {
    const expired = await tx.select({ code: sessions.code }).from(sessions).where(and(where, expiredSql()));
    const ended: SessionRow[] = [];
    for (const { code } of expired) {
      const row = await endInTransaction(tx, and(eq(sessions.code, code), expiredSql())!, null);
      if (row) ended.push(row);
    }
    return ended;
  }

  function announceExpired(rows: SessionRow[]): void {
    for (const row of rows) {
      logger.info({ sessionId: row.id }, "code de session expiré : session terminée");
      // A code that expired was never joined: no technician to name.
      announce({ type: "session", session: toSessionView(row, null) });
    }
  }

  /**
   * Spec §4 "Technician join", the whole rule in one statement: two technicians racing (a typed code, or
   * « Prendre en charge » in the queue, issue 27) cannot both match "disconnected". With its `joined` event.
   * @returns the joined row, or undefined when `code` was not joinable by `caller`.
   */
  function joinInTransaction(caller: Caller, code: string): Promise<SessionRow | undefined> {
    return db.transaction(async (tx) => {
      const [row] = await tx
        .update(sessions)
        .set({ status: "connected", technicianId: caller.userId, startTime: sql`now()` })
        .where(
          and(
            eq(sessions.code, code),
            eq(sessions.status, "disconnected"),
            isNull(sessions.endTime),
            // Not `<>`: an app-started session has no customer account (issue 26), and null <> x is not true.
            sql`${sessions.userId} is distinct from ${caller.userId}`,
            gt(sessions.createdAt, sql`now() - (${codeTtlSeconds}::integer * interval '1 second')`),
          ),
        )
        .returning();
      if (row) await tx.insert(sessionEvents).values({ sessionId: row.id, actorId: caller.userId, kind: "joined" });
      return row;
    });
  }

  /** Logs and announces a join that worked; issue 40: the caller is the technician the customer is told about. */
  function joined(caller: Caller, row: SessionRow): Outcome<{ session: SessionView }> {
    const session = toSessionView(row, caller.name);
    logger.info({ sessionId: session.id, technicianId: caller.userId }, "session rejointe");
    announce({ type: "session", session });
    return { ok: true, session };
  }

  /** Why `code` could not be joined by `caller`; an expired code's session is ended here (its customer then starts anew). */
  async function refuseJoin(caller: Caller, code: string): Promise<Refusal> {
    const existing = await findByCode(code);
    if (!existing) return refuse("not-found");
    if (existing.userId === caller.userId) return refuse("own-session");
    if (existing.status === "connected") return refuse("already-connected");
    if (existing.endTime) return refuse("session-ended");
    const expired = await db.transaction((tx) => endExpired(tx, eq(sessions.code, code)));
    announceExpired(expired);
    // Open, unjoined and not expired: another technician joined it between the two reads.
    return refuse(expired.length > 0 ? "code-expired" : "already-connected");
  }

  return {
    create(caller, input) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      if (!can(caller, "session:create")) return Promise.resolve(refuse("not-permitted"));
      return guarded("Erreur lors de la création de la session", async () => {
        // Taken before the transaction (a PostgreSQL store needs a connection of its own), given back if nothing new.
        const budget = await consume(createLimiter, caller.userId);
        let expired: SessionRow[] = [];
        const result = await db.transaction(async (tx) => {
          // One creation at a time per account (both engines): "one open session per customer" holds under double clicks.
          await tx.execute(
            sql`select pg_advisory_xact_lock(hashtextextended(${`session-create:${caller.userId}`}, 0))`,
          );
          expired = await endExpired(tx, eq(sessions.userId, caller.userId));
          if (input.code) {
            // Only the caller's own: someone else's code gets the same answer as a free one (issue 13 §8).
            const [own] = await tx
              .select()
              .from(sessions)
              .where(and(eq(sessions.code, input.code), eq(sessions.userId, caller.userId)))
              .limit(1);
            if (own) return { ok: true, session: own, created: false } as const;
          }
          const [open] = await tx
            .select()
            .from(sessions)
            .where(and(eq(sessions.userId, caller.userId), isNull(sessions.endTime)))
            .orderBy(desc(sessions.createdAt))
            .limit(1);
          if (open) return { ok: true, session: open, created: false } as const;
          if (!budget.allowed) return refuse("too-many-sessions", { retryAfterSeconds: budget.retryAfterSeconds });
          for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt++) {
            const [row] = await tx
              .insert(sessions)
              .values({
                code: generateCode(),
                userId: caller.userId,
                userName: caller.name,
                userEmail: caller.email,
                // Issue 27: the system of the browser that opened it, shown in the technicians' queue.
                customerSystem: input.system ?? null,
              })
              .onConflictDoNothing({ target: sessions.code })
              .returning();
            if (row) return { ok: true, session: row, created: true } as const;
          }
          throw new Error("aucun code de session libre trouvé");
        });
        announceExpired(expired);
        if (budget.allowed && !(result.ok && result.created)) await createLimiter.reward(caller.userId, 1);
        if (!result.ok) {
          logger.warn({ userId: caller.userId }, "création de session refusée : trop de sessions");
          return result;
        }
        // An open session given back may have been joined already (issue 40: its technician named).
        const session = result.created ? toSessionView(result.session, null) : await sessionView(db, result.session);
        if (result.created) {
          logger.info({ sessionId: session.id, userId: caller.userId }, "session créée");
          announce({ type: "session", session });
        }
        return { ok: true, session, created: result.created };
      });
    },

    join(caller, code) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      if (!can(caller, "session:join")) return Promise.resolve(refuse("not-permitted"));
      return guarded("Erreur lors de la mise à jour de la session", async () => {
        const attempt = await consume(joinLimiter, caller.userId);
        // A failure is counted before trying, so that guesses sent in parallel count too; a join that works gives it back.
        const failure = attempt.allowed ? await consume(joinFailureLimiter, caller.userId) : attempt;
        if (!failure.allowed) {
          logger.warn({ technicianId: caller.userId }, "connexion à une session refusée : trop de tentatives");
          return refuse("too-many-joins", { retryAfterSeconds: failure.retryAfterSeconds });
        }
        const row = await joinInTransaction(caller, code);
        if (!row) return refuseJoin(caller, code);
        await joinFailureLimiter.reward(caller.userId, 1);
        return joined(caller, row);
      });
    },

    claim(caller, code) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      if (!can(caller, "session:join")) return Promise.resolve(refuse("not-permitted"));
      return guarded("Erreur lors de la prise en charge d'un client en attente", async () => {
        // Issue 27: every click counts in the joins' budget; a lost race is no guess, so not a failed join.
        const attempt = await consume(joinLimiter, caller.userId);
        if (!attempt.allowed) {
          logger.warn({ technicianId: caller.userId }, "prise en charge refusée : trop de tentatives");
          return refuse("too-many-joins", { retryAfterSeconds: attempt.retryAfterSeconds });
        }
        const row = await joinInTransaction(caller, code);
        if (row) return joined(caller, row);
        const refusal = await refuseJoin(caller, code);
        // The queue's words for the two ways a waiting customer slips away: taken by another, or gone.
        if (refusal.reason === "already-connected") return refuse("already-taken");
        if (refusal.reason === "session-ended" || refusal.reason === "code-expired") return refuse("not-waiting");
        return refusal;
      });
    },

    disconnect(caller, code) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      return guarded("Erreur lors de la mise à jour de la session", async () => {
        const row = await db.transaction((tx) =>
          endInTransaction(
            tx,
            and(
              eq(sessions.code, code),
              or(eq(sessions.userId, caller.userId), eq(sessions.technicianId, caller.userId)),
            )!,
            caller.userId,
          ),
        );
        if (row) {
          const session = await sessionView(db, row);
          logger.info(
            { sessionId: row.id, by: caller.userId, durationSeconds: row.durationSeconds },
            "session terminée",
          );
          announce({ type: "session", session });
          return { ok: true, session, changed: true };
        }
        const existing = await findByCode(code);
        if (!existing) return refuse("not-found");
        if (existing.userId !== caller.userId && existing.technicianId !== caller.userId)
          return refuse("not-participant");
        return { ok: true, session: await sessionView(db, existing), changed: false };
      });
    },

    endByServer(code) {
      return guarded<{ session: SessionView | null }>("Erreur lors de la fin d'une session abandonnée", async () => {
        const row = await db.transaction((tx) => endInTransaction(tx, eq(sessions.code, code), null));
        if (!row) return { ok: true as const, session: null };
        const session = await sessionView(db, row);
        logger.info({ sessionId: row.id, durationSeconds: row.durationSeconds }, "session terminée par le serveur");
        announce({ type: "session", session });
        return { ok: true, session };
      });
    },

    active(caller) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      if (!can(caller, "session:history")) return Promise.resolve(refuse("not-permitted"));
      return guarded("Erreur lors de la récupération des sessions actives", async () => {
        const [row] = await db
          .select()
          .from(sessions)
          .where(and(eq(sessions.technicianId, caller.userId), eq(sessions.status, "connected")))
          .orderBy(desc(sessions.startTime))
          .limit(1);
        // The caller is this session's technician.
        return { ok: true, session: row ? toSessionView(row, caller.name) : null };
      });
    },

    history(caller) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      if (!can(caller, "session:history")) return Promise.resolve(refuse("not-permitted"));
      return guarded("Erreur lors de la récupération de la session", async () => {
        const rows = await db
          .select()
          .from(sessions)
          .where(eq(sessions.technicianId, caller.userId))
          .orderBy(desc(sessions.createdAt))
          .limit(LIST_LIMIT);
        return { ok: true, sessions: rows.map((row) => toSessionView(row, caller.name)) };
      });
    },

    mine(caller) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      if (!can(caller, "session:create")) return Promise.resolve(refuse("not-permitted"));
      return guarded("Erreur lors de la récupération de la session", async () => {
        // A reload must not show a code nobody can join any more: the customer screen then offers a new one.
        const expired = await db.transaction((tx) => endExpired(tx, eq(sessions.userId, caller.userId)));
        announceExpired(expired);
        const rows = await db
          .select()
          .from(sessions)
          .where(eq(sessions.userId, caller.userId))
          .orderBy(desc(sessions.createdAt))
          .limit(LIST_LIMIT);
        return { ok: true, sessions: await sessionViews(db, rows) };
      });
    },

    expireCodes() {
      return guarded("Erreur lors de l'expiration des codes de session", async () => {
        const expired = await db.transaction((tx) => endExpired(tx, sql`true`));
        announceExpired(expired);
        return { ok: true, ended: expired.length };
      });
    },

    participant(caller, code) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      return guarded("Erreur lors de la récupération de la session", async () => {
        const session = await findByCode(code);
        if (!session) return refuse("not-found");
        const role = roleIn(session, caller);
        if (!role) return refuse("not-participant");
        if (session.endTime) return refuse("session-ended");
        return { ok: true, role, session: await sessionView(db, session) };
      });
    },
  };
}
