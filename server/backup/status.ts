/**
 * The last backup's status, for the manager's view (issue 29: « a failure is
 * logged and shown to the manager »): `getBackupStatus(env)`.
 *
 * Kept in `<BACKUP_DIR>/status.json`, not in a table: a failure may be the
 * database itself (unreachable, disk full), a restore would overwrite a
 * table with the backup's older status, and `npm run backup` writes it too
 * whether or not a server runs. Written whole to a temporary name then
 * renamed (never half a file), mode 0600. Messages hold no personal data:
 * an error's message only (a database error's row values stay out of it).
 */
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Env } from "../env.ts";
import { scrubText } from "../logger.ts";
import { listBackups, type BackupResult } from "./backup.ts";

const STATUS_FILE = "status.json";
/** Past this, a backup is late (one a night, plus a few hours of slack). */
const LATE_AFTER_MS = 36 * 3_600_000;

/** Where backups go: `BACKUP_DIR`, else `DATA_DIR/backups`, resolved. */
export function backupFolder(env: Pick<Env, "DATA_DIR" | "BACKUP_DIR">): string {
  return path.resolve(env.BACKUP_DIR ?? path.join(env.DATA_DIR, "backups"));
}

/** Whether the server makes the nightly backup: `BACKUP_NIGHTLY`, `auto` meaning « not with DATABASE_URL ». */
export function nightlyBackupEnabled(env: Pick<Env, "BACKUP_NIGHTLY" | "DATABASE_URL">): boolean {
  return env.BACKUP_NIGHTLY === "true" || (env.BACKUP_NIGHTLY === "auto" && !env.DATABASE_URL);
}

export type BackupStatus = {
  /** ISO 8601 of the last backup that succeeded (nightly or `npm run backup`), or null. */
  lastSuccessAt: string | null;
  /** Its absolute path, or null. */
  lastFile: string | null;
  /** Its size in bytes, or null. */
  lastSizeBytes: number | null;
  /** The last failure's message (French context + the error's message), or null. */
  lastError: string | null;
  /** ISO 8601 of that failure, or null. */
  lastErrorAt: string | null;
  /**
   * Issue 40: when a backup was last copied off the server: downloaded by the manager (« Sauvegardes »), or
   * declared copied by them (rsync, robocopy, a USB drive…). ISO 8601, or null.
   */
  lastCopyAt: string | null;
  /** How that copy was made, or null. */
  lastCopyKind: "download" | "declared" | null;
  /**
   * For the manager's view: `failed` when the last attempt failed, `late` when the last success is over
   * 36 h old, `never` when there is none, else `ok`.
   */
  state: "ok" | "failed" | "late" | "never";
  /** Whether this server makes the nightly backup (`BACKUP_NIGHTLY`). */
  nightly: boolean;
  /** The backup folder. */
  dir: string;
};

type Stored = Pick<
  BackupStatus,
  "lastSuccessAt" | "lastFile" | "lastSizeBytes" | "lastError" | "lastErrorAt" | "lastCopyAt" | "lastCopyKind"
>;

const EMPTY: Stored = {
  lastSuccessAt: null,
  lastFile: null,
  lastSizeBytes: null,
  lastError: null,
  lastErrorAt: null,
  lastCopyAt: null,
  lastCopyKind: null,
};

async function readStored(dir: string): Promise<Stored> {
  try {
    return { ...EMPTY, ...(JSON.parse(await readFile(path.join(dir, STATUS_FILE), "utf8")) as Partial<Stored>) };
  } catch {
    return { ...EMPTY };
  }
}

async function writeStored(dir: string, stored: Stored): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, STATUS_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
}

/** Records a successful backup (a failure recorded earlier stays, with its date). */
export async function recordBackupSuccess(dir: string, result: BackupResult, at: Date): Promise<void> {
  const stored = await readStored(dir);
  await writeStored(dir, {
    ...stored,
    lastSuccessAt: at.toISOString(),
    lastFile: result.file,
    lastSizeBytes: result.sizeBytes,
  });
}

/** Issue 40: records that a backup was copied off the server at `at` (downloaded, or declared by the manager). */
export async function recordBackupCopy(dir: string, kind: "download" | "declared", at: Date): Promise<void> {
  const stored = await readStored(dir);
  await writeStored(dir, { ...stored, lastCopyAt: at.toISOString(), lastCopyKind: kind });
}

/**
 * Records a failed backup: its message only, scrubbed like a log line (`scrubText`: e-mail addresses,
 * tokens), capped at 500 characters. Never throws (the failure is logged anyway).
 */
export async function recordBackupFailure(dir: string, error: unknown, at: Date): Promise<void> {
  const message = scrubText(error instanceof Error ? error.message : String(error));
  try {
    const stored = await readStored(dir);
    await writeStored(dir, { ...stored, lastError: message.slice(0, 500), lastErrorAt: at.toISOString() });
  } catch {
    // The folder itself may be what failed (read-only, missing drive): the log line is what remains.
  }
}

/**
 * The last backup's status for `env`'s backup folder. Without a status file
 * (backups copied in by hand, a first start), the newest backup file there
 * stands for the last success.
 */
export async function getBackupStatus(
  env: Pick<Env, "DATA_DIR" | "BACKUP_DIR" | "BACKUP_NIGHTLY" | "DATABASE_URL">,
  now: Date = new Date(),
): Promise<BackupStatus> {
  const dir = backupFolder(env);
  const stored = await readStored(dir);
  if (!stored.lastSuccessAt) {
    const newest = (await listBackups(dir).catch(() => [])).at(-1);
    if (newest) {
      const size = await stat(newest.file).then(
        (info) => info.size,
        () => null,
      );
      Object.assign(stored, { lastSuccessAt: newest.madeAt.toISOString(), lastFile: newest.file, lastSizeBytes: size });
    }
  }
  const success = stored.lastSuccessAt ? Date.parse(stored.lastSuccessAt) : undefined;
  const failure = stored.lastErrorAt ? Date.parse(stored.lastErrorAt) : undefined;
  const state =
    failure !== undefined && (success === undefined || failure > success)
      ? "failed"
      : success === undefined
        ? "never"
        : now.getTime() - success > LATE_AFTER_MS
          ? "late"
          : "ok";
  return { ...stored, state, nightly: nightlyBackupEnabled(env), dir };
}

/** When the last backup succeeded, for the scheduler (status file, else the newest file's name). */
export async function lastSuccessAt(dir: string): Promise<Date | undefined> {
  const stored = await readStored(dir);
  if (stored.lastSuccessAt) return new Date(stored.lastSuccessAt);
  return (await listBackups(dir).catch(() => [])).at(-1)?.madeAt;
}
