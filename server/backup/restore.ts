/**
 * Restoring a backup (issue 29, docs/decisions/024) into a database that no
 * server uses (the caller checks that: `scripts/restore.ts`).
 *
 * 1. The whole file is read once first (gzip check, header, every table's row
 *    count, end line): a damaged or truncated file is refused before anything
 *    is touched.
 * 2. Its migrations must be the first ones this code knows: a backup made by
 *    an older version is restored into the schema of its own migration state,
 *    and the newer migrations are applied after (by the caller reopening the
 *    database: `openDatabase` migrates); a backup from a newer version, or
 *    from diverging migrations, is refused.
 * 3. A target holding any row is refused unless `replace`.
 * 4. One transaction: the `public` and `drizzle` schemas are dropped and
 *    rebuilt at the backup's migration state (drizzle's own migration SQL and
 *    bookkeeping), each table is filled with `COPY … FROM STDIN` in the
 *    header's order (parents first), sequences are set, and every table's
 *    count is compared with the header. Any error rolls all of it back: the
 *    target is then exactly as it was.
 */
import type { DatabaseHandle } from "#database/connection.ts";
import { knownMigrations, publicTables, type Migration } from "./catalogue.ts";
import { readBackup, type BackupHeader } from "./format.ts";
import { inTransaction, quoted, type BackupSession } from "./session.ts";

/** The restore is refused for a reason the shop owner can act on (French message). */
export class RestoreRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RestoreRefusedError";
  }
}

export type RestoreResult = {
  header: BackupHeader;
  durationMs: number;
  /** Tags of the migrations newer than the backup, applied when the database is next opened. */
  pendingMigrations: string[];
};

/**
 * The migrations of `header` as a prefix of `known`.
 * @throws RestoreRefusedError when the backup comes from a newer version or other migrations.
 */
export function backupMigrationState(
  header: BackupHeader,
  known: Migration[],
): { applied: Migration[]; pending: Migration[] } {
  const count = header.migrations.length;
  if (count > known.length) {
    const unknown = header.migrations.slice(known.length).map((migration) => migration.tag);
    throw new RestoreRefusedError(
      `cette sauvegarde vient d'une version plus récente du site (migrations inconnues ici : ${unknown.join(", ")}). ` +
        "Mettez le site à jour, puis restaurez.",
    );
  }
  header.migrations.forEach((migration, index) => {
    if (known[index]!.createdAt !== migration.createdAt) {
      throw new RestoreRefusedError(
        `les migrations de cette sauvegarde (${migration.tag}) ne sont pas celles de ce site (${known[index]!.tag}) : ` +
          "restaurez-la avec la version du site qui l'a faite.",
      );
    }
  });
  return { applied: known.slice(0, count), pending: known.slice(count) };
}

/** Tables holding rows, with their counts. */
async function nonEmptyTables(session: BackupSession): Promise<{ name: string; rows: number }[]> {
  const found: { name: string; rows: number }[] = [];
  for (const table of await publicTables(session)) {
    const [row] = await session.query<{ n: number }>(`select count(*)::integer as n from ${quoted(table.name)}`);
    if (Number(row?.n) > 0) found.push({ name: table.name, rows: Number(row?.n) });
  }
  return found;
}

/** Drops the schema and rebuilds it at `applied`, as drizzle's migrator would have (same bookkeeping table). */
async function rebuildSchema(session: BackupSession, applied: Migration[]): Promise<void> {
  await session.exec("drop schema if exists drizzle cascade; drop schema public cascade; create schema public;");
  await session.exec(
    "create schema drizzle; create table drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)",
  );
  for (const migration of applied) {
    for (const statement of migration.sql) await session.exec(statement);
    await session.query("insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)", [
      migration.hash,
      migration.createdAt,
    ]);
  }
}

/** The rebuilt schema must have exactly the backup's tables and columns. @throws RestoreRefusedError */
async function checkSameTables(session: BackupSession, header: BackupHeader): Promise<void> {
  const target = new Map((await publicTables(session)).map((table) => [table.name, table.columns.join(",")]));
  const source = new Map(header.tables.map((table) => [table.name, table.columns.join(",")]));
  const differing = [...new Set([...target.keys(), ...source.keys()])].filter(
    (name) => target.get(name) !== source.get(name),
  );
  if (differing.length > 0) {
    throw new RestoreRefusedError(
      `les tables de la sauvegarde ne correspondent pas au schéma de ses migrations (${differing.sort().join(", ")}) : ` +
        "restaurez-la avec la version du site qui l'a faite.",
    );
  }
}

/**
 * Restores `file` into `handle`'s database (opened and migrated by
 * `openDatabase`, used by nobody else).
 * @throws BackupFormatError when the file is not a sound backup (nothing touched).
 * @throws RestoreRefusedError (migrations, a non-empty target without `replace`; nothing touched).
 * @throws the database's error during the copy (rolled back: nothing changed).
 */
export async function restoreBackup(options: {
  handle: Pick<DatabaseHandle, "db" | "pool" | "kind">;
  file: string;
  /** Replace a database that holds data (`--remplacer`). */
  replace: boolean;
}): Promise<RestoreResult> {
  const started = performance.now();
  const checked = await readBackup(options.file);
  const { applied, pending } = backupMigrationState(checked, knownMigrations());
  if (!options.replace) {
    const filled = await inTransaction(options.handle, "snapshot", nonEmptyTables);
    if (filled.length > 0) {
      const total = filled.reduce((sum, table) => sum + table.rows, 0);
      throw new RestoreRefusedError(
        `la base de données cible n'est pas vide (${total} lignes, dont ${filled
          .slice(0, 3)
          .map((table) => `${table.name} : ${table.rows}`)
          .join(", ")}). Ajoutez --remplacer pour l'effacer et la remplacer par la sauvegarde.`,
      );
    }
  }
  const header = await inTransaction(options.handle, "write", async (session) => {
    await rebuildSchema(session, applied);
    await checkSameTables(session, checked);
    const read = await readBackup(options.file, (table) => (rows) => {
      const columns = table.columns.map(quoted).join(", ");
      return session.copyIn(`copy ${quoted(table.name)} (${columns}) from stdin`, rows);
    });
    for (const sequence of read.sequences) {
      await session.query("select setval($1::regclass, $2::bigint, true)", [sequence.name, sequence.value]);
    }
    for (const table of read.tables) {
      const [row] = await session.query<{ n: number }>(`select count(*)::integer as n from ${quoted(table.name)}`);
      if (Number(row?.n) !== table.rows) {
        throw new Error(`restauration de ${table.name} : ${String(row?.n)} lignes au lieu de ${table.rows}`);
      }
    }
    return read;
  });
  return {
    header,
    durationMs: Math.round(performance.now() - started),
    pendingMigrations: pending.map((migration) => migration.tag),
  };
}
