/**
 * Issue 29: when the nightly backup runs (shop time, daylight saving, a
 * missed night caught up at start, retries), which old backups retention
 * deletes, and the worker inside the server with an injected clock: a
 * backup, the status the manager sees, old files deleted; a failure logged
 * at `error` and recorded, without personal data.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type DatabaseHandle } from "#database/connection.ts";
import { contactRequests } from "#database/schema.ts";
import { copyMigratedPglite } from "#tests/support/databases.ts";
import { parseEnv } from "../env.ts";
import { createLogger } from "../logger.ts";
import { backupDate, backupFileName, expiredBackups, listBackups } from "./backup.ts";
import { getBackupStatus } from "./status.ts";
import { createBackupWorker, nextNightlyAt, planNextBackup } from "./worker.ts";

const at = (iso: string) => new Date(iso);
const plan = (now: string, extra: Partial<Parameters<typeof planNextBackup>[0]> = {}) =>
  planNextBackup({
    now: at(now),
    hour: 3,
    lastSuccessAt: at("2026-03-10T02:00:00Z"),
    failuresInARow: 0,
    atStart: false,
    startDelayMs: 120_000,
    ...extra,
  });

describe("the nightly plan", () => {
  it("runs at 03:00 Paris time, winter (UTC+1) and summer (UTC+2), across the clock changes", () => {
    expect(nextNightlyAt(at("2026-01-15T10:00:00Z"), 3)).toEqual(at("2026-01-16T02:00:00Z"));
    expect(nextNightlyAt(at("2026-07-15T00:30:00Z"), 3)).toEqual(at("2026-07-15T01:00:00Z"));
    // 29 March 2026: 02:00 → 03:00; 25 October 2026: 03:00 → 02:00.
    expect(nextNightlyAt(at("2026-03-28T12:00:00Z"), 3)).toEqual(at("2026-03-29T01:00:00Z"));
    expect(nextNightlyAt(at("2026-10-24T12:00:00Z"), 3)).toEqual(at("2026-10-25T02:00:00Z"));
    // Exactly at the hour: the next night's.
    expect(nextNightlyAt(at("2026-01-16T02:00:00Z"), 3)).toEqual(at("2026-01-17T02:00:00Z"));
    expect(nextNightlyAt(at("2026-01-16T22:59:00Z"), 0)).toEqual(at("2026-01-16T23:00:00Z"));
  });

  it("catches up a missed night at start, unless the night's backup is under an hour away", () => {
    const started = { atStart: true, lastSuccessAt: at("2026-03-10T02:00:00Z") };
    expect(plan("2026-03-11T09:00:00Z", started)).toEqual({ at: at("2026-03-11T09:02:00Z"), reason: "rattrapage" });
    expect(plan("2026-03-11T09:00:00Z", { ...started, lastSuccessAt: undefined }).reason).toBe("rattrapage");
    // 01:30 Paris, the backup at 03:00 is 1 h 30 away: caught up now; at 02:30 Paris, the night's one will do.
    const missed = { atStart: true, lastSuccessAt: at("2026-03-09T02:00:00Z") };
    expect(plan("2026-03-11T00:30:00Z", missed).reason).toBe("rattrapage");
    expect(plan("2026-03-11T01:30:00Z", missed)).toEqual({ at: at("2026-03-11T02:00:00Z"), reason: "nuit" });
    // Last one 10 h ago: nothing to catch up.
    expect(plan("2026-03-10T12:00:00Z", started)).toEqual({ at: at("2026-03-11T02:00:00Z"), reason: "nuit" });
    // Not at start (the server ran all along): the night's.
    expect(plan("2026-03-12T09:00:00Z").reason).toBe("nuit");
  });

  it("tries again an hour after a failure, twice, then waits for the next night", () => {
    expect(plan("2026-03-11T02:00:05Z", { failuresInARow: 1 })).toEqual({
      at: at("2026-03-11T03:00:05Z"),
      reason: "nouvel essai",
    });
    expect(plan("2026-03-11T03:00:05Z", { failuresInARow: 2 }).reason).toBe("nouvel essai");
    expect(plan("2026-03-11T04:00:05Z", { failuresInARow: 3 })).toEqual({
      at: at("2026-03-12T02:00:00Z"),
      reason: "nuit",
    });
  });

  it("is configured by BACKUP_*, checked with French messages", () => {
    const env = parseEnv({});
    expect([env.BACKUP_HOUR, env.BACKUP_KEEP_DAYS, env.BACKUP_NIGHTLY, env.BACKUP_DIR]).toEqual([
      3,
      14,
      "auto",
      undefined,
    ]);
    expect(parseEnv({ BACKUP_HOUR: "0", BACKUP_DIR: "/srv/sauvegardes" })).toMatchObject({ BACKUP_HOUR: 0 });
    expect(() => parseEnv({ BACKUP_HOUR: "24" })).toThrow("BACKUP_HOUR : doit être une heure de 0 à 23");
    expect(() => parseEnv({ BACKUP_HOUR: "3h" })).toThrow("BACKUP_HOUR : doit être un nombre");
    expect(() => parseEnv({ BACKUP_KEEP_DAYS: "0" })).toThrow("BACKUP_KEEP_DAYS : doit être au moins 1");
    expect(() => parseEnv({ BACKUP_NIGHTLY: "oui" })).toThrow("BACKUP_NIGHTLY : doit valoir auto, true ou false");
  });

  it("deletes backups past the retention, never the newest, and only files it named", () => {
    const files = ["2026-03-01T02:00:00Z", "2026-03-05T02:00:00Z", "2026-03-10T02:00:00Z", "2026-03-20T02:00:00Z"].map(
      (iso) => {
        const name = backupFileName(at(iso));
        return { name, file: name, madeAt: backupDate(name)! };
      },
    );
    expect(files[0]!.name).toBe("sauvegarde-2026-03-01-030000.gz");
    expect(files[0]!.madeAt).toEqual(at("2026-03-01T02:00:00Z"));
    expect(expiredBackups(files, at("2026-03-20T02:00:10Z"), 14).map((file) => file.name)).toEqual([
      "sauvegarde-2026-03-01-030000.gz",
      "sauvegarde-2026-03-05-030000.gz",
    ]);
    // The server was off for weeks: the newest stays, whatever its age.
    expect(expiredBackups(files, at("2026-06-01T00:00:00Z"), 14)).toHaveLength(3);
    expect(backupDate("sauvegarde-perso.gz")).toBeUndefined();
    expect(backupDate("notes.txt")).toBeUndefined();
  });
});

describe("the backup worker", () => {
  let dataDir: string;
  let database: DatabaseHandle;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "atelier-backup-worker-"));
    await copyMigratedPglite(dataDir);
    database = await openDatabase({ dataDir, embedded: "pglite" });
    await database.db
      .insert(contactRequests)
      .values({ name: "Léa Secret", email: "lea.secret@exemple.fr", message: "m" });
  });
  afterAll(async () => {
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("catches up at start, records the status and deletes backups past the retention", async () => {
    const dir = path.join(dataDir, "backups");
    const clock = at("2026-03-20T10:00:00Z");
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, backupFileName(at("2026-03-01T02:00:00Z"))), "ancienne");
    await writeFile(path.join(dir, backupFileName(at("2026-03-18T02:00:00Z"))), "récente");
    await writeFile(path.join(dir, "notes du gérant.txt"), "à garder");
    const written: string[] = [];
    const logger = createLogger({ LOG_LEVEL: "info" }, { write: (line: string) => void written.push(line) });
    const worker = createBackupWorker({
      handle: database,
      dir,
      hour: 3,
      keepDays: 14,
      logger,
      now: () => clock,
      startDelayMs: 10,
    });
    worker.start();
    try {
      await vi.waitFor(() => expect(written.join("")).toContain("sauvegarde faite"), { timeout: 20_000 });
    } finally {
      await worker.stop();
    }
    expect((await listBackups(dir)).map((file) => file.name)).toEqual([
      "sauvegarde-2026-03-18-030000.gz",
      "sauvegarde-2026-03-20-110000.gz",
    ]);
    expect(await readdir(dir)).toContain("notes du gérant.txt");
    const status = await getBackupStatus({ DATA_DIR: dataDir, BACKUP_NIGHTLY: "auto" }, clock);
    expect(status).toMatchObject({
      state: "ok",
      nightly: true,
      lastSuccessAt: "2026-03-20T10:00:00.000Z",
      lastFile: path.join(dir, "sauvegarde-2026-03-20-110000.gz"),
      lastError: null,
    });
    expect(status.lastSizeBytes).toBeGreaterThan(100);
    expect(written.join("")).not.toContain("lea.secret");
  });

  it("logs a failure at error level, without personal data, and shows it in the status", async () => {
    const dir = path.join(dataDir, "backups-failing");
    const written: string[] = [];
    const logger = createLogger({ LOG_LEVEL: "info" }, { write: (line: string) => void written.push(line) });
    const broken = {
      kind: "postgres" as const,
      db: database.db,
      pool: {
        connect: () => Promise.reject(new Error("connexion refusée par lea.secret@exemple.fr")),
      } as unknown as DatabaseHandle["pool"],
    };
    const clock = at("2026-03-21T02:00:00Z");
    const worker = createBackupWorker({ handle: broken, dir, hour: 3, keepDays: 14, logger, now: () => clock });
    expect(await worker.runOnce()).toBeUndefined();
    const line = JSON.parse(written.find((entry) => entry.includes("sauvegarde : échec"))!) as { level: number };
    expect(line.level).toBe(50);
    expect(written.join("")).not.toContain("lea.secret@exemple.fr");
    const status = await getBackupStatus({ DATA_DIR: dataDir, BACKUP_DIR: dir, BACKUP_NIGHTLY: "auto" }, clock);
    expect(status).toMatchObject({ state: "failed", lastSuccessAt: null, lastErrorAt: "2026-03-21T02:00:00.000Z" });
    expect(status.lastError).toContain("connexion refusée");
    expect(status.lastError).not.toContain("lea.secret@exemple.fr");
    // With DATABASE_URL, the nightly backup is off unless asked for.
    const withUrl = { DATA_DIR: dataDir, BACKUP_DIR: dir, DATABASE_URL: "postgres://x@h/b" };
    expect((await getBackupStatus({ ...withUrl, BACKUP_NIGHTLY: "auto" })).nightly).toBe(false);
    expect((await getBackupStatus({ ...withUrl, BACKUP_NIGHTLY: "true" })).nightly).toBe(true);
  });
});
