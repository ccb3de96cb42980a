/**
 * What a backup holds, read from the database's own catalogue (issue 29):
 * every table of the `public` schema (so a table added by a later migration
 * is backed up without touching this code), parents before the tables whose
 * foreign keys point at them, and the sequences; and the applied drizzle
 * migrations.
 */
import { readMigrationFiles } from "drizzle-orm/migrator";
import { readFileSync } from "node:fs";
import path from "node:path";
import { MIGRATIONS_FOLDER } from "#database/connection.ts";
import type { BackupSession } from "./session.ts";

export type CatalogueTable = { name: string; columns: string[] };

/**
 * The `public` tables, each with its writable columns (generated ones left
 * out: COPY cannot write them), in dependency order (a table after every
 * table it references; self-references do not count).
 * @throws Error when foreign keys form a cycle (none in this schema: it would need deferred constraints).
 */
export async function publicTables(session: BackupSession): Promise<CatalogueTable[]> {
  const columns = await session.query<{ table_name: string; column_name: string }>(
    `select c.table_name, c.column_name from information_schema.columns c
     join pg_tables t on t.schemaname = c.table_schema and t.tablename = c.table_name
     where c.table_schema = 'public' and c.is_generated = 'NEVER'
     order by c.table_name, c.ordinal_position`,
  );
  const references = await session.query<{ child: string; parent: string }>(
    `select child.relname as child, parent.relname as parent from pg_constraint k
     join pg_class child on child.oid = k.conrelid join pg_class parent on parent.oid = k.confrelid
     join pg_namespace n on n.oid = child.relnamespace
     where k.contype = 'f' and n.nspname = 'public' and child.oid <> parent.oid`,
  );
  const byName = new Map<string, string[]>();
  for (const row of columns) byName.set(row.table_name, [...(byName.get(row.table_name) ?? []), row.column_name]);
  const parents = new Map<string, Set<string>>([...byName.keys()].map((name) => [name, new Set<string>()]));
  for (const { child, parent } of references) parents.get(child)?.add(parent);

  const ordered: CatalogueTable[] = [];
  const placed = new Set<string>();
  // Alphabetical within each step, so two backups of the same schema list tables alike.
  while (placed.size < byName.size) {
    const ready = [...byName.keys()]
      .filter((name) => !placed.has(name) && [...parents.get(name)!].every((parent) => placed.has(parent)))
      .sort();
    if (ready.length === 0) throw new Error("les clés étrangères des tables forment un cycle : sauvegarde impossible");
    for (const name of ready) {
      placed.add(name);
      ordered.push({ name, columns: byName.get(name)! });
    }
  }
  return ordered;
}

/** `schema.sequence` and last value of every sequence in `public` (null: never used). */
export async function publicSequences(session: BackupSession): Promise<{ name: string; value: string }[]> {
  const rows = await session.query<{ name: string; value: string | null }>(
    `select quote_ident(schemaname) || '.' || quote_ident(sequencename) as name, last_value::text as value
     from pg_sequences where schemaname = 'public' order by 1`,
  );
  return rows.filter((row): row is { name: string; value: string } => row.value !== null);
}

export type Migration = { tag: string; createdAt: number; hash: string; sql: string[] };

/** The migrations this code knows (`drizzle/`), oldest first, with their journal tags. */
export function knownMigrations(folder = MIGRATIONS_FOLDER): Migration[] {
  const journal = JSON.parse(readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: { tag: string; when: number }[];
  };
  const tags = new Map(journal.entries.map((entry) => [entry.when, entry.tag]));
  return readMigrationFiles({ migrationsFolder: folder }).map((migration) => ({
    tag: tags.get(migration.folderMillis) ?? String(migration.folderMillis),
    createdAt: migration.folderMillis,
    hash: migration.hash,
    sql: migration.sql,
  }));
}

/** The migrations applied to the database, oldest first (`drizzle.__drizzle_migrations`), tagged from the journal. */
export async function appliedMigrations(session: BackupSession): Promise<{ tag: string; createdAt: number }[]> {
  const exists = await session.query<{ found: boolean }>(
    "select to_regclass('drizzle.__drizzle_migrations') is not null as found",
  );
  if (!exists[0]?.found) return [];
  const rows = await session.query<{ created_at: string }>(
    "select created_at::text as created_at from drizzle.__drizzle_migrations order by created_at",
  );
  const tags = new Map(knownMigrations().map((migration) => [migration.createdAt, migration.tag]));
  return rows.map((row) => ({
    tag: tags.get(Number(row.created_at)) ?? `inconnue-${row.created_at}`,
    createdAt: Number(row.created_at),
  }));
}
