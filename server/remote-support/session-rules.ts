/**
 * What the parts of the session service share (issue 14: `sessions.ts`
 * split by what it does): the refusals and their French messages (spec §8),
 * the API shapes of a session and of its record (spec §3, §7; issue 6), the
 * session codes (spec §5), the one way a session ends (`endInTransaction`,
 * issue 13 §3 and §11), and `SessionContext`, what `createSessionService`
 * hands to each part (`lifecycle.ts`, `signaling.ts`, `session-record.ts`,
 * `server/requests-inbox.ts`). Imports none of them, nor `sessions.ts`.
 */
import { randomInt } from "node:crypto";
import { and, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { Logger } from "pino";
import type { AppDatabase } from "#database/connection.ts";
import { sessionEvents, sessions, signaling, users } from "#database/schema.ts";
import {
  SESSION_CODE_ALPHABET,
  SESSION_CODE_LENGTH,
  SESSION_MESSAGES,
  type SessionEventView,
  type SessionView,
} from "#app/remote-support/protocol.ts";
import { QUEUE_MESSAGES } from "#app/remote-support/queue.ts";
import { firstNameOf } from "#app/remote-support/technician-name.ts";
import type { ChatLine } from "#app/remote-support/chat-protocol.ts";
import type { Caller } from "#server/access.ts";
import type { RateLimitStore } from "#server/rate-limit.ts";
import type { LimitRule, SessionLimits, SessionSignalBudget } from "./limits.ts";

/** Longest lists answered (history, "mine", requests): newest first. */
export const LIST_LIMIT = 500;

/**
 * Issue 26: the `actor_id` of what the customer does through the desktop app of a session it started itself
 * (`origin` `app`: no account): pairing, consent, leaving. Shown as "le client"; no account id looks like it
 * (better-auth's are 32 random characters).
 */
export const APP_ACTOR_ID = "app";
/** Issue 26: `user_name` of an app-started session whose customer gave no name. */
export const APP_SESSION_DEFAULT_NAME = "Client sans compte";

/** Why a call was refused; `api.ts` maps each to an HTTP status. */
export type RefusalReason =
  | "not-signed-in"
  | "not-permitted"
  | "not-participant"
  | "own-session"
  | "not-found"
  | "already-connected"
  | "already-taken"
  | "not-waiting"
  | "session-ended"
  | "code-expired"
  | "too-many-joins"
  | "too-many-sessions"
  | "too-many-lookups"
  | "too-many-events"
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
  | { type: "auth-session-ended"; authSessionId: string; userId: string }
  // Issue 38 §1: a chat line stored in `session`, to push to its participants (browsers and app).
  | { type: "chat"; session: SessionView; line: ChatLine };

export type SessionRow = typeof sessions.$inferSelect;

/**
 * The API shape of a row (ISO 8601 times). `technicianName`: the account name of the row's technician (the caller
 * who joined, or read by `sessionViews`), null when none; issue 40: only its first word reaches the view.
 */
export function toSessionView(row: SessionRow, technicianName: string | null): SessionView {
  return {
    id: row.id,
    code: row.code,
    status: row.status,
    userId: row.userId,
    technicianId: row.technicianId,
    technicianFirstName: row.technicianId === null ? null : firstNameOf(technicianName),
    startTime: row.startTime?.toISOString() ?? null,
    endTime: row.endTime?.toISOString() ?? null,
    durationSeconds: row.durationSeconds,
    createdAt: row.createdAt.toISOString(),
    userName: row.userName,
    userEmail: row.userEmail,
    origin: row.origin,
  };
}

/**
 * Issue 40: the views of `rows`, each with its technician's first name taken from their account (one query for all;
 * the e-mail is never read). A technician whose account is gone leaves it null.
 * @throws the database's error.
 */
export async function sessionViews(
  db: Pick<AppDatabase, "select">,
  rows: readonly SessionRow[],
): Promise<SessionView[]> {
  const ids = [...new Set(rows.flatMap((row) => (row.technicianId === null ? [] : [row.technicianId])))];
  const names = new Map<string, string>();
  if (ids.length > 0) {
    const found = await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, ids));
    for (const { id, name } of found) names.set(id, name);
  }
  return rows.map((row) =>
    toSessionView(row, row.technicianId === null ? null : (names.get(row.technicianId) ?? null)),
  );
}

/** `sessionViews` of one row. */
export async function sessionView(db: Pick<AppDatabase, "select">, row: SessionRow): Promise<SessionView> {
  const [view] = await sessionViews(db, [row]);
  return view!;
}

/** Generated codes: a clash is one in millions; a few retries are plenty. */
export const CODE_ATTEMPTS = 8;

/** A new random code of the protocol's alphabet and length (crypto random, unbiased). */
export function generateSessionCode(): string {
  let code = "";
  for (let i = 0; i < SESSION_CODE_LENGTH; i++) code += SESSION_CODE_ALPHABET[randomInt(SESSION_CODE_ALPHABET.length)];
  return code;
}

type SessionEventRow = typeof sessionEvents.$inferSelect;

/**
 * An event as the API shows it: the actor is named by their role in `session` (issue 26: in an app-started
 * session, `APP_ACTOR_ID` is its customer).
 */
export function toSessionEventView(
  row: SessionEventRow,
  session: Pick<SessionRow, "userId" | "technicianId" | "origin">,
): SessionEventView {
  const customer = row.actorId === (session.origin === "app" ? APP_ACTOR_ID : session.userId);
  return {
    id: row.id,
    kind: row.kind,
    actor:
      row.actorId === null ? null : customer ? "customer" : row.actorId === session.technicianId ? "technician" : null,
    text: row.text,
    at: row.createdAt.toISOString(),
  };
}

/**
 * The caller's side in `session`, or null when they are not one of its participants. Issue 26: no account is
 * the customer of an app-started session (`userId` null): its app's token is its only customer side.
 */
export function roleIn(
  session: Pick<SessionRow, "userId" | "technicianId">,
  caller: Caller,
): "customer" | "technician" | null {
  if (session.userId !== null && session.userId === caller.userId) return "customer";
  if (session.technicianId === caller.userId) return "technician";
  return null;
}

const refusals = {
  "not-signed-in": SESSION_MESSAGES.notSignedIn,
  // Issue 14: a permission the caller's role lacks (`access.ts`); today only technicians hold any.
  "not-permitted": SESSION_MESSAGES.technicianOnly,
  // Issue 28 §7: a session the caller takes no part in does not exist for them: answered word for word like an
  // unused code (and with the same status, `http.ts`), so a live code of someone else cannot be told from a free one.
  "not-participant": SESSION_MESSAGES.notFound,
  "own-session": SESSION_MESSAGES.ownSession,
  "not-found": SESSION_MESSAGES.notFound,
  "already-connected": SESSION_MESSAGES.alreadyConnected,
  // Issue 27, « Prendre en charge » in the queue: another technician was first, or the customer left it.
  "already-taken": QUEUE_MESSAGES.taken,
  "not-waiting": QUEUE_MESSAGES.gone,
  "session-ended": SESSION_MESSAGES.sessionEnded,
  "code-expired": SESSION_MESSAGES.codeExpired,
  "too-many-joins": SESSION_MESSAGES.tooManyJoins,
  "too-many-sessions": SESSION_MESSAGES.tooManySessions,
  "too-many-lookups": SESSION_MESSAGES.tooManyLookups,
  "too-many-events": SESSION_MESSAGES.tooManyEvents,
  "signal-rate": SESSION_MESSAGES.signalTooFast,
  "signal-quota": SESSION_MESSAGES.signalQuota,
  "not-connected": SESSION_MESSAGES.notConnected,
  "wrong-sender": SESSION_MESSAGES.wrongSender,
  "report-locked": SESSION_MESSAGES.reportLocked,
  "wrong-password": SESSION_MESSAGES.wrongPassword,
  "rate-limited": SESSION_MESSAGES.tooManyAttempts,
  failed: SESSION_MESSAGES.failed,
} satisfies Record<RefusalReason, string>;

export function refuse(reason: RefusalReason, extra?: { retryAfterSeconds: number }): Refusal {
  return { ok: false, reason, message: refusals[reason], ...extra };
}

/** Whole seconds from start_time to now, computed by the database in the same statement as end_time. */
const durationSql = sql<number | null>`case when ${sessions.startTime} is null then null
  else floor(extract(epoch from (now() - ${sessions.startTime})))::integer end`;

export type Transaction = Parameters<Parameters<AppDatabase["transaction"]>[0]>[0];

/**
 * Ends the open session matching `where` inside `tx`: status disconnected,
 * end_time now, duration by the database, an `ended` event by `actorId`
 * (null: the server), and its signaling rows deleted (ICE candidates carry
 * IP addresses; issue 13 §3 and §11). Every way a session ends goes through here.
 * @returns the ended row, or undefined when nothing open matched.
 */
export async function endInTransaction(
  tx: Transaction,
  where: SQL,
  actorId: string | null,
): Promise<SessionRow | undefined> {
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

/** What `createSessionService` gives each part: its options, defaults applied, and the helpers they share. */
export type SessionContext = {
  db: AppDatabase;
  logger: Logger;
  /** Checks a password against a stored hash (`SessionServiceOptions.verifyPasswordHash`). */
  verifyPasswordHash: (data: { hash: string; password: string }) => Promise<boolean>;
  /** New session codes. */
  generateCode: () => string;
  /** Where the per-account limits count. */
  rateLimits: RateLimitStore;
  /** Issue 13 §8: how long an unjoined code stays valid, seconds. */
  codeTtlSeconds: number;
  /** Issue 13 §8: joins and creations per account; issue 28 §7: codes that named none of the caller's sessions. */
  limits: SessionLimits;
  /** Issue 26: sessions started by the desktop app, per IP address. */
  appSessionLimit: LimitRule;
  /** Issue 13 §3: signaling per session. */
  signalBudget: SessionSignalBudget;
  /** Issue 28 §8: events recorded per participant and session (`recordEvent`). */
  eventBudget: LimitRule;
  /** Tells the subscribers a committed change; a listener's error is logged, never thrown. */
  announce(event: SessionServiceEvent): void;
  /** Runs `body`, turning any thrown error into a logged "failed" refusal (spec §8 log messages). */
  guarded<T>(logMessage: string, body: () => Promise<Outcome<T>>): Promise<Outcome<T>>;
  /** The session of `code`, or undefined. */
  findByCode(code: string): Promise<SessionRow | undefined>;
};
