/**
 * One transaction on any of the three databases, with COPY (issue 29): the
 * backup reads a consistent snapshot and the restore writes everything or
 * nothing through the same calls.
 *
 * - PostgreSQL (embedded or `DATABASE_URL`): a client of the handle's pool,
 *   COPY through `pg-copy-streams` (streamed, never a whole table in memory).
 * - PGlite: its single connection; COPY to and from `/dev/blob` (PGlite's
 *   in-memory file), so one table's rows are in memory at a time (a few MB
 *   for a shop).
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import type { DatabaseHandle } from "#database/connection.ts";

export type BackupSession = {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs a script of one or more statements (a migration), no parameters. */
  exec(script: string): Promise<void>;
  /** `copy … to stdout` (text format): the rows, in chunks. */
  copyOut(statement: string): AsyncIterable<Buffer>;
  /** `copy … from stdin` (text format) fed with `data`. */
  copyIn(statement: string, data: AsyncIterable<Buffer>): Promise<void>;
};

/** `snapshot`: repeatable read, read only (a consistent backup beside a running site); `write`: all or nothing. */
export type SessionMode = "snapshot" | "write";

/** `"name"` for SQL; names come from the catalogue or a checked header but are quoted all the same. */
export function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Runs `work` in one transaction of `handle`'s database, committed when it
 * resolves, rolled back when it throws (the error is rethrown).
 */
export async function inTransaction<T>(
  handle: Pick<DatabaseHandle, "db" | "pool" | "kind">,
  mode: SessionMode,
  work: (session: BackupSession) => Promise<T>,
): Promise<T> {
  const begin = mode === "snapshot" ? "isolation level repeatable read, read only" : "isolation level read committed";
  if (!handle.pool) {
    const client = (handle.db as unknown as { $client: PGlite }).$client;
    return client.transaction(async (tx) => {
      await tx.exec(`set transaction ${begin}`);
      return work(pgliteSession(tx));
    });
  }
  const client = await handle.pool.connect();
  try {
    await client.query(`begin ${begin}`);
    const session: BackupSession = {
      async query<T>(text: string, params?: unknown[]) {
        return (await client.query(text, params)).rows as T[];
      },
      async exec(script) {
        await client.query(script);
      },
      copyOut: (statement) => client.query(copyTo(statement)),
      async copyIn(statement, data) {
        await pipeline(Readable.from(data), client.query(copyFrom(statement)));
      },
    };
    const result = await work(session);
    await client.query("commit");
    return result;
  } catch (error) {
    await client.query("rollback").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

function pgliteSession(tx: Transaction): BackupSession {
  return {
    async query<T>(text: string, params?: unknown[]) {
      return (await tx.query<T>(text, params)).rows;
    },
    async exec(script) {
      await tx.exec(script);
    },
    async *copyOut(statement) {
      const result = await tx.query(statement.replace(/to stdout$/i, "to '/dev/blob'"));
      if (result.blob) yield Buffer.from(await result.blob.arrayBuffer());
    },
    async copyIn(statement, data) {
      const chunks: Uint8Array<ArrayBuffer>[] = [];
      for await (const chunk of data) chunks.push(new Uint8Array(chunk));
      await tx.query(statement.replace(/from stdin$/i, "from '/dev/blob'"), [], { blob: new Blob(chunks) });
    },
  };
}
