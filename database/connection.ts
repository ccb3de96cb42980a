/**
 * Opens the database and brings it to the latest migration (issue 4).
 *
 * - Default: embedded PGlite (PostgreSQL 18 in WebAssembly) in
 *   `<DATA_DIR>/pglite`. Two processes on one PGlite folder silently lose
 *   writes, so the folder is locked (`<DATA_DIR>/pglite.lock`, refreshed every
 *   second, stale after 5 s); a second server on the same folder gets
 *   `DatabaseLockedError`.
 * - `DATABASE_URL`: a PostgreSQL server through `pg`; concurrent starts
 *   serialise their migrations with an advisory lock.
 *
 * The same `drizzle/` migrations run on both.
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import lockfile from "proper-lockfile";
import * as schema from "./schema.ts";

export const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, "../drizzle");
/** Arbitrary constant shared by every process migrating the same PostgreSQL database. */
const MIGRATION_LOCK_KEY = 7_274_004;

export type AppDatabase = PgDatabase<PgQueryResultHKT, typeof schema>;

export type DatabaseHandle = {
  db: AppDatabase;
  kind: "pglite" | "postgres";
  /** Where the data lives, for logs: a folder, or the server's host/database (no password). */
  location: string;
  /** The PostgreSQL pool (absent with PGlite), for stores that speak `pg` themselves (rate limits, issue 13). */
  pool?: pg.Pool;
  /** Closes the connection(s) and releases the folder lock. Idempotent. */
  close(): Promise<void>;
};

/** Another process holds the PGlite folder. The message is French and names the folder. */
export class DatabaseLockedError extends Error {
  constructor(folder: string) {
    super(
      `Le dossier de données ${folder} est déjà utilisé par un autre serveur. ` +
        "Arrêtez-le, ou donnez à ce serveur un autre DATA_DIR (ou un DATABASE_URL).",
    );
    this.name = "DatabaseLockedError";
  }
}

export type OpenDatabaseOptions = {
  /** PostgreSQL connection string; when absent, PGlite in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  /** Called if the PGlite lock is lost while running (folder deleted, clock jump). Default: throw. */
  onLockLost?: (error: Error) => void;
  /** How many times to retry a held PGlite lock before refusing (default 6, about 8 s: long enough for a crashed server's lock to turn stale). */
  lockRetries?: number;
  /** PostgreSQL pool size (default 10). */
  poolSize?: number;
};

/**
 * Opens, locks (PGlite) and migrates the database.
 * @throws DatabaseLockedError when another process uses the PGlite folder.
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options.poolSize ?? 10) : openPglite(options);
}

async function openPglite(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  const folder = path.resolve(options.dataDir, "pglite");
  await mkdir(folder, { recursive: true });
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(folder, {
      realpath: false,
      stale: 5_000,
      update: 1_000,
      // A server killed without cleanup leaves a lock that turns stale within 5 s: wait for it rather than refuse.
      retries: { retries: options.lockRetries ?? 6, factor: 1.5, minTimeout: 500, maxTimeout: 2_000 },
      onCompromised:
        options.onLockLost ??
        ((error) => {
          throw error;
        }),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOCKED") throw new DatabaseLockedError(folder);
    throw error;
  }
  let client: PGlite | undefined;
  try {
    client = await PGlite.create(folder);
    const db = drizzlePglite({ client, schema });
    await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
    const opened = client;
    let closed = false;
    return {
      db: db as unknown as AppDatabase,
      kind: "pglite",
      location: folder,
      async close() {
        if (closed) return;
        closed = true;
        await opened.close();
        await release();
      },
    };
  } catch (error) {
    await client?.close().catch(() => undefined);
    await release();
    throw error;
  }
}

async function openPostgres(databaseUrl: string, poolSize: number): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  // An idle client's connection can drop (server restart); pg reports it here instead of crashing the process.
  pool.on("error", () => undefined);
  const url = new URL(databaseUrl);
  const location = `postgresql://${url.hostname}${url.port ? `:${url.port}` : ""}${url.pathname}`;
  try {
    const connection = await pool.connect();
    try {
      await connection.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
      try {
        await migratePg(drizzlePg({ client: connection }), { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await connection.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
      }
    } finally {
      connection.release();
    }
  } catch (error) {
    await pool.end();
    throw error;
  }
  let closed = false;
  return {
    db: drizzlePg({ client: pool, schema }) as unknown as AppDatabase,
    kind: "postgres",
    location,
    pool,
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
