/**
 * Opens the database and brings it to the latest migration (issues 4 and 16).
 *
 * - Default (issue 16 §2): PostgreSQL 18 started by the server in
 *   `<DATA_DIR>/postgres` (`embedded-postgres.ts`), reached through `pg` like
 *   any server, and stopped by `close()`. At its first start, data found in
 *   `<DATA_DIR>/pglite` (the default before) is copied into it
 *   (`pglite-import.ts`) and that folder renamed `pglite-importe-<date>`.
 * - `embedded: "pglite"` (EMBEDDED_DATABASE=pglite, and the unit tests):
 *   PGlite (PostgreSQL 18 in WebAssembly) in `<DATA_DIR>/pglite`.
 * - `DATABASE_URL`: a PostgreSQL server through `pg`; concurrent starts
 *   serialise their migrations with an advisory lock.
 *
 * Two processes on one embedded folder would lose writes (PGlite) or stop
 * each other's postgres, so the folder is locked (`<folder>.lock`, refreshed
 * every second, stale after 5 s); a second server gets `DatabaseLockedError`.
 * The same `drizzle/` migrations run on all three.
 */
import { existsSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import lockfile from "proper-lockfile";
import * as schema from "./schema.ts";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "./embedded-postgres.ts";
import { copyPgliteInto } from "./pglite-import.ts";

export const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, "../drizzle");
/** Arbitrary constant shared by every process migrating the same PostgreSQL database. */
const MIGRATION_LOCK_KEY = 7_274_004;

export type AppDatabase = PgDatabase<PgQueryResultHKT, typeof schema>;

export type DatabaseHandle = {
  db: AppDatabase;
  /** `postgres`: a server given by DATABASE_URL; `embedded-postgres`: the one this process started (issue 16). */
  kind: "pglite" | "postgres" | "embedded-postgres";
  /** Where the data lives, for logs: a folder, or the server's host/database (no password). */
  location: string;
  /** The PostgreSQL pool (absent with PGlite), for stores that speak `pg` themselves (rate limits, issue 13). */
  pool?: pg.Pool;
  /** Closes the connection(s) and releases the folder lock. Idempotent. */
  close(): Promise<void>;
};

/** Another process holds the embedded database's folder. The message is French and names the folder. */
export class DatabaseLockedError extends Error {
  constructor(folder: string) {
    super(
      `Le dossier de données ${folder} est déjà utilisé par un autre serveur. ` +
        "Arrêtez-le, ou donnez à ce serveur un autre DATA_DIR (ou un DATABASE_URL).",
    );
    this.name = "DatabaseLockedError";
  }
}

/** The database kept in `DATA_DIR` when no `DATABASE_URL` is given (EMBEDDED_DATABASE, issue 16 §2). */
export type EmbeddedEngine = "postgres" | "pglite";

export type OpenDatabaseOptions = {
  /** PostgreSQL connection string; when absent, the embedded database in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  /** Which embedded database (default `postgres`); ignored with `databaseUrl`. */
  embedded?: EmbeddedEngine;
  /** Called if the folder lock is lost while running (folder deleted, clock jump). Default: throw. */
  onLockLost?: (error: Error) => void;
  /** How many times to retry a held folder lock before refusing (default 6, about 8 s: long enough for a crashed server's lock to turn stale). */
  lockRetries?: number;
  /** PostgreSQL pool size (default 10). */
  poolSize?: number;
  /** French lines saying what a slow start is doing (cluster creation, PGlite import); default: none. */
  onProgress?: (message: string) => void;
  /** Embedded PostgreSQL: called when its `initdb` or `pg_ctl start` has been launched (see `StartOptions`). */
  onToolLaunched?: () => void;
  /** Embedded PostgreSQL: called once the data folder's lock is held, before PostgreSQL starts (issue 30 §2). */
  onLocked?: () => void;
};

/**
 * Opens, locks (embedded databases) and migrates the database.
 * @throws DatabaseLockedError when another process uses the embedded database's folder.
 * @throws EmbeddedPostgresError when the embedded PostgreSQL cannot run here (message says why, in French).
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  return options.embedded === "pglite" ? openPglite(options) : openEmbeddedPostgres(options);
}

/** Locks `folder` for this process; resolves with the release function. @throws DatabaseLockedError */
async function lockFolder(folder: string, options: OpenDatabaseOptions): Promise<() => Promise<void>> {
  try {
    return await lockfile.lock(folder, {
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
}

async function openPglite(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  const folder = path.resolve(options.dataDir, "pglite");
  await mkdir(folder, { recursive: true });
  const release = await lockFolder(folder, options);
  let client: PGlite | undefined;
  try {
    // Loaded only when used: PGlite's module is large, and the default database no longer needs it (issue 16 §3).
    const [{ PGlite }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
      import("@electric-sql/pglite"),
      import("drizzle-orm/pglite"),
      import("drizzle-orm/pglite/migrator"),
    ]);
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

/** A timestamp usable in a folder name on every system: `2026-11-23T22-15-06`. */
function stamp(): string {
  return new Date().toISOString().slice(0, 19).replaceAll(":", "-");
}

/**
 * The embedded PostgreSQL (issue 16 §2): lock `DATA_DIR/postgres`, start it
 * (creating it the first time), migrate, and import `DATA_DIR/pglite` when
 * it holds data and was not imported yet. `postgres.importing` marks an
 * import under way: if the server dies during one, the next start throws the
 * half-filled cluster away and imports again (PGlite's folder is untouched
 * until the copy is committed). A `process.on("exit")` hook asks postgres to
 * stop when the process ends without `close()` (a fatal error).
 */
async function openEmbeddedPostgres(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  const dataDir = path.resolve(options.dataDir);
  const folder = path.join(dataDir, "postgres");
  const legacy = path.join(dataDir, "pglite");
  const marker = path.join(dataDir, "postgres.importing");
  const progress = options.onProgress ?? (() => undefined);
  await mkdir(dataDir, { recursive: true });
  const release = await lockFolder(folder, options);
  options.onLocked?.();
  let server: EmbeddedPostgres | undefined;
  let handle: DatabaseHandle | undefined;
  const stopOnExit = () => server?.stopNow();
  try {
    const interrupted = existsSync(marker);
    const importing =
      interrupted || (!existsSync(path.join(folder, "PG_VERSION")) && existsSync(path.join(legacy, "PG_VERSION")));
    if (interrupted) {
      progress("import des données PGlite interrompu au démarrage précédent : il reprend du début");
      await rm(folder, { recursive: true, force: true });
    }
    if (importing) await writeFile(marker, "");
    server = await startEmbeddedPostgres({ folder, onProgress: progress, onToolLaunched: options.onToolLaunched });
    process.on("exit", stopOnExit);
    if (server.created) progress("base PostgreSQL intégrée créée ; application du schéma");
    handle = await openPostgres(server.url, options.poolSize ?? 10);
    if (importing) {
      progress(`données PGlite trouvées dans ${legacy} : import dans PostgreSQL`);
      const source = await openPglite({ ...options, lockRetries: 0 });
      let summary;
      try {
        summary = await copyPgliteInto(source.db, handle.pool!);
      } finally {
        await source.close();
      }
      const kept = `${legacy}-importe-${stamp()}`;
      await rename(legacy, kept);
      await rm(marker);
      progress(
        `données PGlite importées : ${summary.rows} lignes dans ${summary.tables} tables. ` +
          `L'ancien dossier est gardé tel quel dans ${kept} : supprimez-le une fois le site vérifié.`,
      );
    }
    const opened = handle;
    const running = server;
    let closed = false;
    return {
      db: opened.db,
      kind: "embedded-postgres",
      location: folder,
      pool: opened.pool,
      async close() {
        if (closed) return;
        closed = true;
        try {
          await opened.close();
          await running.stop();
        } finally {
          process.off("exit", stopOnExit);
          await release();
        }
      },
    };
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    process.off("exit", stopOnExit);
    await release();
    throw error;
  }
}
