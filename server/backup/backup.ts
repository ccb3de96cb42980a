/**
 * Making a backup (issue 29, docs/decisions/024): every table of the
 * database, read in one consistent snapshot while the site keeps running,
 * into `<dir>/sauvegarde-AAAA-MM-JJ-HHMMSS.gz` (the shop's local time,
 * Europe/Paris). The file is written under a `.partiel` name, synced, then
 * renamed: the final name never holds half a file. Mode 0600: it holds
 * personal data (requests, accounts with their password hashes, tickets).
 * The same code serves embedded PostgreSQL, PGlite and `DATABASE_URL`.
 */
import { createWriteStream } from "node:fs";
import { chmod, mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { once } from "node:events";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { TZDate } from "@date-fns/tz";
import type { DatabaseHandle } from "#database/connection.ts";
import { SHOP_TIME_ZONE } from "#app/booking/settings.ts";
import { appliedMigrations, publicSequences, publicTables } from "./catalogue.ts";
import { BACKUP_FORMAT, BACKUP_VERSION, FILE_END, headerLine, TABLE_END, type BackupHeader } from "./format.ts";
import { inTransaction, quoted } from "./session.ts";

const NAME = /^sauvegarde-(\d{4})-(\d{2})-(\d{2})-(\d{2})(\d{2})(\d{2})(?:-\d+)?\.gz$/;
const PARTIAL_SUFFIX = ".partiel";

export type BackupResult = {
  /** Absolute path of the new file. */
  file: string;
  sizeBytes: number;
  durationMs: number;
  header: BackupHeader;
};

/** `sauvegarde-2026-11-24-030000.gz` for an instant, in the shop's time zone. */
export function backupFileName(at: Date, timeZone = SHOP_TIME_ZONE): string {
  const local = new TZDate(at.getTime(), timeZone);
  const two = (value: number) => String(value).padStart(2, "0");
  return (
    `sauvegarde-${local.getFullYear()}-${two(local.getMonth() + 1)}-${two(local.getDate())}-` +
    `${two(local.getHours())}${two(local.getMinutes())}${two(local.getSeconds())}.gz`
  );
}

/** When a file named by `backupFileName` was made, or undefined for any other name (never deleted). */
export function backupDate(name: string, timeZone = SHOP_TIME_ZONE): Date | undefined {
  const match = NAME.exec(name);
  if (!match) return undefined;
  const [year, month, day, hours, minutes, seconds] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return new Date(new TZDate(year, month - 1, day, hours, minutes, seconds, timeZone).getTime());
}

export type BackupFile = { name: string; file: string; madeAt: Date };

/** The backups in `dir`, oldest first (an absent folder has none). */
export async function listBackups(dir: string): Promise<BackupFile[]> {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [] as string[];
    throw error;
  });
  return names
    .flatMap((name) => {
      const madeAt = backupDate(name);
      return madeAt ? [{ name, file: path.join(dir, name), madeAt }] : [];
    })
    .sort((a, b) => a.madeAt.getTime() - b.madeAt.getTime() || a.name.localeCompare(b.name));
}

/**
 * Which backups retention removes: those made more than `keepDays` days
 * before `now`, except the newest one, which always stays (a server off for
 * weeks keeps its last backup until a new one succeeds).
 */
export function expiredBackups(files: BackupFile[], now: Date, keepDays: number): BackupFile[] {
  const limit = now.getTime() - keepDays * 86_400_000;
  const newest = files.at(-1);
  return files.filter((file) => file !== newest && file.madeAt.getTime() < limit);
}

/** Deletes the expired backups of `dir`, and `.partiel` files left by an interrupted backup over an hour ago. @returns the names deleted. */
export async function pruneBackups(dir: string, now: Date, keepDays: number): Promise<string[]> {
  const expired = expiredBackups(await listBackups(dir), now, keepDays);
  for (const backup of expired) await rm(backup.file, { force: true });
  const leftovers: string[] = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.endsWith(PARTIAL_SUFFIX)) continue;
    const info = await stat(path.join(dir, name)).catch(() => undefined);
    if (info && now.getTime() - info.mtimeMs > 3_600_000) {
      await rm(path.join(dir, name), { force: true });
      leftovers.push(name);
    }
  }
  return [...expired.map((backup) => backup.name), ...leftovers];
}

export type CreateBackupOptions = {
  handle: Pick<DatabaseHandle, "db" | "pool" | "kind">;
  /** The backup folder (created 0700 when absent). */
  dir: string;
  /** The backup's date (default: now). */
  now?: Date;
};

/**
 * Writes one backup of the whole database into `dir`.
 * @throws the database's or the file system's error (disk full…); the `.partiel` file is then removed.
 */
export async function createBackup(options: CreateBackupOptions): Promise<BackupResult> {
  const started = performance.now();
  const now = options.now ?? new Date();
  await mkdir(options.dir, { recursive: true, mode: 0o700 });
  let name = backupFileName(now);
  for (let n = 2; (await stat(path.join(options.dir, name)).catch(() => undefined)) !== undefined; n++) {
    name = backupFileName(now).replace(/\.gz$/, `-${n}.gz`);
  }
  const file = path.join(options.dir, name);
  const partial = `${file}${PARTIAL_SUFFIX}`;
  let header: BackupHeader;
  const gzip = createGzip({ level: 6 });
  try {
    // `wx`: never over another file; `flush`: the data is on disk (fsync) before the rename makes it the backup.
    const written = pipeline(gzip, createWriteStream(partial, { flags: "wx", mode: 0o600, flush: true }));
    // A write error (disk full) ends the backup at the next chunk instead of waiting for a drain that never comes.
    let failed: unknown;
    written.catch((error: unknown) => (failed = error));
    const write = async (data: Buffer | string) => {
      if (failed) throw failed;
      if (!gzip.write(data)) await Promise.race([once(gzip, "drain"), written]);
    };
    header = await inTransaction(options.handle, "snapshot", async (session) => {
      const tables = await publicTables(session);
      const counted = [];
      for (const table of tables) {
        const [row] = await session.query<{ n: number }>(`select count(*)::integer as n from ${quoted(table.name)}`);
        counted.push({ ...table, rows: Number(row?.n ?? 0) });
      }
      const [version] = await session.query<{ server_version: string }>("show server_version");
      const made: BackupHeader = {
        format: BACKUP_FORMAT,
        version: BACKUP_VERSION,
        createdAt: now.toISOString(),
        source: options.handle.kind,
        serverVersion: version?.server_version ?? "",
        migrations: await appliedMigrations(session),
        tables: counted,
        sequences: await publicSequences(session),
      };
      await write(headerLine(made));
      for (const table of counted) {
        const columns = table.columns.map(quoted).join(", ");
        for await (const chunk of session.copyOut(`copy ${quoted(table.name)} (${columns}) to stdout`)) {
          await write(chunk as Buffer);
        }
        await write(`${TABLE_END}\n`);
      }
      await write(`${FILE_END}\n`);
      return made;
    });
    gzip.end();
    await written;
  } catch (error) {
    // A failed read leaves the compressor and the file open: closed before the file goes (one per failed try).
    gzip.destroy();
    await rm(partial, { force: true });
    throw error;
  }
  await rename(partial, file);
  // The creation mode is masked by the umask (and ignored on Windows): say it once more.
  await chmod(file, 0o600).catch(() => undefined);
  const { size } = await stat(file);
  return { file, sizeBytes: size, durationMs: Math.round(performance.now() - started), header };
}
