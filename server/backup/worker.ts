/**
 * The nightly backup inside the server (issue 29), beside the retention
 * purges (`server/retention.ts`), created stopped and started once the
 * server listens.
 *
 * When (`planNextBackup`, pure, tested with an injected clock):
 * - every night at `BACKUP_HOUR` o'clock, the shop's local time (Europe/Paris,
 *   daylight saving included);
 * - at start, when the last success is ~24 h old or more (the server was off
 *   at night) and the night's run is over an hour away: one after
 *   `startDelayMs` (default 2 min: the start-up and first visitors go first);
 * - after a failure, again an hour later, twice at most, then the next night.
 *
 * Each run: `createBackup`, then the status file, then retention
 * (`pruneBackups`: older than `BACKUP_KEEP_DAYS`, only after a success, the
 * newest always kept). A failure is logged at `error` (the error's class and
 * message: `server/logger.ts` keeps a database error's row values out) and
 * recorded for the manager (`status.ts`). Timers are unref'd.
 */
import { TZDate } from "@date-fns/tz";
import type { Logger } from "pino";
import type { DatabaseHandle } from "#database/connection.ts";
import { SHOP_TIME_ZONE } from "#app/booking/settings.ts";
import { createBackup, pruneBackups, type BackupResult } from "./backup.ts";
import { lastSuccessAt, recordBackupFailure, recordBackupSuccess } from "./status.ts";

const HOUR_MS = 3_600_000;
/** A last success older than this (a little under a day, so a 03:00 backup at 03:00:05 counts) calls for a catch-up. */
export const CATCH_UP_AFTER_MS = 23 * HOUR_MS;
/** Retries of a failed backup before waiting for the next night. */
const MAX_RETRIES = 2;

/** The first instant strictly after `now` at `hour`:00 in `timeZone`. */
export function nextNightlyAt(now: Date, hour: number, timeZone = SHOP_TIME_ZONE): Date {
  const local = new TZDate(now.getTime(), timeZone);
  for (let days = 0; days <= 2; days++) {
    const candidate = new TZDate(local.getFullYear(), local.getMonth(), local.getDate() + days, hour, 0, 0, timeZone);
    if (candidate.getTime() > now.getTime()) return new Date(candidate.getTime());
  }
  throw new Error("heure de sauvegarde introuvable");
}

export type BackupPlan = { at: Date; reason: "nuit" | "rattrapage" | "nouvel essai" };

/**
 * When the next backup runs.
 * @param input.lastSuccessAt the last successful backup (undefined: none yet)
 * @param input.failuresInARow failed runs since the last success (0 after a success)
 * @param input.atStart whether the server has just started (a missed night is caught up)
 */
export function planNextBackup(input: {
  now: Date;
  hour: number;
  timeZone?: string;
  lastSuccessAt: Date | undefined;
  failuresInARow: number;
  atStart: boolean;
  startDelayMs: number;
}): BackupPlan {
  const now = input.now.getTime();
  const nightly = nextNightlyAt(input.now, input.hour, input.timeZone);
  const nightAway = nightly.getTime() - now;
  if (input.atStart) {
    const overdue = !input.lastSuccessAt || now - input.lastSuccessAt.getTime() >= CATCH_UP_AFTER_MS;
    if (overdue && nightAway > HOUR_MS) return { at: new Date(now + input.startDelayMs), reason: "rattrapage" };
  } else if (input.failuresInARow > 0 && input.failuresInARow <= MAX_RETRIES && nightAway > 2 * HOUR_MS) {
    return { at: new Date(now + HOUR_MS), reason: "nouvel essai" };
  }
  return { at: nightly, reason: "nuit" };
}

export type BackupWorker = {
  /** Plans the first backup (a catch-up, or the night's). */
  start(): void;
  /** Cancels the schedule and waits for a backup in progress. */
  stop(): Promise<void>;
  /** One backup now (or the one in progress); undefined if it failed (logged and recorded). */
  runOnce(): Promise<BackupResult | undefined>;
};

export type BackupWorkerOptions = {
  handle: Pick<DatabaseHandle, "db" | "pool" | "kind">;
  /** The backup folder (`backupFolder(env)`). */
  dir: string;
  /** `BACKUP_HOUR`, 0–23, shop time. */
  hour: number;
  /** `BACKUP_KEEP_DAYS`. */
  keepDays: number;
  logger: Logger;
  timeZone?: string;
  /** The clock (tests); default `new Date()`. */
  now?: () => Date;
  /** Delay of a catch-up backup after `start()`, ms (default 120 000). */
  startDelayMs?: number;
};

/** The scheduled backups of a running server. */
export function createBackupWorker(options: BackupWorkerOptions): BackupWorker {
  const { logger, dir } = options;
  const now = options.now ?? (() => new Date());
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<BackupResult | undefined> | undefined;
  let scheduled = false;
  let failuresInARow = 0;

  function runOnce(): Promise<BackupResult | undefined> {
    running ??= (async () => {
      try {
        const result = await createBackup({ handle: options.handle, dir, now: now() });
        failuresInARow = 0;
        await recordBackupSuccess(dir, result, now());
        const deleted = await pruneBackups(dir, now(), options.keepDays);
        const rows = result.header.tables.reduce((sum, table) => sum + table.rows, 0);
        logger.info(
          { file: result.file, sizeBytes: result.sizeBytes, durationMs: result.durationMs, rows, deleted },
          "sauvegarde faite",
        );
        return result;
      } catch (error) {
        failuresInARow += 1;
        await recordBackupFailure(dir, error, now());
        logger.error({ err: error, dir }, "sauvegarde : échec (visible dans l'état des sauvegardes)");
        return undefined;
      } finally {
        running = undefined;
      }
    })();
    return running;
  }

  async function scheduleNext(atStart: boolean): Promise<void> {
    const plan = planNextBackup({
      now: now(),
      hour: options.hour,
      timeZone: options.timeZone,
      lastSuccessAt: await lastSuccessAt(dir),
      failuresInARow,
      atStart,
      startDelayMs: options.startDelayMs ?? 120_000,
    });
    if (!scheduled) return;
    if (plan.reason !== "nuit") logger.info({ at: plan.at.toISOString(), reason: plan.reason }, "sauvegarde prévue");
    // setTimeout fires at once past 2³¹ − 1 ms (about 24 days).
    timer = setTimeout(
      () =>
        void runOnce()
          .then(async () => {
            if (scheduled) await scheduleNext(false);
          })
          .catch((error: unknown) => logger.error({ err: error }, "sauvegarde : planification impossible")),
      Math.min(Math.max(0, plan.at.getTime() - now().getTime()), 2 ** 31 - 1),
    );
    timer.unref();
  }

  return {
    start() {
      if (scheduled) return;
      scheduled = true;
      scheduleNext(true).catch((error: unknown) =>
        logger.error({ err: error }, "sauvegarde : planification impossible"),
      );
    },
    async stop() {
      scheduled = false;
      clearTimeout(timer);
      await running;
    },
    runOnce,
  };
}
