/**
 * The database of a command (`npm run user`, `npm run purge`, `npm run backup`) run beside the server
 * (issue 29, « `npm run user` keeps working while the server runs, against the same database »).
 *
 * - `DATABASE_URL`: that server, as always.
 * - Embedded PostgreSQL in `DATA_DIR`: when no server holds the folder, the command starts the cluster
 *   itself as before; when a running server holds it, the command connects to that server's own
 *   postgres: `127.0.0.1`, the port in `postmaster.pid` (chosen at each start), the password in
 *   `DATA_DIR/postgres-password`. Both sides then write through PostgreSQL, which serialises them.
 * - PGlite: one process at a time (it is a library in the server's process); a running server still
 *   refuses the command (`DatabaseLockedError`, French message).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { DatabaseLockedError, openDatabase, type DatabaseHandle, type EmbeddedEngine } from "./connection.ts";
import { EMBEDDED_USER, runningPostmaster } from "./embedded-postgres.ts";

export type CommandDatabaseEnv = { DATABASE_URL?: string; DATA_DIR: string; EMBEDDED_DATABASE?: EmbeddedEngine };

/**
 * Opens the database the server uses, whether or not the server runs. `beside` says the command
 * reached a running server's embedded PostgreSQL (for a line in its output).
 * @throws DatabaseLockedError when a running server holds a PGlite folder, or its postgres cannot be found.
 */
export async function openCommandDatabase(
  env: CommandDatabaseEnv,
  options: { poolSize?: number } = {},
): Promise<DatabaseHandle & { beside: boolean }> {
  const base = { dataDir: env.DATA_DIR, embedded: env.EMBEDDED_DATABASE, poolSize: options.poolSize ?? 2 };
  if (env.DATABASE_URL) return { ...(await openDatabase({ ...base, databaseUrl: env.DATABASE_URL })), beside: false };
  try {
    return { ...(await openDatabase({ ...base, lockRetries: 0 })), beside: false };
  } catch (error) {
    if (!(error instanceof DatabaseLockedError) || env.EMBEDDED_DATABASE === "pglite") throw error;
    const url = runningServerUrl(env.DATA_DIR);
    if (!url) throw error;
    return { ...(await openDatabase({ ...base, databaseUrl: url })), beside: true };
  }
}

/**
 * `postgresql://atelier:…@127.0.0.1:<port>/postgres` of the embedded PostgreSQL a server runs in
 * `dataDir`, or undefined when none runs. Never log it: it holds the password.
 */
export function runningServerUrl(dataDir: string): string | undefined {
  const folder = path.resolve(dataDir, "postgres");
  const passwordFile = path.join(path.resolve(dataDir), "postgres-password");
  if (runningPostmaster(folder) === undefined || !existsSync(passwordFile)) return undefined;
  try {
    // postmaster.pid: pid, data folder, start time, port, socket folder, listen address, …
    const port = Number(readFileSync(path.join(folder, "postmaster.pid"), "utf8").split("\n")[3]);
    if (!Number.isInteger(port) || port <= 0 || port > 65_535) return undefined;
    const password = readFileSync(passwordFile, "utf8").trim();
    return `postgresql://${EMBEDDED_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  } catch {
    return undefined;
  }
}
