/**
 * A session's record and report (issue 6; spec §3 "Report data", §5
 * "Report access"): the events the participants report (`recordEvent`,
 * `events`), the technician's report (`report`) behind a recent password
 * check (`verifyPassword`: its grant in better-auth's `verifications` table
 * and its limiter), and the grant's end with the sign-in session
 * (`authSessionEnded`). Part of `createSessionService` (`sessions.ts`, issue 14).
 * Issue 28 §8: reported events within a budget per participant and session
 * (`eventBudget`), and a state (sharing, control) stored only when it changes.
 * Issue 38 §1: a stored chat line is announced (`type: "chat"`) for `realtime.ts`
 * and `device-realtime.ts` to push; the app's lines come through `recordAppChat`.
 */
import { randomUUID } from "node:crypto";
import { and, desc, eq, gt, inArray, lte, or, sql } from "drizzle-orm";
import { accounts, sessionEvents, sessions, verifications } from "#database/schema.ts";
import {
  SESSION_EVENT_SENDER,
  type SessionEventBody,
  type SessionEventKind,
  type SessionEventView,
  type SessionReport,
} from "#app/remote-support/protocol.ts";
import { can, type Caller } from "#server/access.ts";
import { consume, createRateLimiter } from "#server/rate-limit.ts";
import { createRefusalLog } from "#server/refusal-log.ts";
import type { ChatLine } from "#app/remote-support/chat-protocol.ts";
import { firstNameOf } from "#app/remote-support/technician-name.ts";
import { loadComputerFacts } from "./computer-facts.ts";
import {
  APP_ACTOR_ID,
  LIST_LIMIT,
  refuse,
  roleIn,
  toSessionEventView,
  toSessionView,
  type Outcome,
  type SessionContext,
  type SessionRow,
} from "./session-rules.ts";

/** How long one password check opens reports, seconds. */
export const REPORT_GRANT_SECONDS = 300;
/** Wrong passwords allowed per technician and minute; then every check is refused until the minute ends. */
export const VERIFY_ATTEMPTS_PER_MINUTE = 5;

/** The record and report methods of `SessionService` (documented there, in `sessions.ts`). */
export type SessionRecord = {
  report(caller: Caller | null, code: string): Promise<Outcome<{ report: SessionReport }>>;
  verifyPassword(caller: Caller | null, password: string): Promise<Outcome<{ grantedUntil: Date }>>;
  recordEvent(
    caller: Caller | null,
    code: string,
    body: SessionEventBody,
  ): Promise<Outcome<{ event: SessionEventView; stored: boolean }>>;
  recordAppChat(sessionId: string, text: string): Promise<Outcome<{ line: ChatLine }>>;
  events(caller: Caller | null, code: string): Promise<Outcome<{ events: SessionEventView[] }>>;
  authSessionEnded(ended: { id: string; userId: string }): void;
};

const REPORT_GRANT_PREFIX = "report-grant:";

/**
 * Issue 28 §8: the kinds that set a state, each with the other kind of its pair. Only a change is stored: the same
 * kind as the pair's last event in the session is not (a toggle sent twice, a flood).
 */
const STATE_PAIRS: Partial<Record<SessionEventKind, [SessionEventKind, SessionEventKind]>> = {
  "sharing-started": ["sharing-started", "sharing-stopped"],
  "sharing-stopped": ["sharing-started", "sharing-stopped"],
  "control-on": ["control-on", "control-off"],
  "control-off": ["control-on", "control-off"],
};

export function createSessionRecord(context: SessionContext): SessionRecord {
  const { db, logger, announce, guarded, findByCode, rateLimits, verifyPasswordHash, eventBudget } = context;
  const eventLimiter = createRateLimiter(rateLimits, { name: "session-events", ...eventBudget });
  // Issue 28 §13: anyone can repeat a refused event; one summary line a minute, never a line each.
  const eventRefusals = createRefusalLog(logger, "événements de session refusés");
  const verifyLimiter = createRateLimiter(rateLimits, {
    name: "report-password",
    points: VERIFY_ATTEMPTS_PER_MINUTE,
    durationSeconds: 60,
  });

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

  /**
   * Stores `body` as an event of session `sessionId` by `actorId`, unless it sets a state (`STATE_PAIRS`) already
   * set: then nothing is written and the pair's last event is returned (`stored` false). The session's row is locked
   * for the check and the insert, so a toggle sent twice at once is stored once.
   */
  async function storeEvent(
    sessionId: string,
    actorId: string,
    body: SessionEventBody,
  ): Promise<{ row: typeof sessionEvents.$inferSelect; stored: boolean }> {
    const values = { sessionId, actorId, kind: body.kind, text: body.kind === "chat" ? body.text : null };
    const pair = STATE_PAIRS[body.kind];
    if (!pair) {
      const [row] = await db.insert(sessionEvents).values(values).returning();
      return { row: row!, stored: true };
    }
    return db.transaction(async (tx) => {
      await tx.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, sessionId)).for("update");
      const [last] = await tx
        .select()
        .from(sessionEvents)
        .where(and(eq(sessionEvents.sessionId, sessionId), inArray(sessionEvents.kind, pair)))
        .orderBy(desc(sessionEvents.createdAt))
        .limit(1);
      if (last?.kind === body.kind) return { row: last, stored: false };
      const [row] = await tx.insert(sessionEvents).values(values).returning();
      return { row: row!, stored: true };
    });
  }

  /**
   * Issue 38 §1: tells the participants of `session` about a stored chat line; returns the line as pushed.
   * `technicianName`: the account name of a technician's line (issue 40: the customer reads its first word only).
   */
  function announceChat(session: SessionRow, event: SessionEventView, technicianName: string | null): ChatLine {
    const from = event.actor === "technician" ? "technician" : "customer";
    const name = firstNameOf(technicianName);
    const line: ChatLine = { id: event.id, from, name, text: event.text ?? "", at: event.at };
    // The chat relay reads the session's participants and code only: no need to read the technician's name.
    announce({ type: "chat", session: toSessionView(session, technicianName), line });
    return line;
  }

  return {
    report(caller, code) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      if (!can(caller, "report:read")) return Promise.resolve(refuse("not-permitted"));
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
        // Issue 38 §4: what the app said of the computer, kept with the session (absent when none was sent).
        const computerFacts = await loadComputerFacts(db, row.id);
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
            origin: row.origin,
            ...(computerFacts ? { computerFacts } : {}),
          },
        };
      });
    },

    verifyPassword(caller, password) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      if (!can(caller, "report:read")) return Promise.resolve(refuse("not-permitted"));
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
                and(
                  sql`${verifications.identifier} like ${`${REPORT_GRANT_PREFIX}%`}`,
                  lte(verifications.expiresAt, new Date()),
                ),
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
        // Issue 28 §8: counted before anything is written, so that events sent in parallel count too; never queued.
        const budget = await consume(eventLimiter, `${caller.userId}:${session.id}`);
        if (!budget.allowed) {
          eventRefusals("budget de la session atteint");
          return refuse("too-many-events", { retryAfterSeconds: budget.retryAfterSeconds });
        }
        const recorded = await storeEvent(session.id, caller.userId, body);
        const event = toSessionEventView(recorded.row, session);
        if (body.kind === "chat") announceChat(session, event, role === "technician" ? caller.name : null);
        return { ok: true, event, stored: recorded.stored };
      });
    },

    recordAppChat(sessionId, text) {
      return guarded("Erreur lors de l'enregistrement d'un événement de session", async () => {
        const [session] = await db.select().from(sessions).where(eq(sessions.id, sessionId)).limit(1);
        if (!session) return refuse("not-found");
        if (session.endTime) return refuse("session-ended");
        if (session.status !== "connected") return refuse("not-connected");
        // The same budget as a browser's, the app being the session's customer side.
        const budget = await consume(eventLimiter, `${APP_ACTOR_ID}:${session.id}`);
        if (!budget.allowed) {
          eventRefusals("budget de la session atteint");
          return refuse("too-many-events", { retryAfterSeconds: budget.retryAfterSeconds });
        }
        const actorId = session.userId ?? APP_ACTOR_ID;
        const { row } = await storeEvent(session.id, actorId, { kind: "chat", text });
        return { ok: true, line: announceChat(session, toSessionEventView(row, session), null) };
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
  };
}
