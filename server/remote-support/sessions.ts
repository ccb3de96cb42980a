/**
 * The remote-support session rules (issue 5; spec §3 "Session", §4 states
 * and transitions, §5 connection code and report access, §6 roles, §7
 * "Backend data", §8 messages), enforced here and nowhere else: the API
 * (`api.ts`) and the Socket.IO layer (`realtime.ts`) only pass the signed-in
 * `Caller` and the untrusted input.
 *
 * - Any signed-in account creates sessions, only for itself (owner, name and
 *   e-mail from the account), with a random code. A customer who still has an
 *   open session (not ended) gets it back instead of a second one, so a double
 *   click or a reload keeps one code; only this caller's own session is ever
 *   returned, and no answer tells whether someone else's code exists.
 * - Only technicians join, with ONE conditional UPDATE: of two technicians
 *   racing for a code, exactly one wins.
 * - Issue 13 §8: a code nobody joined within `codeTtlSeconds` expires (the
 *   server ends its session, so the customer's screen offers a new one);
 *   failed joins, all joins and new sessions are limited per account
 *   (`limits.ts`, counters in the shared `rate_limits` store).
 * - Either participant disconnects; duration is computed by the database.
 * - Technicians read only their own active session, history and reports;
 *   reports also need a recent password check (`verifyPassword`).
 * - Signaling messages are accepted only from the two participants of a
 *   connected session, each kind only from its side (`SIGNAL_SENDER`: the
 *   customer offers, the technician answers), within the session's budget
 *   (issue 13 §3: messages per sender and window, bytes stored per session),
 *   stored, and addressed to the other participant.
 * - A session's record (issue 6): join and end are written with the change
 *   they record, in one transaction; the participants report sharing,
 *   remote input and chat (`SESSION_EVENT_SENDER`), and read it back.
 *
 * Every method resolves to an `Outcome` and never throws: a database failure
 * is logged and becomes `{ ok: false, reason: "failed" }`.
 */
import { randomInt, randomUUID } from "node:crypto";
import { and, desc, eq, gt, isNull, lte, ne, or, sql, type SQL } from "drizzle-orm";
import type { Logger } from "pino";
import type { AppDatabase } from "../../database/connection.ts";
import {
  accounts,
  contactRequests,
  outboxMessages,
  quoteRequests,
  sessionEvents,
  sessions,
  signaling,
  verifications,
} from "../../database/schema.ts";
import {
  SESSION_CODE_ALPHABET,
  SESSION_CODE_LENGTH,
  SESSION_EVENT_SENDER,
  SESSION_MESSAGES,
  SIGNAL_SENDER,
  type DeliveryView,
  type SessionEventBody,
  type SessionEventKind,
  type SessionEventView,
  type SignalData,
  type RequestView,
  type SessionReport,
  type SessionView,
} from "../../app/remote-support/protocol.ts";
import type { Caller } from "./caller.ts";
import { consume, createRateLimiter, MEMORY_STORE, type RateLimitStore } from "../rate-limit.ts";
import {
  DEFAULT_CODE_TTL_SECONDS,
  DEFAULT_SESSION_LIMITS,
  DEFAULT_SESSION_SIGNAL_BUDGET,
  type SessionLimits,
  type SessionSignalBudget,
} from "./limits.ts";

/** How long one password check opens reports, seconds. */
export const REPORT_GRANT_SECONDS = 300;
/** Wrong passwords allowed per technician and minute; then every check is refused until the minute ends. */
export const VERIFY_ATTEMPTS_PER_MINUTE = 5;
/** Longest lists answered (history, "mine", requests): newest first. */
export const LIST_LIMIT = 500;

/** Why a call was refused; `api.ts` maps each to an HTTP status. */
export type RefusalReason =
  | "not-signed-in"
  | "technician-only"
  | "not-participant"
  | "own-session"
  | "not-found"
  | "already-connected"
  | "session-ended"
  | "code-expired"
  | "too-many-joins"
  | "too-many-sessions"
  | "signal-rate"
  | "signal-quota"
  | "not-connected"
  | "wrong-sender"
  | "report-locked"
  | "wrong-password"
  | "rate-limited"
  | "failed";

export type Refusal = { ok: false; reason: RefusalReason; message: string; retryAfterSeconds?: number };
export type Outcome<T> = ({ ok: true } & T) | Refusal;

/** What the service announces after a commit; `realtime.ts` turns it into Socket.IO events. */
export type SessionServiceEvent =
  | { type: "session"; session: SessionView }
  | { type: "auth-session-ended"; authSessionId: string; userId: string };

export type SessionService = {
  /**
   * Spec §4 "Session status" and §7 "Create session". `code` (optional,
   * already normalised and checked by `CreateSessionBody`): if it is one of
   * the caller's sessions, that session is returned. Any other code is
   * ignored (issue 13 §8: the answer must not tell that someone else's code
   * exists): the caller's open session if any, else a new one (status
   * disconnected, a random code). The caller's open session past its code's
   * lifetime is ended first (nobody can join it any more), so they get a
   * fresh code. `created` tells a new session (201) from an existing one
   * (200). Refusal: too-many-sessions (`limits.creations`, with `retryAfterSeconds`).
   */
  create(caller: Caller | null, input: { code?: string }): Promise<Outcome<{ session: SessionView; created: boolean }>>;
  /**
   * Spec §4 "Technician join": connected, technician_id = caller, start_time
   * = now, in one statement. Refusals: technician-only, not-found ("Session
   * non trouvée"), already-connected ("Session déjà connectée"),
   * session-ended, own-session, code-expired (nobody joined it within
   * `codeTtlSeconds`: the server ends it, and its customer's screen offers a
   * new code), too-many-joins (issue 13 §8: `limits.joins` attempts, or
   * `limits.joinFailures` refusals, per technician; `retryAfterSeconds`).
   */
  join(caller: Caller | null, code: string): Promise<Outcome<{ session: SessionView }>>;
  /**
   * Spec §4 "Disconnect", by the owner or the joined technician: status
   * disconnected, end_time = now, duration_seconds = whole seconds since
   * start_time (floor; null for a session nobody joined). Disconnecting an
   * ended session returns it unchanged (`changed` false).
   */
  disconnect(caller: Caller | null, code: string): Promise<Outcome<{ session: SessionView; changed: boolean }>>;
  /**
   * Issue 13 §4: ends the session `code` on nobody's behalf (both sides gone
   * too long, or the server's own rules), with an `ended` event whose actor
   * is null ("le serveur"). `session` null when it was already ended.
   */
  endByServer(code: string): Promise<Outcome<{ session: SessionView | null }>>;
  /** Spec §4 "Dashboard load": the technician's connected session (latest started), or null. */
  active(caller: Caller | null): Promise<Outcome<{ session: SessionView | null }>>;
  /** Spec §7 "History": the technician's own sessions, created_at descending (at most `LIST_LIMIT`). */
  history(caller: Caller | null): Promise<Outcome<{ sessions: SessionView[] }>>;
  /** The caller's own sessions as customer, created_at descending (at most `LIST_LIMIT`). */
  mine(caller: Caller | null): Promise<Outcome<{ sessions: SessionView[] }>>;
  /**
   * Spec §3 "Report data": only a technician's own session, only while a
   * password check of this sign-in session is valid ("report-locked" before).
   */
  report(caller: Caller | null, code: string): Promise<Outcome<{ report: SessionReport }>>;
  /**
   * Spec §5 "Report access", done by the server: checks the technician's own
   * account password (`VERIFY_ATTEMPTS_PER_MINUTE` wrong ones a minute), then opens
   * reports for `REPORT_GRANT_SECONDS` to this sign-in session only.
   * The grant is a row of better-auth's `verifications` table (identifier
   * `report-grant:<auth session id>`), so it holds across server processes
   * and ends with the sign-in session.
   */
  verifyPassword(caller: Caller | null, password: string): Promise<Outcome<{ grantedUntil: Date }>>;
  /** Technicians' "Demandes" view: contact and quote requests, newest first, with their mail's delivery state. */
  requests(caller: Caller | null): Promise<Outcome<{ requests: RequestView[] }>>;
  /**
   * Spec §7 "Insert into signaling": stores `data` (JSON text) from one
   * participant of a connected session and names the other, who alone
   * receives it. Refusals: not-found, not-participant, not-connected,
   * wrong-sender, and (issue 13 §3, nothing stored) signal-rate when the
   * sender stored `signalBudget.messagesPerWindow` signals in this session
   * within the window, signal-quota when the session's stored signals would
   * pass `signalBudget.maxStoredBytes`.
   */
  relaySignal(caller: Caller | null, code: string, data: SignalData): Promise<Outcome<{ recipientId: string }>>;
  /**
   * Issue 6: a participant reports what they did (sharing, remote input) or
   * says something in the chat; each kind from its side only ("wrong-sender"
   * otherwise). Sharing may be reported until the session ends; chat and
   * remote input only while it is connected ("not-connected").
   */
  recordEvent(caller: Caller | null, code: string, body: SessionEventBody): Promise<Outcome<{ event: SessionEventView }>>;
  /** Issue 6: the caller's side in a session not ended (ICE servers are issued to participants only). */
  participant(caller: Caller | null, code: string): Promise<Outcome<{ role: "customer" | "technician"; session: SessionView }>>;
  /** Issue 6: the session's record, oldest first, for its customer and its joined technician. */
  events(caller: Caller | null, code: string): Promise<Outcome<{ events: SessionEventView[] }>>;
  /** Called by better-auth's session-delete hook: drops the report grant and tells subscribers. */
  authSessionEnded(ended: { id: string; userId: string }): void;
  /** Listens to committed changes; returns the unsubscribe function. */
  subscribe(listener: (event: SessionServiceEvent) => void): () => void;
};

export type SessionServiceOptions = {
  db: AppDatabase;
  logger: Logger;
  /** Checks a password against a stored hash: better-auth's verifier (`(await auth.$context).password.verify`). */
  verifyPasswordHash: (data: { hash: string; password: string }) => Promise<boolean>;
  /** New session codes (default `generateSessionCode`); tests force clashes with it. */
  generateCode?: () => string;
  /** Where the per-account limits count (`services.rateLimits`; default this process's memory). */
  rateLimits?: RateLimitStore;
  /** Issue 13 §8: how long an unjoined code stays valid, seconds (default `DEFAULT_CODE_TTL_SECONDS`). */
  codeTtlSeconds?: number;
  /** Issue 13 §8: joins and creations per account (default `DEFAULT_SESSION_LIMITS`). */
  limits?: SessionLimits;
  /** Issue 13 §3: signaling per session (default `DEFAULT_SESSION_SIGNAL_BUDGET`). */
  signalBudget?: SessionSignalBudget;
};

type SessionRow = typeof sessions.$inferSelect;
/** An outbox row's delivery columns, all null when the request has no mail (left join). */
type DeliveryRow = { status: "pending" | "sent" | null; attempts: number | null; lastError: string | null; sentAt: Date | null };

/** The API shape of a row (ISO 8601 times). */
export function toSessionView(row: SessionRow): SessionView {
  return {
    id: row.id,
    code: row.code,
    status: row.status,
    userId: row.userId,
    technicianId: row.technicianId,
    startTime: row.startTime?.toISOString() ?? null,
    endTime: row.endTime?.toISOString() ?? null,
    durationSeconds: row.durationSeconds,
    createdAt: row.createdAt.toISOString(),
    userName: row.userName,
    userEmail: row.userEmail,
  };
}

/** A new random code of the protocol's alphabet and length (crypto random, unbiased). */
export function generateSessionCode(): string {
  let code = "";
  for (let i = 0; i < SESSION_CODE_LENGTH; i++) code += SESSION_CODE_ALPHABET[randomInt(SESSION_CODE_ALPHABET.length)];
  return code;
}

type SessionEventRow = typeof sessionEvents.$inferSelect;

/** An event as the API shows it: the actor is named by their role in `session`. */
export function toSessionEventView(row: SessionEventRow, session: Pick<SessionRow, "userId" | "technicianId">): SessionEventView {
  return {
    id: row.id,
    kind: row.kind,
    actor: row.actorId === null ? null : row.actorId === session.userId ? "customer" : row.actorId === session.technicianId ? "technician" : null,
    text: row.text,
    at: row.createdAt.toISOString(),
  };
}

/** The caller's side in `session`, or null when they are not one of its participants. */
function roleIn(session: Pick<SessionRow, "userId" | "technicianId">, caller: Caller): "customer" | "technician" | null {
  if (session.userId === caller.userId) return "customer";
  if (session.technicianId === caller.userId) return "technician";
  return null;
}

const refusals = {
  "not-signed-in": SESSION_MESSAGES.notSignedIn,
  "technician-only": SESSION_MESSAGES.technicianOnly,
  "not-participant": SESSION_MESSAGES.notParticipant,
  "own-session": SESSION_MESSAGES.ownSession,
  "not-found": SESSION_MESSAGES.notFound,
  "already-connected": SESSION_MESSAGES.alreadyConnected,
  "session-ended": SESSION_MESSAGES.sessionEnded,
  "code-expired": SESSION_MESSAGES.codeExpired,
  "too-many-joins": SESSION_MESSAGES.tooManyJoins,
  "too-many-sessions": SESSION_MESSAGES.tooManySessions,
  "signal-rate": SESSION_MESSAGES.signalTooFast,
  "signal-quota": SESSION_MESSAGES.signalQuota,
  "not-connected": SESSION_MESSAGES.notConnected,
  "wrong-sender": SESSION_MESSAGES.wrongSender,
  "report-locked": SESSION_MESSAGES.reportLocked,
  "wrong-password": SESSION_MESSAGES.wrongPassword,
  "rate-limited": SESSION_MESSAGES.tooManyAttempts,
  failed: SESSION_MESSAGES.failed,
} satisfies Record<RefusalReason, string>;

function refuse(reason: RefusalReason, extra?: { retryAfterSeconds: number }): Refusal {
  return { ok: false, reason, message: refusals[reason], ...extra };
}

/** Whole seconds from start_time to now, computed by the database in the same statement as end_time. */
const durationSql = sql<number | null>`case when ${sessions.startTime} is null then null
  else floor(extract(epoch from (now() - ${sessions.startTime})))::integer end`;

type Transaction = Parameters<Parameters<AppDatabase["transaction"]>[0]>[0];

/**
 * Ends the open session matching `where` inside `tx`: status disconnected,
 * end_time now, duration by the database, an `ended` event by `actorId`
 * (null: the server), and its signaling rows deleted (ICE candidates carry
 * IP addresses; issue 13 §3 and §11). Every way a session ends goes through here.
 * @returns the ended row, or undefined when nothing open matched.
 */
export async function endInTransaction(tx: Transaction, where: SQL, actorId: string | null): Promise<SessionRow | undefined> {
  const [ended] = await tx
    .update(sessions)
    .set({ status: "disconnected", endTime: sql`now()`, durationSeconds: durationSql })
    .where(and(where, isNull(sessions.endTime)))
    .returning();
  if (!ended) return undefined;
  await tx.insert(sessionEvents).values({ sessionId: ended.id, actorId, kind: "ended" });
  await tx.delete(signaling).where(eq(signaling.sessionCode, ended.code));
  return ended;
}

const REPORT_GRANT_PREFIX = "report-grant:";
/** Generated codes: a clash is one in millions; a few retries are plenty. */
const CODE_ATTEMPTS = 8;

export function createSessionService({
  db,
  logger,
  verifyPasswordHash,
  generateCode = generateSessionCode,
  rateLimits = MEMORY_STORE,
  codeTtlSeconds = DEFAULT_CODE_TTL_SECONDS,
  limits = DEFAULT_SESSION_LIMITS,
  signalBudget = DEFAULT_SESSION_SIGNAL_BUDGET,
}: SessionServiceOptions): SessionService {
  const listeners = new Set<(event: SessionServiceEvent) => void>();
  const verifyLimiter = createRateLimiter(rateLimits, { name: "report-password", points: VERIFY_ATTEMPTS_PER_MINUTE, durationSeconds: 60 });
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
      announce({ type: "session", session: toSessionView(row) });
    }
  }

  function announce(event: SessionServiceEvent): void {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        logger.error({ err: error }, "diffusion d'un changement de session impossible");
      }
    }
  }

  /** Runs `body`, turning any thrown error into a logged "failed" refusal (spec §8 log messages). */
  async function guarded<T>(logMessage: string, body: () => Promise<Outcome<T>>): Promise<Outcome<T>> {
    try {
      return await body();
    } catch (error) {
      logger.error({ err: error }, logMessage);
      return refuse("failed");
    }
  }

  async function findByCode(code: string): Promise<SessionRow | undefined> {
    const [row] = await db.select().from(sessions).where(eq(sessions.code, code)).limit(1);
    return row;
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

  async function hasReportGrant(caller: Caller): Promise<boolean> {
    const [grant] = await db
      .select({ id: verifications.id })
      .from(verifications)
      .where(
        and(
          eq(verifications.identifier, REPORT_GRANT_PREFIX + caller.authSessionId),
          eq(verifications.value, caller.userId),
          gt(verifications.expiresAt, new Date()),
        ),
      )
      .limit(1);
    return grant !== undefined;
  }

  return {
    create(caller, input) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      return guarded("Erreur lors de la création de la session", async () => {
        // Taken before the transaction (a PostgreSQL store needs a connection of its own), given back if nothing new.
        const budget = await consume(createLimiter, caller.userId);
        let expired: SessionRow[] = [];
        const result = await db.transaction(async (tx) => {
          // One creation at a time per account (both engines): "one open session per customer" holds under double clicks.
          await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`session-create:${caller.userId}`}, 0))`);
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
              .values({ code: generateCode(), userId: caller.userId, userName: caller.name, userEmail: caller.email })
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
        const session = toSessionView(result.session);
        if (result.created) {
          logger.info({ sessionId: session.id, userId: caller.userId }, "session créée");
          announce({ type: "session", session });
        }
        return { ok: true, session, created: result.created };
      });
    },

    join(caller, code) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      if (!caller.isTechnician) return Promise.resolve(refuse("technician-only"));
      return guarded("Erreur lors de la mise à jour de la session", async () => {
        const attempt = await consume(joinLimiter, caller.userId);
        // A failure is counted before trying, so that guesses sent in parallel count too; a join that works gives it back.
        const failure = attempt.allowed ? await consume(joinFailureLimiter, caller.userId) : attempt;
        if (!failure.allowed) {
          logger.warn({ technicianId: caller.userId }, "connexion à une session refusée : trop de tentatives");
          return refuse("too-many-joins", { retryAfterSeconds: failure.retryAfterSeconds });
        }
        const row = await db.transaction(async (tx) => {
          // The whole rule in one statement: two technicians racing cannot both match "disconnected".
          const [joined] = await tx
            .update(sessions)
            .set({ status: "connected", technicianId: caller.userId, startTime: sql`now()` })
            .where(
              and(
                eq(sessions.code, code),
                eq(sessions.status, "disconnected"),
                isNull(sessions.endTime),
                ne(sessions.userId, caller.userId),
                gt(sessions.createdAt, sql`now() - (${codeTtlSeconds}::integer * interval '1 second')`),
              ),
            )
            .returning();
          if (joined) await tx.insert(sessionEvents).values({ sessionId: joined.id, actorId: caller.userId, kind: "joined" });
          return joined;
        });
        if (!row) return refuseJoin(caller, code);
        await joinFailureLimiter.reward(caller.userId, 1);
        const session = toSessionView(row);
        logger.info({ sessionId: session.id, technicianId: caller.userId }, "session rejointe");
        announce({ type: "session", session });
        return { ok: true, session };
      });
    },

    disconnect(caller, code) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      return guarded("Erreur lors de la mise à jour de la session", async () => {
        const row = await db.transaction((tx) =>
          endInTransaction(
            tx,
            and(eq(sessions.code, code), or(eq(sessions.userId, caller.userId), eq(sessions.technicianId, caller.userId)))!,
            caller.userId,
          ),
        );
        if (row) {
          const session = toSessionView(row);
          logger.info({ sessionId: row.id, by: caller.userId, durationSeconds: row.durationSeconds }, "session terminée");
          announce({ type: "session", session });
          return { ok: true, session, changed: true };
        }
        const existing = await findByCode(code);
        if (!existing) return refuse("not-found");
        if (existing.userId !== caller.userId && existing.technicianId !== caller.userId) return refuse("not-participant");
        return { ok: true, session: toSessionView(existing), changed: false };
      });
    },

    endByServer(code) {
      return guarded<{ session: SessionView | null }>("Erreur lors de la fin d'une session abandonnée", async () => {
        const row = await db.transaction((tx) => endInTransaction(tx, eq(sessions.code, code), null));
        if (!row) return { ok: true as const, session: null };
        const session = toSessionView(row);
        logger.info({ sessionId: row.id, durationSeconds: row.durationSeconds }, "session terminée par le serveur");
        announce({ type: "session", session });
        return { ok: true, session };
      });
    },

    active(caller) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      if (!caller.isTechnician) return Promise.resolve(refuse("technician-only"));
      return guarded("Erreur lors de la récupération des sessions actives", async () => {
        const [row] = await db
          .select()
          .from(sessions)
          .where(and(eq(sessions.technicianId, caller.userId), eq(sessions.status, "connected")))
          .orderBy(desc(sessions.startTime))
          .limit(1);
        return { ok: true, session: row ? toSessionView(row) : null };
      });
    },

    history(caller) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      if (!caller.isTechnician) return Promise.resolve(refuse("technician-only"));
      return guarded("Erreur lors de la récupération de la session", async () => {
        const rows = await db
          .select()
          .from(sessions)
          .where(eq(sessions.technicianId, caller.userId))
          .orderBy(desc(sessions.createdAt))
          .limit(LIST_LIMIT);
        return { ok: true, sessions: rows.map(toSessionView) };
      });
    },

    mine(caller) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
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
        return { ok: true, sessions: rows.map(toSessionView) };
      });
    },

    report(caller, code) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      if (!caller.isTechnician) return Promise.resolve(refuse("technician-only"));
      return guarded("Erreur lors de la récupération de la session", async () => {
        if (!(await hasReportGrant(caller))) return refuse("report-locked");
        const row = await findByCode(code);
        if (!row) return refuse("not-found");
        if (row.technicianId !== caller.userId) return refuse("not-participant");
        const eventRows = await db
          .select()
          .from(sessionEvents)
          .where(eq(sessionEvents.sessionId, row.id))
          .orderBy(sessionEvents.createdAt);
        return {
          ok: true,
          report: {
            events: eventRows.map((event) => toSessionEventView(event, row)),
            code: row.code,
            startTime: row.startTime?.toISOString() ?? null,
            endTime: row.endTime?.toISOString() ?? null,
            durationSeconds: row.durationSeconds,
            userName: row.userName,
            userEmail: row.userEmail,
          },
        };
      });
    },

    verifyPassword(caller, password) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      if (!caller.isTechnician) return Promise.resolve(refuse("technician-only"));
      return guarded("Erreur lors de la vérification du mot de passe", async () => {
        // Counted before checking, so that checks sent in parallel count too; a right password gives the point back.
        const attempt = await consume(verifyLimiter, caller.userId);
        if (!attempt.allowed) {
          logger.warn({ userId: caller.userId }, "vérification refusée : trop de tentatives");
          return refuse("rate-limited", { retryAfterSeconds: attempt.retryAfterSeconds });
        }
        const [account] = await db
          .select({ hash: accounts.password })
          .from(accounts)
          .where(and(eq(accounts.userId, caller.userId), eq(accounts.providerId, "credential")))
          .limit(1);
        if (!account?.hash || !(await verifyPasswordHash({ hash: account.hash, password }))) {
          logger.warn({ userId: caller.userId }, "vérification refusée : mot de passe incorrect");
          return refuse("wrong-password");
        }
        // Only failures count: a technician opening reports all day is never locked out.
        await verifyLimiter.reward(caller.userId, 1);
        const identifier = REPORT_GRANT_PREFIX + caller.authSessionId;
        const grantedUntil = new Date(Date.now() + REPORT_GRANT_SECONDS * 1000);
        await db.transaction(async (tx) => {
          // One grant row per sign-in session; expired ones of anyone are swept at the same time.
          await tx
            .delete(verifications)
            .where(
              or(
                eq(verifications.identifier, identifier),
                and(sql`${verifications.identifier} like ${`${REPORT_GRANT_PREFIX}%`}`, lte(verifications.expiresAt, new Date())),
              ),
            );
          await tx
            .insert(verifications)
            .values({ id: randomUUID(), identifier, value: caller.userId, expiresAt: grantedUntil });
        });
        logger.info({ userId: caller.userId }, "rapports ouverts après vérification du mot de passe");
        return { ok: true, grantedUntil };
      });
    },

    requests(caller) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      if (!caller.isTechnician) return Promise.resolve(refuse("technician-only"));
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
            : { status: row.status, attempts: row.attempts ?? 0, lastError: row.lastError, sentAt: row.sentAt?.toISOString() ?? null };
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

    relaySignal(caller, code, data) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      return guarded("Erreur lors de l'envoi d'un message de signalisation", async () => {
        const sender = SIGNAL_SENDER[data.type];
        const json = JSON.stringify(data);
        const { messagesPerWindow, windowSeconds, maxStoredBytes } = signalBudget;
        // Happy path in one round trip: the session check, the sender's side, the session's budget (counted in
        // the table itself, so every server process sees the same) and the insert, in one statement.
        const result = (await db.execute(sql`
          with target as (
            select code, user_id, technician_id from ${sessions}
            where code = ${code} and status = 'connected' and technician_id is not null
              and (
                (${sender} <> 'technician' and user_id = ${caller.userId})
                or (${sender} <> 'customer' and technician_id = ${caller.userId})
              )
          ), spent as (
            select
              count(*) filter (
                where sender_id = ${caller.userId} and created_at > now() - (${windowSeconds}::integer * interval '1 second')
              )::integer as recent,
              coalesce(sum(octet_length(data)), 0)::bigint as bytes
            from ${signaling} where session_code = (select code from target)
          ), stored as (
            insert into ${signaling} (session_code, sender_id, data)
            select code, ${caller.userId}, ${json} from target, spent
            where spent.recent < ${messagesPerWindow}::integer
              and spent.bytes + ${Buffer.byteLength(json)}::integer <= ${maxStoredBytes}::bigint
            returning id
          )
          select user_id, technician_id, spent.recent, (select count(*) from stored)::integer as stored
          from target, spent`)) as unknown as {
          rows: { user_id: string; technician_id: string; recent: number; stored: number }[];
        };
        const target = result.rows[0];
        if (target && Number(target.stored) > 0) {
          return { ok: true, recipientId: target.user_id === caller.userId ? target.technician_id : target.user_id };
        }
        if (target) {
          const reason = Number(target.recent) >= messagesPerWindow ? "signal-rate" : "signal-quota";
          logger.warn({ userId: caller.userId, reason }, "signalisation refusée : budget de la session atteint");
          return refuse(reason);
        }
        const existing = await findByCode(code);
        if (!existing) return refuse("not-found");
        const role = roleIn(existing, caller);
        if (!role) return refuse("not-participant");
        if (existing.status === "connected") return refuse("wrong-sender");
        return refuse("not-connected");
      });
    },

    recordEvent(caller, code, body) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      return guarded("Erreur lors de l'enregistrement d'un événement de session", async () => {
        const session = await findByCode(code);
        if (!session) return refuse("not-found");
        const role = roleIn(session, caller);
        if (!role) return refuse("not-participant");
        const allowed: string = SESSION_EVENT_SENDER[body.kind];
        if (allowed !== "either" && allowed !== role) return refuse("wrong-sender");
        if (session.endTime) return refuse("session-ended");
        const needsConnection: SessionEventKind[] = ["chat", "control-on", "control-off"];
        if (needsConnection.includes(body.kind) && session.status !== "connected") return refuse("not-connected");
        const [row] = await db
          .insert(sessionEvents)
          .values({ sessionId: session.id, actorId: caller.userId, kind: body.kind, text: body.kind === "chat" ? body.text : null })
          .returning();
        return { ok: true, event: toSessionEventView(row!, session) };
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
        return { ok: true, role, session: toSessionView(session) };
      });
    },

    events(caller, code) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      return guarded("Erreur lors de la récupération de la session", async () => {
        const session = await findByCode(code);
        if (!session) return refuse("not-found");
        if (!roleIn(session, caller)) return refuse("not-participant");
        const rows = await db
          .select()
          .from(sessionEvents)
          .where(eq(sessionEvents.sessionId, session.id))
          .orderBy(sessionEvents.createdAt)
          .limit(LIST_LIMIT * 4);
        return { ok: true, events: rows.map((row) => toSessionEventView(row, session)) };
      });
    },

    authSessionEnded(ended) {
      announce({ type: "auth-session-ended", authSessionId: ended.id, userId: ended.userId });
      db.delete(verifications)
        .where(eq(verifications.identifier, REPORT_GRANT_PREFIX + ended.id))
        .catch((error: unknown) => logger.warn({ err: error }, "autorisation de rapport non supprimée"));
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
