/**
 * The outbox worker (issue 4): delivers pending `outbox_messages` rows through
 * a `MailTransport`, in the server process.
 *
 * - Claims due rows with `FOR UPDATE SKIP LOCKED` and a lease
 *   (`locked_until`), so concurrent workers never send one message at once.
 * - On success the row becomes `sent` (never picked again); on failure it
 *   stays `pending` with `attempts`, `last_error` and a `next_attempt_at`
 *   after an exponential backoff: base × 2^(attempts−1), capped, ±20 % jitter.
 *   There is no give-up: a request must reach the shop, so it is retried at
 *   the capped interval until the transport accepts it.
 * - State lives in the database: a restart resumes where it stopped. A crash
 *   between the transport's acceptance and the `sent` update can repeat a
 *   delivery; the stored Message-ID lets mail systems recognise the duplicate.
 */
import { and, asc, eq, inArray, isNull, lte, lt, or, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { AppDatabase } from "#database/connection.ts";
import { outboxMessages } from "#database/schema.ts";
import type { MailTransport } from "./transports.ts";

export type OutboxWorkerOptions = {
  db: AppDatabase;
  transport: MailTransport;
  logger: Logger;
  /** Idle time between two looks at the table, ms. */
  pollIntervalMs: number;
  /** First retry delay, ms; doubles with each failed attempt. */
  retryBaseMs: number;
  /** Longest retry delay, ms. */
  retryMaxMs: number;
  /** How long a claimed row stays reserved for this worker, ms (default 60 000). */
  leaseMs?: number;
  /** Rows claimed at once (default 10). */
  batchSize?: number;
};

export type OutboxWorker = {
  /** Starts polling; delivers what is already due. */
  start(): void;
  /** Looks at the table within `WAKE_DELAY_MS` (after a new request) instead of at the next poll. */
  wake(): void;
  /** Delivers every due message once, for tests and benches; resolves with the number sent. */
  runOnce(): Promise<number>;
  /** Stops polling and waits for the delivery in progress. */
  stop(): Promise<void>;
};

/** A new request is delivered this long (ms) after it is stored, at most. */
export const WAKE_DELAY_MS = 100;

/** Delay before attempt `attempts + 1`, in ms (`attempts` ≥ 1 failures so far). */
export function retryDelayMs(
  attempts: number,
  baseMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(exponential * (0.8 + 0.4 * random()));
}

export function createOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const { db, transport, logger } = options;
  const leaseMs = options.leaseMs ?? 60_000;
  const batchSize = options.batchSize ?? 10;
  let timer: NodeJS.Timeout | undefined;
  let wakeTimer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let again = false;
  let stopped = true;

  async function claimBatch() {
    const now = sql`now()`;
    const due = db
      .select({ id: outboxMessages.id })
      .from(outboxMessages)
      .where(
        and(
          eq(outboxMessages.status, "pending"),
          lte(outboxMessages.nextAttemptAt, now),
          or(isNull(outboxMessages.lockedUntil), lt(outboxMessages.lockedUntil, now)),
        ),
      )
      .orderBy(asc(outboxMessages.nextAttemptAt), asc(outboxMessages.createdAt))
      .limit(batchSize)
      .for("update", { skipLocked: true });
    const claimed = await db
      .update(outboxMessages)
      .set({
        lockedUntil: sql`now() + ${`${leaseMs} milliseconds`}::interval`,
        attempts: sql`${outboxMessages.attempts} + 1`,
        lastAttemptAt: now,
      })
      .where(inArray(outboxMessages.id, due))
      .returning();
    // RETURNING follows no order: deliver oldest first.
    return claimed.sort(
      (a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || a.createdAt.getTime() - b.createdAt.getTime(),
    );
  }

  async function deliverDue(): Promise<number> {
    let sent = 0;
    for (;;) {
      const batch = await claimBatch();
      if (batch.length === 0) return sent;
      for (const row of batch) {
        try {
          await transport.send({ messageId: row.messageId, mail: row.mail, createdAt: row.createdAt });
        } catch (error) {
          const delay = retryDelayMs(row.attempts, options.retryBaseMs, options.retryMaxMs);
          const message = error instanceof Error ? error.message : String(error);
          await db
            .update(outboxMessages)
            .set({
              lockedUntil: null,
              lastError: message.slice(0, 1000),
              nextAttemptAt: sql`now() + ${`${delay} milliseconds`}::interval`,
            })
            .where(eq(outboxMessages.id, row.id));
          logger.warn(
            { messageId: row.messageId, attempts: row.attempts, retryInMs: delay, err: message },
            "envoi du mail échoué, nouvel essai programmé",
          );
          continue;
        }
        await db
          .update(outboxMessages)
          .set({ status: "sent", sentAt: sql`now()`, lockedUntil: null, lastError: null })
          .where(eq(outboxMessages.id, row.id));
        sent += 1;
        logger.info(
          { messageId: row.messageId, kind: row.requestKind, attempts: row.attempts, transport: transport.describe },
          "mail envoyé",
        );
      }
    }
  }

  function runOnce(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = deliverDue()
      .catch((error: unknown) => {
        logger.error({ err: error }, "outbox : lecture de la file impossible, nouvel essai au prochain passage");
        return 0;
      })
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          void runOnce();
        }
      });
    return running;
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(async () => {
      await runOnce();
      schedule();
    }, options.pollIntervalMs);
    timer.unref();
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      logger.info({ transport: transport.describe }, "outbox : distribution des mails démarrée");
      void runOnce();
      schedule();
    },
    wake() {
      // Coalesced: under a burst of requests the worker runs a few times a second on full batches,
      // instead of once per request competing with the requests for the database.
      if (stopped || wakeTimer) return;
      wakeTimer = setTimeout(() => {
        wakeTimer = undefined;
        void runOnce();
      }, WAKE_DELAY_MS);
    },
    runOnce,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(wakeTimer);
      wakeTimer = undefined;
      await running;
    },
  };
}
