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
 *   Issue 28 §8: within a budget per participant and session; a state
 *   (sharing, control) already in place is not stored again.
 * - Issue 28 §7: a session the caller takes no part in is answered like an
 *   unknown code, and such answers are limited per account (`code-lookups.ts`).
 *
 * Every method resolves to an `Outcome` and never throws: a database failure
 * is logged and becomes `{ ok: false, reason: "failed" }`.
 *
 * Issue 14: this file holds the service's type, its options and
 * `createSessionService`, which builds the shared context and joins the
 * parts, split by what they do:
 * - `session-rules.ts`: what they share (refusals, views, codes,
 *   `endInTransaction`, the context type);
 * - `lifecycle.ts`: create, join, disconnect, end by the server, and the
 *   lists (active, history, mine, participant);
 * - `signaling.ts`: `relaySignal` and the session's signaling budget;
 * - `session-record.ts`: the record (`recordEvent`, `events`), the report
 *   and its access (`verifyPassword`, `authSessionEnded`);
 * - `server/requests-inbox.ts`: the technicians' "Demandes" view (`requests`;
 *   issue 40 « Traité », `setRequestTreated`);
 * - `server/dashboard-counts.ts` (issue 40): the dashboard tabs' counts (`dashboardCounts`);
 * - `app-sessions.ts` (issue 26): sessions the desktop app starts without an
 *   account (`createFromApp`, `endFromApp`);
 * - `technician-release.ts` (issue 37 §4): the sessions of a technician
 *   disabled, deleted or demoted, ended and announced (`announceReleased`).
 * What moved is re-exported here, so importers keep importing this file.
 *
 * Issue 26: a session's customer is an account (`origin` `site`) or, for a
 * session the app started, no one (`origin` `app`, `userId` null): no account
 * is ever its customer (`roleIn`), its app's token is its only customer side.
 */
import { eq } from "drizzle-orm";
import type { Logger } from "pino";
import type { AppDatabase } from "#database/connection.ts";
import { sessions } from "#database/schema.ts";
import type {
  SessionEventBody,
  SessionEventView,
  SignalData,
  SessionReport,
  SessionView,
} from "#app/remote-support/protocol.ts";
import type { Caller } from "#server/access.ts";
import { MEMORY_STORE, type RateLimitStore } from "#server/rate-limit.ts";
import {
  DEFAULT_APP_SESSION_LIMIT,
  DEFAULT_CODE_TTL_SECONDS,
  DEFAULT_SESSION_EVENT_BUDGETS,
  DEFAULT_SESSION_LIMITS,
  DEFAULT_SESSION_SIGNAL_BUDGET,
  type LimitRule,
  type SessionLimits,
  type SessionSignalBudget,
} from "./limits.ts";
import { createAppSessions, type AppSessionCreated, type AppSessionInput } from "./app-sessions.ts";
import { createRequestsInbox, type RequestsInbox } from "#server/requests-inbox.ts";
import { createDashboardCounts, type DashboardCountsMethods } from "#server/dashboard-counts.ts";
import { createCodeLookups, type CodeLookups } from "./code-lookups.ts";
import { createLifecycle } from "./lifecycle.ts";
import { createSessionConversation, type SessionConversation } from "./session-conversation.ts";
import { createSessionRecord } from "./session-record.ts";
import { createWaitingQueue, type WaitingQueueMethods } from "./waiting-queue.ts";
import { createComputerFacts, type ComputerFactsMethods } from "./computer-facts.ts";
import { createSignaling } from "./signaling.ts";
import { createTechnicianRelease, type TechnicianReleaseMethods } from "./technician-release.ts";
import type { ChatLine } from "#app/remote-support/chat-protocol.ts";
import {
  generateSessionCode,
  refuse,
  type Outcome,
  type SessionContext,
  type SessionRow,
  type SessionServiceEvent,
} from "./session-rules.ts";

export { REPORT_GRANT_SECONDS, VERIFY_ATTEMPTS_PER_MINUTE } from "./session-record.ts";
export type { AppSessionCreated, AppSessionInput } from "./app-sessions.ts";
export {
  APP_ACTOR_ID,
  APP_SESSION_DEFAULT_NAME,
  LIST_LIMIT,
  endInTransaction,
  generateSessionCode,
  toSessionEventView,
  toSessionView,
} from "./session-rules.ts";
export type { Outcome, Refusal, RefusalReason, SessionServiceEvent } from "./session-rules.ts";

/**
 * Issue 18 §4's `createFromAssistant` and `conversation` are `SessionConversation`'s (`session-conversation.ts`);
 * issue 27's queue reads are `WaitingQueueMethods`' (`waiting-queue.ts`).
 */
export type SessionService = SessionServiceMethods &
  WaitingQueueMethods &
  TechnicianReleaseMethods &
  ComputerFactsMethods & // Issue 38 §4 (`computer-facts.ts`).
  RequestsInbox & // « Demandes » (`server/requests-inbox.ts`).
  DashboardCountsMethods; // Issue 40 (`server/dashboard-counts.ts`).
type SessionServiceMethods = SessionConversation & {
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
  create(
    caller: Caller | null,
    input: { code?: string; system?: string | null },
  ): Promise<Outcome<{ session: SessionView; created: boolean }>>;
  /**
   * Spec §4 "Technician join": connected, technician_id = caller, start_time
   * = now, in one statement. Refusals: not-permitted, not-found ("Session
   * non trouvée"), already-connected ("Session déjà connectée"),
   * session-ended, own-session, code-expired (nobody joined it within
   * `codeTtlSeconds`: the server ends it, and its customer's screen offers a
   * new code), too-many-joins (issue 13 §8: `limits.joins` attempts, or
   * `limits.joinFailures` refusals, per technician; `retryAfterSeconds`).
   */
  join(caller: Caller | null, code: string): Promise<Outcome<{ session: SessionView }>>;
  /**
   * Issue 27, « Prendre en charge » in the queue: `join`'s one statement (of two technicians clicking at once,
   * one gets it), counted in `limits.joins` but not as a failed join when lost. Refusals: not-permitted,
   * not-found, own-session, already-taken (409 « Ce client est déjà pris en charge par un autre technicien. »),
   * not-waiting (410: ended, or its code expired), too-many-joins (`retryAfterSeconds`).
   */
  claim(caller: Caller | null, code: string): Promise<Outcome<{ session: SessionView }>>;
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
  /**
   * Issue 13 §8: ends every open session whose code expired unused (actor
   * null) and announces each, so a customer's open screen offers a new code
   * without waiting for a reload. Run periodically by `realtime.ts`.
   */
  expireCodes(): Promise<Outcome<{ ended: number }>>;
  /**
   * Issue 26, `POST /api/device/sessions`: the desktop app, with no account, starts a session (`origin` `app`,
   * named `input.customerName` or `APP_SESSION_DEFAULT_NAME`) already paired with it: its token (in clear, this
   * once), names, code and when the code expires unjoined (`codeTtlSeconds` after creation). `clientKey`: the
   * caller's IP address, counted before creating (`appSessionLimit`). Refusal: too-many-sessions
   * (`retryAfterSeconds`).
   */
  createFromApp(input: AppSessionInput, clientKey: string): Promise<Outcome<AppSessionCreated>>;
  /**
   * Issue 26: the app of pairing `pairingId` left its app-started session `sessionId` (`device:leave`): the session
   * ends, its customer side gone (an `ended` event by `APP_ACTOR_ID`), announced like any end. `session` null when
   * nothing ended (a site session, another pairing, or already ended).
   */
  endFromApp(sessionId: string, pairingId: string): Promise<Outcome<{ session: SessionView | null }>>;
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
  /**
   * Spec §7 "Insert into signaling": stores `data` (JSON text) from one
   * participant of a connected session and names the other, who alone
   * receives it. Refusals: not-found, not-participant (answered alike, issue 28 §7), not-connected,
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
   * remote input only while it is connected ("not-connected"). Issue 28 §8:
   * at most `eventBudget.points` per participant, session and window
   * ("too-many-events", `retryAfterSeconds`), counted before storing; a state
   * (sharing, control) already in place is not stored again: `stored` false
   * and `event` the one that set it.
   */
  recordEvent(
    caller: Caller | null,
    code: string,
    body: SessionEventBody,
  ): Promise<Outcome<{ event: SessionEventView; stored: boolean }>>;
  /**
   * Issue 38 §1: the desktop app of session `sessionId` (its customer side) says `text` in the chat: while the
   * session is connected, within the event budget of the app's side; stored and announced (`type: "chat"`).
   */
  recordAppChat(sessionId: string, text: string): Promise<Outcome<{ line: ChatLine }>>;
  /** Issue 6: the caller's side in a session not ended (ICE servers are issued to participants only). */
  participant(
    caller: Caller | null,
    code: string,
  ): Promise<Outcome<{ role: "customer" | "technician"; session: SessionView }>>;
  /** Issue 6: the session's record, oldest first, for its customer and its joined technician. */
  events(caller: Caller | null, code: string): Promise<Outcome<{ events: SessionEventView[] }>>;
  /**
   * Issue 28 §7: calls by code answered « Session non trouvée », counted per account (`limits.lookupFailures`);
   * the routes with `:code` check and count through it (`codeAddressed`, `code-lookups.ts`).
   */
  codeLookups: CodeLookups;
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
  /** Issue 13 §8: joins and creations per account; issue 28 §7: misses by code (default `DEFAULT_SESSION_LIMITS`). */
  limits?: SessionLimits;
  /** Issue 13 §3: signaling per session (default `DEFAULT_SESSION_SIGNAL_BUDGET`). */
  signalBudget?: SessionSignalBudget;
  /** Issue 26: sessions the desktop app starts, per IP address (default `DEFAULT_APP_SESSION_LIMIT`). */
  appSessionLimit?: LimitRule;
  /** Issue 28 §8: events recorded per participant and session (default `DEFAULT_SESSION_EVENT_BUDGETS.events`). */
  eventBudget?: LimitRule;
};

export function createSessionService({
  db,
  logger,
  verifyPasswordHash,
  generateCode = generateSessionCode,
  rateLimits = MEMORY_STORE,
  codeTtlSeconds = DEFAULT_CODE_TTL_SECONDS,
  limits = DEFAULT_SESSION_LIMITS,
  signalBudget = DEFAULT_SESSION_SIGNAL_BUDGET,
  appSessionLimit = DEFAULT_APP_SESSION_LIMIT,
  eventBudget = DEFAULT_SESSION_EVENT_BUDGETS.events,
}: SessionServiceOptions): SessionService {
  const listeners = new Set<(event: SessionServiceEvent) => void>();

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

  const context: SessionContext = {
    db,
    logger,
    verifyPasswordHash,
    generateCode,
    rateLimits,
    codeTtlSeconds,
    limits,
    appSessionLimit,
    signalBudget,
    eventBudget,
    announce,
    guarded,
    findByCode,
  };
  const lifecycle = createLifecycle(context);
  return {
    ...lifecycle,
    ...createSessionConversation(context, lifecycle.create),
    ...createSessionRecord(context),
    ...createRequestsInbox(context),
    ...createDashboardCounts(context),
    ...createSignaling(context),
    ...createAppSessions(context),
    ...createWaitingQueue(context),
    ...createComputerFacts(context),
    // Issue 37 §4: sessions of a technician who lost their access, announced once their end is committed.
    ...createTechnicianRelease(context),
    codeLookups: createCodeLookups(context),
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
