import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import { DatabaseLockedError, openDatabase } from "./connection.ts";
import { contactRequests } from "./schema.ts";

describe.each(DATABASE_KINDS)("database on %s", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.dispose();
    database = undefined;
  });

  it("applies every migration: every table exists and is empty", async () => {
    database = await openTestDatabase(kind);
    // PGlite and node-postgres both answer `{ rows }`.
    const result = (await database.db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    )) as unknown as { rows: { table_name: string }[] };
    expect(result.rows.map((row) => row.table_name)).toEqual(
      expect.arrayContaining([
        "accounts",
        "auth_sessions",
        "contact_requests",
        "outbox_messages",
        "quote_requests",
        "sessions",
        "signaling",
        "users",
        "verifications",
      ]),
    );
    expect(await database.db.$count(contactRequests)).toBe(0);
  });
});

describe("PGlite data folder", () => {
  let folder: string;
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("keeps data across a close and a reopen, and migrating again changes nothing", async () => {
    folder = await mkdtemp(path.join(tmpdir(), "atelier-db-"));
    const first = await openDatabase({ dataDir: folder, embedded: "pglite" });
    await first.db.insert(contactRequests).values({ name: "Léa", email: "lea@exemple.fr", message: "Bonjour" });
    await first.close();
    const second = await openDatabase({ dataDir: folder, embedded: "pglite" });
    const rows = await second.db.select().from(contactRequests);
    await second.close();
    expect(rows.map((row) => row.name)).toEqual(["Léa"]);
  });

  it("refuses a second opener of the same folder while the first holds it, with a French message", async () => {
    folder = await mkdtemp(path.join(tmpdir(), "atelier-db-"));
    const first = await openDatabase({ dataDir: folder, embedded: "pglite" });
    try {
      const second = openDatabase({ dataDir: folder, embedded: "pglite", lockRetries: 0 });
      await expect(second).rejects.toBeInstanceOf(DatabaseLockedError);
      await expect(second).rejects.toThrow(/déjà utilisé par un autre serveur/);
    } finally {
      await first.close();
    }
    // Released on close: the folder opens again.
    const third = await openDatabase({ dataDir: folder, embedded: "pglite", lockRetries: 0 });
    await third.close();
  });
});
