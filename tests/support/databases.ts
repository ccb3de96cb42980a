/**
 * Test databases on both engines (issue 4): `DATABASE_KINDS` is
 * `["pglite", "postgres"]` when PostgreSQL is available (see
 * `vitest-global-setup.ts`), else `["pglite"]`. `openTestDatabase(kind)`
 * gives a migrated, empty database and a `dispose()` that removes it.
 */
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { sql } from "drizzle-orm";
import { openDatabase, type AppDatabase, type DatabaseHandle } from "#database/connection.ts";
import { createScratchDatabase } from "./postgres.ts";

export type DatabaseKind = "pglite" | "postgres";

export const DATABASE_KINDS: DatabaseKind[] = inject("postgresUrl") ? ["pglite", "postgres"] : ["pglite"];

/** `url`: the PostgreSQL database's connection string (absent on PGlite), for a second connection or server. */
export type TestDatabase = DatabaseHandle & { dataDir: string; url?: string; dispose(): Promise<void> };

/**
 * Fills `dataDir` with a copy of the run's migrated, empty PGlite database (made once by
 * `vitest-global-setup.ts`), so that `openDatabase({ dataDir, embedded: "pglite" })` opens it in ~1.5 s
 * instead of creating one in ~7 s. Tests of the creation itself open an empty folder instead.
 */
export async function copyMigratedPglite(dataDir: string): Promise<void> {
  await cp(inject("pgliteTemplate"), dataDir, { recursive: true });
}

export async function openTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "atelier-test-"));
  if (kind === "pglite") {
    // PGlite: a per-test database opens in a fraction of the time a PostgreSQL cluster takes to create (issue 16).
    await copyMigratedPglite(dataDir);
    const handle = await openDatabase({ dataDir, embedded: "pglite" });
    return {
      ...handle,
      dataDir,
      async dispose() {
        await handle.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  }
  const scratch = await createScratchDatabase(inject("postgresUrl"));
  const handle = await openDatabase({ databaseUrl: scratch.url, dataDir, poolSize: 5 });
  return {
    ...handle,
    dataDir,
    url: scratch.url,
    async dispose() {
      await handle.close();
      await scratch.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Removes every request, outbox message, remote-support session and
 * signaling message and session event, so tests sharing one database start from empty tables.
 * Accounts (users, sign-in sessions) are kept: suites create them once.
 *
 * The previous test's sockets may still be leaving (a disconnect writes a session event and reads
 * the queue) while the truncate takes its locks table by table: PostgreSQL then aborts one side with
 * a deadlock (40P01, seen once in CI). The truncate is all-or-nothing, so it is simply tried again.
 */
export async function emptyTables(db: AppDatabase): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.execute(
        sql.raw(
          "truncate request_treatments, contact_requests, quote_requests, outbox_messages, signaling, session_events, device_pairing_codes, device_resume_tickets, session_computer_facts, session_devices, sessions",
        ),
      );
      return;
    } catch (error) {
      if (attempt >= 5 || !isDeadlock(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

function isDeadlock(error: unknown): boolean {
  let e = error as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 5; depth++, e = e.cause as typeof e) {
    if (e.code === "40P01") return true;
  }
  return false;
}
