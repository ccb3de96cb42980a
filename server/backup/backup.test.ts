/**
 * Issue 29: backup → wipe → restore brings every row back (requests,
 * bookings, tickets, accounts, sessions, settings, sequences), on PGlite; a
 * damaged, truncated or foreign file is refused with a French message and
 * nothing is half-restored; a non-empty target needs `--remplacer`; a backup
 * made by an older schema is restored into its own migration state, then
 * migrated. The embedded PostgreSQL and the commands: `embedded.test.ts`.
 */
import { existsSync, readdirSync, readlinkSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS_FOLDER, openDatabase, type AppDatabase, type DatabaseHandle } from "#database/connection.ts";
import { contactRequests } from "#database/schema.ts";
import { copyMigratedPglite } from "#tests/support/databases.ts";
import { fillShop, nextAttachmentId, tableContents } from "#tests/support/backup.ts";
import { createBackup, listBackups } from "./backup.ts";
import { knownMigrations } from "./catalogue.ts";
import { BackupFormatError } from "./format.ts";
import { restoreBackup, RestoreRefusedError } from "./restore.ts";

let workDir: string;
let backupFile: string;
let original: Record<string, string[]>;
/** A database holding one contact request of its own, which every refused restore must leave exactly so. */
let witness: DatabaseHandle;

/** The PGlite database `name` of this run, a copy of the migrated template the first time. */
async function openPglite(name: string): Promise<DatabaseHandle> {
  const dataDir = path.join(workDir, name);
  if (!existsSync(dataDir)) await copyMigratedPglite(dataDir);
  return openDatabase({ dataDir, embedded: "pglite" });
}

/** The backup with its first line (the header) changed by `edit`. */
async function withHeader(edit: (header: Record<string, unknown>) => void): Promise<string> {
  const text = gunzipSync(await readFile(backupFile)).toString("utf8");
  const newline = text.indexOf("\n");
  const header = JSON.parse(text.slice(0, newline)) as Record<string, unknown>;
  edit(header);
  const file = path.join(workDir, `modifiee-${Math.random().toString(36).slice(2)}.gz`);
  await writeFile(file, gzipSync(JSON.stringify(header) + text.slice(newline)));
  return file;
}

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), "atelier-backup-"));
  const source = await openPglite("source");
  try {
    await fillShop(source.db, { users: 6, requests: 40, appointments: 12, tickets: 15 });
    original = await tableContents(source.db);
    const made = await createBackup({ handle: source, dir: path.join(workDir, "backups") });
    backupFile = made.file;
    expect(made.header.tables.find((table) => table.name === "repair_tickets")?.rows).toBe(15);
  } finally {
    await source.close();
  }
  // The wipe: the source's data folder is gone.
  await rm(path.join(workDir, "source"), { recursive: true, force: true });
  witness = await openPglite("witness");
  await witness.db.insert(contactRequests).values({ name: "Témoin", email: "temoin@exemple.fr", message: "reste" });
});
afterAll(async () => {
  await witness?.close();
  await rm(workDir, { recursive: true, force: true });
});

describe("a backup", () => {
  it("is a dated file of mode 0600 in the backup folder, and nothing else is left there", async () => {
    const [only, ...others] = await listBackups(path.join(workDir, "backups"));
    expect(others).toEqual([]);
    expect(only?.file).toBe(backupFile);
    expect(path.basename(backupFile)).toMatch(/^sauvegarde-\d{4}-\d{2}-\d{2}-\d{6}\.gz$/);
    if (process.platform !== "win32") expect((await stat(backupFile)).mode & 0o777).toBe(0o600);
  });

  it("that fails while reading the database leaves no file behind, and none held open", async () => {
    const dir = path.join(workDir, "echec");
    const failing = {
      kind: "postgres" as const,
      db: witness.db,
      pool: { connect: async () => Promise.reject(new Error("base injoignable")) },
    } as unknown as DatabaseHandle;
    const openInDir = () =>
      readdirSync("/proc/self/fd").filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir);
        } catch {
          return false; // closed meanwhile
        }
      }).length;
    await expect(createBackup({ handle: failing, dir })).rejects.toThrow("base injoignable");
    expect(await readdir(dir)).toEqual([]);
    await expect.poll(openInDir).toBe(0);
  });

  it("restored after a wipe brings back every row of every table, and the sequences", async () => {
    const target = await openPglite("restored");
    try {
      const result = await restoreBackup({ handle: target, file: backupFile, replace: false });
      expect(result.pendingMigrations).toEqual([]);
      const restored = await tableContents(target.db);
      expect(Object.keys(restored)).toEqual(Object.keys(original));
      for (const table of ["users", "accounts", "auth_sessions", "contact_requests", "quote_requests"]) {
        expect(restored[table], table).toEqual(original[table]);
      }
      for (const table of ["appointments", "repair_tickets", "repair_ticket_events", "shop_settings"]) {
        expect(restored[table], table).toEqual(original[table]);
      }
      expect(restored).toEqual(original);
      expect(restored.repair_tickets).toHaveLength(15);
      // Two attachment rows were inserted before the backup: the next id is 3, not 1.
      expect(await nextAttachmentId(target.db)).toBe(3);
    } finally {
      await target.close();
    }
  });

  it("is refused, truncated or damaged, with a French message, and the target keeps its own rows", async () => {
    const truncated = path.join(workDir, "tronquee.gz");
    await cp(backupFile, truncated);
    await truncate(truncated, Math.floor((await stat(backupFile)).size / 2));
    const damaged = path.join(workDir, "abimee.gz");
    const bytes = await readFile(backupFile);
    bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
    await writeFile(damaged, bytes);
    const foreign = path.join(workDir, "autre.gz");
    await writeFile(foreign, gzipSync('{"hello":"world"}\n'));
    const miscounted = await withHeader((header) => {
      const tables = header.tables as { name: string; rows: number }[];
      tables.find((table) => table.name === "repair_tickets")!.rows += 1;
    });

    const before = await tableContents(witness.db);
    const expectations: [string, RegExp][] = [
      [truncated, /sauvegarde tronquée/],
      // A flipped byte may decode to wrong rows before gzip's checksum at the end says so: refused either way.
      [damaged, /sauvegarde (abîmée|tronquée|incohérente)/],
      [foreign, /n'est pas une sauvegarde du site/],
      [miscounted, /incohérente : 15 lignes pour la table repair_tickets, l'en-tête en annonce 16/],
      [path.join(workDir, "absente.gz"), /fichier introuvable/],
    ];
    for (const [file, message] of expectations) {
      const refused = await restoreBackup({ handle: witness, file, replace: true }).catch((error: unknown) => error);
      expect(refused, file).toBeInstanceOf(BackupFormatError);
      expect((refused as Error).message, file).toMatch(message);
      expect(await tableContents(witness.db)).toEqual(before);
    }
  });

  it("from a newer version of the site is refused, and one whose rows the copy rejects leaves nothing behind", async () => {
    const newer = await withHeader((header) => {
      (header.migrations as unknown[]).push({ tag: "9999_futur", createdAt: 9_999_999_999_999 });
    });
    // A row that breaks a check constraint (an 8-character tracking code): the copy fails inside the transaction.
    const text = gunzipSync(await readFile(backupFile)).toString("utf8");
    const broken = path.join(workDir, "ligne-invalide.gz");
    await writeFile(broken, gzipSync(text.replace(/\t22222222\t/, "\tFAUX\t")));
    expect(text).toContain("\t22222222\t");

    const before = await tableContents(witness.db);
    const refused = await restoreBackup({ handle: witness, file: newer, replace: true }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RestoreRefusedError);
    expect((refused as Error).message).toMatch(/version plus récente du site.*9999_futur/);
    const failed = await restoreBackup({ handle: witness, file: broken, replace: true }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(Error);
    expect(await tableContents(witness.db)).toEqual(before);
  });

  // Last of the witness's tests: it replaces the witness's row.
  it("needs --remplacer for a database holding data, and then replaces it whole", async () => {
    const refused = await restoreBackup({ handle: witness, file: backupFile, replace: false }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RestoreRefusedError);
    expect((refused as Error).message).toMatch(/n'est pas vide \(1 lignes, dont contact_requests : 1\).*--remplacer/);
    await restoreBackup({ handle: witness, file: backupFile, replace: true });
    expect(await tableContents(witness.db)).toEqual(original);
  });

  it("made by an older schema is restored into that state, then migrated by the next open", async () => {
    const known = knownMigrations();
    // The migrations folder as an older version of the site had it: one migration fewer.
    const oldFolder = path.join(workDir, "old-drizzle");
    await cp(MIGRATIONS_FOLDER, oldFolder, { recursive: true });
    const journalFile = path.join(oldFolder, "meta", "_journal.json");
    const journal = JSON.parse(await readFile(journalFile, "utf8")) as { entries: unknown[] };
    journal.entries.pop();
    await writeFile(journalFile, JSON.stringify(journal));
    await mkdir(path.join(workDir, "old"), { recursive: true });
    const client = await PGlite.create(path.join(workDir, "old"));
    let oldFile: string;
    try {
      const db = drizzle({ client }) as unknown as AppDatabase;
      await migrate(drizzle({ client }), { migrationsFolder: oldFolder });
      await db.execute(
        sql`insert into contact_requests (name, email, message) values ('Ancien', 'a@exemple.fr', 'avant')`,
      );
      oldFile = (await createBackup({ handle: { db, kind: "pglite" }, dir: path.join(workDir, "old-backups") })).file;
    } finally {
      await client.close();
    }
    const target = await openPglite("from-old");
    try {
      const result = await restoreBackup({ handle: target, file: oldFile, replace: false });
      expect(result.header.migrations).toHaveLength(known.length - 1);
      expect(result.pendingMigrations).toEqual([known.at(-1)!.tag]);
    } finally {
      await target.close();
    }
    const reopened = await openPglite("from-old");
    try {
      const rows = await reopened.db.select().from(contactRequests);
      expect(rows.map((row) => row.message)).toEqual(["avant"]);
      const applied = (await reopened.db.execute(
        sql`select count(*)::integer as n from drizzle.__drizzle_migrations`,
      )) as unknown as {
        rows: { n: number }[];
      };
      expect(applied.rows[0]?.n).toBe(known.length);
    } finally {
      await reopened.close();
    }
  }, 120_000);
});
