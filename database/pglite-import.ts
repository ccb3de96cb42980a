/**
 * Moves a shop's existing PGlite data (`DATA_DIR/pglite`, the default
 * database before issue 16) into the embedded PostgreSQL at its first start,
 * so an update loses nothing (issue 16 §2, docs/decisions/012).
 *
 * Both sides are first migrated to the same schema (`drizzle/`), then every
 * table of the `public` schema is copied row for row as JSON
 * (`json_agg` out of PGlite, `json_populate_recordset` into PostgreSQL, 1 000
 * rows at a time), in one PostgreSQL transaction with foreign-key triggers
 * off (`session_replication_role = replica`, the copy being consistent as a
 * whole), then sequences are set to PGlite's values. Row counts are compared
 * per table before the commit: any difference rolls everything back.
 * The PGlite folder itself is never modified; the caller renames it once the
 * copy is committed.
 */
import { sql } from "drizzle-orm";
import type pg from "pg";
import type { AppDatabase } from "./connection.ts";

const BATCH_ROWS = 1_000;

export type ImportSummary = {
  /** Tables copied (every table of PGlite's `public` schema). */
  tables: number;
  /** Rows copied, all tables together. */
  rows: number;
};

/** `"name"` for SQL; table names come from the catalogue but are quoted all the same. */
function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

async function rowsOf<T>(db: AppDatabase, query: ReturnType<typeof sql.raw>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * Copies every row of `source` (an open, migrated PGlite) into `target` (an
 * empty, migrated PostgreSQL).
 * @throws Error when a table's count differs after the copy (nothing is committed then), or any SQL error.
 */
export async function copyPgliteInto(source: AppDatabase, target: pg.Pool): Promise<ImportSummary> {
  const tables = await rowsOf<{ tablename: string }>(
    source,
    sql.raw("select tablename from pg_tables where schemaname = 'public' order by tablename"),
  );
  const client = await target.connect();
  let rows = 0;
  try {
    await client.query("begin");
    // Rows arrive table by table, children possibly before their parents: check nothing until the end.
    await client.query("set local session_replication_role = replica");
    for (const { tablename } of tables) {
      const table = quoted(tablename);
      let copied = 0;
      for (;;) {
        const [batch] = await rowsOf<{ rows: unknown[] }>(
          source,
          sql.raw(
            `select coalesce(json_agg(t), '[]'::json) as rows from ` +
              `(select * from ${table} order by ctid limit ${BATCH_ROWS} offset ${copied}) t`,
          ),
        );
        const values = batch?.rows ?? [];
        if (values.length === 0) break;
        await client.query(`insert into ${table} select * from json_populate_recordset(null::${table}, $1::json)`, [
          JSON.stringify(values),
        ]);
        copied += values.length;
        if (values.length < BATCH_ROWS) break;
      }
      const [{ count } = { count: -1 }] = (
        await client.query<{ count: number }>(`select count(*)::int as count from ${table}`)
      ).rows;
      if (count !== copied) {
        throw new Error(`import de ${tablename} : ${copied} lignes lues dans PGlite, ${count} dans PostgreSQL`);
      }
      rows += copied;
    }
    const sequences = await rowsOf<{ name: string; last_value: string | null }>(
      source,
      sql.raw(
        "select quote_ident(schemaname) || '.' || quote_ident(sequencename) as name, last_value::text as last_value " +
          "from pg_sequences where schemaname = 'public'",
      ),
    );
    for (const sequence of sequences) {
      if (sequence.last_value !== null) {
        await client.query("select setval($1::regclass, $2::bigint, true)", [sequence.name, sequence.last_value]);
      }
    }
    await client.query("commit");
  } catch (error) {
    await client.query("rollback").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  return { tables: tables.length, rows };
}
