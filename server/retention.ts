/**
 * Retention (issue 13 §11): deletes personal data once its period is over,
 * on PGlite and PostgreSQL alike. Periods come from `RETENTION_*` (defaults
 * and reasons in `app/config/retention.ts`, the values the legal notices state).
 *
 * What goes, per kind (`PurgeCounts`):
 * - contact and quote requests whose e-mail address has sent nothing (neither
 *   form) for `requestDays`: "3 years after the last contact"; a request
 *   whose mail is still pending is kept;
 * - delivered mails (`status = 'sent'`) `sentMailDays` after delivery, with
 *   their `.eml` copy in `DATA_DIR/outbox/`; pending mails never;
 * - signaling rows of ended sessions (left over from before they were
 *   deleted at the end) and any row older than `signalingHours`;
 * - sessions that ended (or, never ended, were created) more than
 *   `sessionDays` ago, their events and chat first, then their desktop app
 *   row (issue 15: computer name, screens; the token is voided at the end);
 * - desktop-app pairing codes (issue 15) and resume tickets (issue 36 §4) once expired or their session ended;
 * - the assistant conversation of an account silent for `assistantDays`;
 * - ratings of the assistant's answers, with the exchange copied with them,
 *   not changed for `assistantDays` (issue 17 §4);
 * - appointments whose slot ended more than `appointmentDays` ago (issue 18 §1);
 * - repair tickets closed (returned or cancelled) more than `repairDays`
 *   ago, their steps with them (issue 18 §2); open tickets never;
 * - expired sign-in sessions and verifications (reset tokens, report grants);
 * - staff invitation and manager set-up links past their time, used or not (issue 29: the invited address);
 * - entries of the price history (« Tarifs », issue 29: who changed what) older than `PRICE_HISTORY_DAYS`;
 * - expired rate-limit counters (their keys name accounts and IP addresses).
 *
 * Each kind is deleted in batches of `batchSize` rows, one statement at a
 * time with a pause between, so a large backlog never holds PGlite (one
 * connection) for long: requests interleave with the purge.
 * Nothing here logs or returns content: counts only.
 */
import { unlink } from "node:fs/promises";
import path from "node:path";
import { sql, type SQL } from "drizzle-orm";
import type { Logger } from "pino";
import type { AppDatabase } from "#database/connection.ts";
import type { Env } from "./env.ts";
import { emlFileName } from "./outbox/transports.ts";

export type RetentionPolicy = {
  requestDays: number;
  sentMailDays: number;
  sessionDays: number;
  assistantDays: number;
  appointmentDays: number;
  repairDays: number;
  signalingHours: number;
  /** Rows per delete statement. */
  batchSize: number;
  /** Hours between two scheduled purges. */
  intervalHours: number;
};

/** The policy of `RETENTION_*`. */
export function retentionPolicyFromEnv(env: Env): RetentionPolicy {
  return {
    requestDays: env.RETENTION_REQUESTS_DAYS,
    sentMailDays: env.RETENTION_SENT_MAIL_DAYS,
    sessionDays: env.RETENTION_SESSIONS_DAYS,
    assistantDays: env.RETENTION_ASSISTANT_DAYS,
    appointmentDays: env.RETENTION_APPOINTMENTS_DAYS,
    repairDays: env.RETENTION_REPAIRS_DAYS,
    signalingHours: env.RETENTION_SIGNALING_HOURS,
    batchSize: env.RETENTION_BATCH_SIZE,
    intervalHours: env.RETENTION_INTERVAL_HOURS,
  };
}

/** Where the file transport writes `.eml` copies (`mailTransportConfig`'s folder). */
export function outboxFolder(env: Pick<Env, "DATA_DIR">): string {
  return path.resolve(env.DATA_DIR, "outbox");
}

export const PURGE_KINDS = [
  "contactRequests",
  "quoteRequests",
  "sentMails",
  "emlFiles",
  "signaling",
  "sessionEvents",
  "pairingCodes",
  "resumeTickets",
  "sessionDevices",
  "sessions",
  "assistantMessages",
  "assistantRatings",
  "appointments",
  "repairTickets",
  "authSessions",
  "verifications",
  "staffInvitations",
  "priceHistory",
  "rateLimits",
] as const;
export type PurgeKind = (typeof PURGE_KINDS)[number];
/** Deleted rows (files for `emlFiles`) per kind. */
export type PurgeCounts = Record<PurgeKind, number>;

/** French names of each kind, for `npm run purge`. */
export const PURGE_LABELS: Record<PurgeKind, string> = {
  contactRequests: "demandes de contact",
  quoteRequests: "demandes de devis",
  sentMails: "mails envoyés (file d'envoi)",
  emlFiles: "fichiers .eml",
  signaling: "messages de signalisation",
  sessionEvents: "événements et messages de session",
  pairingCodes: "codes d'appairage du logiciel",
  resumeTickets: "tickets de reprise du logiciel (relance en administrateur)",
  sessionDevices: "logiciels de bureau des sessions",
  sessions: "sessions d'assistance",
  assistantMessages: "messages de l'assistant",
  assistantRatings: "avis sur les réponses de l'assistant",
  appointments: "rendez-vous",
  repairTickets: "tickets de réparation",
  authSessions: "sessions de connexion expirées",
  verifications: "vérifications expirées",
  staffInvitations: "invitations de l'équipe expirées",
  priceHistory: "historique des tarifs de plus de 3 ans",
  rateLimits: "compteurs de limite expirés",
};

export type PurgeOptions = {
  db: AppDatabase;
  policy: RetentionPolicy;
  /** `DATA_DIR/outbox`: the `.eml` copies of purged mails are deleted from it. */
  outboxFolder: string;
  /** Pause between two batches, ms (default 20): lets requests waiting on the database through. */
  pauseMs?: number;
  /** Checked between batches: true ends the purge early (server shutting down). */
  shouldStop?: () => boolean;
};

/** Issue 29: the price history (« Historique des modifications ») is kept 3 years. */
export const PRICE_HISTORY_DAYS = 3 * 365;

const days = (count: number) => sql`now() - ${count}::integer * interval '1 day'`;
const hours = (count: number) => sql`now() - ${count}::integer * interval '1 hour'`;

/**
 * Runs every purge once, each to the end of its backlog (or until
 * `shouldStop`). @returns what was deleted per kind.
 * @throws the database's error; counts of the kinds already done are lost
 * with it, the rows stay deleted.
 */
export async function purgeExpired(options: PurgeOptions): Promise<PurgeCounts> {
  const { db, policy } = options;
  const limit = policy.batchSize;
  const pauseMs = options.pauseMs ?? 20;
  const counts = Object.fromEntries(PURGE_KINDS.map((kind) => [kind, 0])) as PurgeCounts;

  /** Deletes with `statement` (a `delete … returning 1` of at most `limit` rows) until a batch comes back short. */
  async function inBatches(kind: PurgeKind, statement: () => SQL): Promise<void> {
    for (;;) {
      if (options.shouldStop?.()) return;
      const result = (await db.execute(
        sql`with deleted as (${statement()}) select count(*)::integer as n from deleted`,
      )) as unknown as {
        rows: { n: number | string }[];
      };
      const deleted = Number(result.rows[0]?.n ?? 0);
      counts[kind] += deleted;
      if (deleted < limit) return;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }

  // "After the last contact": a request goes only when its address has sent nothing newer, through either form.
  const requestCutoff = days(policy.requestDays);
  const noRecentContact = (email: SQL) => sql`
    not exists (select 1 from contact_requests recent where lower(recent.email) = lower(${email}) and recent.created_at >= ${requestCutoff})
    and not exists (select 1 from quote_requests recent where lower(recent.email) = lower(${email}) and recent.created_at >= ${requestCutoff})`;
  const mailPending = (id: SQL) =>
    sql`exists (select 1 from outbox_messages o where o.request_id = ${id} and o.status = 'pending')`;
  await inBatches(
    "contactRequests",
    () => sql`delete from contact_requests where id in (
      select c.id from contact_requests c
      where c.created_at < ${requestCutoff} and ${noRecentContact(sql`c.email`)} and not ${mailPending(sql`c.id`)}
      limit ${limit}) returning 1`,
  );
  await inBatches(
    "quoteRequests",
    () => sql`delete from quote_requests where id in (
      select q.id from quote_requests q
      where q.created_at < ${requestCutoff} and ${noRecentContact(sql`q.email`)} and not ${mailPending(sql`q.id`)}
      limit ${limit}) returning 1`,
  );

  // Delivered mails: the .eml copy first, so a failure leaves a row that the next purge retries, never a lost file.
  for (;;) {
    if (options.shouldStop?.()) break;
    const batch = (await db.execute(sql`
      select id, message_id from outbox_messages
      where status = 'sent' and sent_at < ${days(policy.sentMailDays)}
      order by sent_at limit ${limit}`)) as unknown as { rows: { id: string; message_id: string }[] };
    if (batch.rows.length === 0) break;
    for (const row of batch.rows) {
      const removed = await unlink(path.join(options.outboxFolder, `${emlFileName(row.message_id)}.eml`)).then(
        () => true,
        (error: NodeJS.ErrnoException) => {
          // Mails delivered by SMTP or the e-mail API have no copy.
          if (error.code === "ENOENT") return false;
          throw error;
        },
      );
      if (removed) counts.emlFiles += 1;
    }
    const ids = sql.join(
      batch.rows.map((row) => sql`${row.id}::uuid`),
      sql`, `,
    );
    const result = (await db.execute(sql`
      with deleted as (delete from outbox_messages where status = 'sent' and id in (${ids}) returning 1)
      select count(*)::integer as n from deleted`)) as unknown as { rows: { n: number | string }[] };
    counts.sentMails += Number(result.rows[0]?.n ?? 0);
    if (batch.rows.length < limit) break;
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }

  await inBatches(
    "signaling",
    () => sql`delete from signaling where id in (
      select s.id from signaling s join sessions x on x.code = s.session_code
      where x.end_time is not null or s.created_at < ${hours(policy.signalingHours)}
      limit ${limit}) returning 1`,
  );

  // A session's events go first, in batches: the cascade of deleting the session would take them all in one statement.
  const sessionCutoff = days(policy.sessionDays);
  await inBatches(
    "sessionEvents",
    () => sql`delete from session_events where id in (
      select e.id from session_events e join sessions s on s.id = e.session_id
      where coalesce(s.end_time, s.created_at) < ${sessionCutoff}
      limit ${limit}) returning 1`,
  );
  // Issues 15, 36 §4: pairing codes and resume tickets live minutes; a session's app row goes with the session.
  await inBatches(
    "pairingCodes",
    () => sql`delete from device_pairing_codes where code_hash in (
      select c.code_hash from device_pairing_codes c join sessions s on s.id = c.session_id
      where c.expires_at < now() or s.end_time is not null
      limit ${limit}) returning 1`,
  );
  await inBatches(
    "resumeTickets",
    () => sql`delete from device_resume_tickets where ticket_hash in (
      select t.ticket_hash from device_resume_tickets t join sessions s on s.id = t.session_id
      where t.expires_at < now() or s.end_time is not null limit ${limit}) returning 1`,
  );
  await inBatches(
    "sessionDevices",
    () => sql`delete from session_devices where session_id in (
      select d.session_id from session_devices d join sessions s on s.id = d.session_id
      where coalesce(s.end_time, s.created_at) < ${sessionCutoff}
      limit ${limit}) returning 1`,
  );
  await inBatches(
    "sessions",
    () => sql`delete from sessions where id in (
      select s.id from sessions s
      where coalesce(s.end_time, s.created_at) < ${sessionCutoff}
        and not exists (select 1 from session_events e where e.session_id = s.id)
      limit ${limit}) returning 1`,
  );

  await inBatches(
    "assistantMessages",
    () => sql`delete from assistant_messages where id in (
      select m.id from assistant_messages m
      where m.user_id in (
        select user_id from assistant_messages group by user_id having max(created_at) < ${days(policy.assistantDays)})
      limit ${limit}) returning 1`,
  );

  // A rating outlives its conversation (it keeps a copy of the exchange), so it has a period of its own.
  await inBatches(
    "assistantRatings",
    () => sql`delete from assistant_ratings where id in (
      select id from assistant_ratings where updated_at < ${days(policy.assistantDays)} limit ${limit}) returning 1`,
  );

  await inBatches(
    "appointments",
    () => sql`delete from appointments where id in (
      select id from appointments where ends_at < ${days(policy.appointmentDays)} limit ${limit}) returning 1`,
  );
  // Closed tickets only: the last change of a returned or cancelled ticket is its closing. Steps go by cascade.
  await inBatches(
    "repairTickets",
    () => sql`delete from repair_tickets where id in (
      select id from repair_tickets where status in ('returned', 'cancelled') and updated_at < ${days(policy.repairDays)}
      limit ${limit}) returning 1`,
  );

  await inBatches(
    "authSessions",
    () =>
      sql`delete from auth_sessions where id in (select id from auth_sessions where expires_at < now() limit ${limit}) returning 1`,
  );
  await inBatches(
    "verifications",
    () =>
      sql`delete from verifications where id in (select id from verifications where expires_at < now() limit ${limit}) returning 1`,
  );
  await inBatches(
    "staffInvitations",
    () =>
      sql`delete from staff_invitations where id in (select id from staff_invitations where expires_at < now() limit ${limit}) returning 1`,
  );
  await inBatches(
    "priceHistory",
    () => sql`delete from catalogue_history where id in (
      select id from catalogue_history where changed_at < ${days(PRICE_HISTORY_DAYS)} limit ${limit}) returning 1`,
  );
  // Rate-limit keys hold account ids and IP addresses (issue 13 §10); `expire` is ms since the epoch, null = never.
  await inBatches(
    "rateLimits",
    () => sql`delete from rate_limits where key in (
      select key from rate_limits where expire < (extract(epoch from now()) * 1000)::bigint limit ${limit}) returning 1`,
  );
  return counts;
}

export type RetentionWorker = {
  /** Schedules the first purge after `firstRunDelayMs`, then one every `policy.intervalHours`. */
  start(): void;
  /** Cancels the schedule and waits for a purge in progress to stop at its next batch. */
  stop(): Promise<void>;
  /** One purge now (or the one in progress); undefined if it failed (logged). */
  runOnce(): Promise<PurgeCounts | undefined>;
};

export type RetentionWorkerOptions = Omit<PurgeOptions, "shouldStop"> & {
  logger: Logger;
  /** Delay of the first purge after `start()`, ms (default 30 s: the server's start-up and first visitors go first). */
  firstRunDelayMs?: number;
};

/**
 * The scheduled purges inside the server. Timers are unref'd: they never keep
 * the process alive. Logs the counts of a purge that deleted something, or its
 * error (the next one retries).
 */
export function createRetentionWorker(options: RetentionWorkerOptions): RetentionWorker {
  const { logger, policy } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<PurgeCounts | undefined> | undefined;
  let scheduled = false;
  /** Set by stop(): a purge in progress ends at its next batch. */
  let stopping = false;

  function runOnce(): Promise<PurgeCounts | undefined> {
    running ??= purgeExpired({ ...options, shouldStop: () => stopping })
      .then((counts) => {
        const deleted = Object.fromEntries(Object.entries(counts).filter(([, count]) => count > 0));
        if (Object.keys(deleted).length > 0) logger.info({ deleted }, "rétention : données anciennes supprimées");
        return counts;
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, "rétention : purge interrompue, nouvel essai au prochain passage");
        return undefined;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  function schedule(delayMs: number) {
    // setTimeout fires at once past 2³¹ − 1 ms (about 24 days).
    timer = setTimeout(
      () => {
        void runOnce().finally(() => {
          if (scheduled) schedule(policy.intervalHours * 3_600_000);
        });
      },
      Math.min(delayMs, 2 ** 31 - 1),
    );
    timer.unref();
  }

  return {
    start() {
      if (scheduled) return;
      scheduled = true;
      stopping = false;
      schedule(options.firstRunDelayMs ?? 30_000);
    },
    async stop() {
      scheduled = false;
      stopping = true;
      clearTimeout(timer);
      await running;
    },
    runOnce,
  };
}
