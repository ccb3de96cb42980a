/**
 * Issue 13 §11: how the purge runs, on both databases — inside the server
 * once started (logging counts, never content) and as `npm run purge`'s
 * script with the server's configuration. What each purge keeps is
 * `retention.test.ts`.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { RETENTION } from "#app/config/retention.ts";
import { openDatabase, type AppDatabase } from "#database/connection.ts";
import { contactRequests, outboxMessages } from "#database/schema.ts";
import { DATABASE_KINDS, emptyTables, type TestDatabase } from "#tests/support/databases.ts";
import { ago, DEFAULT_POLICY, openRetentionDatabase, storedMail } from "#tests/support/retention.ts";
import { createLogger } from "./logger.ts";
import { emlFileName } from "./outbox/transports.ts";
import { createRetentionWorker } from "./retention.ts";

const run = promisify(execFile);
const purgeScript = path.resolve(import.meta.dirname, "../scripts/purge.ts");

const policy = DEFAULT_POLICY;
const mail = storedMail;

describe.each(DATABASE_KINDS)("the purge running on %s", (kind) => {
  let database: TestDatabase;
  let db: AppDatabase;
  let outboxDir: string;

  beforeAll(async () => {
    ({ database, outboxDir } = await openRetentionDatabase(kind));
    db = database.db;
  });
  beforeEach(async () => {
    await emptyTables(db);
  });
  afterAll(async () => {
    await database.dispose();
  });

  it("runs inside the server once started, and logs counts, never content", async () => {
    await db.insert(contactRequests).values({
      name: "Léa Journal",
      email: "lea.journal@exemple.fr",
      message: "m",
      createdAt: ago(RETENTION.requestDays + 1),
    });
    const written: string[] = [];
    const logger = createLogger({ LOG_LEVEL: "info" }, { write: (line: string) => void written.push(line) });
    const worker = createRetentionWorker({ db, logger, policy, outboxFolder: outboxDir, firstRunDelayMs: 0 });
    worker.start();
    try {
      await vi.waitFor(() => expect(written.join("")).toContain("rétention : données anciennes supprimées"), {
        timeout: 20_000,
      });
    } finally {
      await worker.stop();
    }
    expect(JSON.parse(written[0]!)).toMatchObject({ deleted: { contactRequests: 1 } });
    expect(written.join("")).not.toContain("lea.journal");
    expect(await db.$count(contactRequests)).toBe(0);
  });

  it("npm run purge's script deletes with the server's configuration and prints counts only", async () => {
    const dataDir = kind === "pglite" ? await mkdtemp(path.join(tmpdir(), "atelier-purge-")) : database.dataDir;
    const env = {
      PATH: process.env.PATH ?? "",
      DATA_DIR: dataDir,
      ...(database.url ? { DATABASE_URL: database.url } : {}),
    };
    const target = kind === "pglite" ? await openDatabase({ dataDir }) : database;
    let stdout = "";
    try {
      await target.db.insert(contactRequests).values({
        name: "Léa Purge",
        email: "lea.purge@exemple.fr",
        message: "m",
        createdAt: ago(RETENTION.requestDays + 1),
      });
      await target.db.insert(outboxMessages).values({
        messageId: "<purge-cmd@atelier.exemple>",
        requestKind: "contact",
        mail: mail("a@b.fr"),
        status: "sent",
        sentAt: ago(31),
      });
      await mkdir(path.join(dataDir, "outbox"), { recursive: true });
      await writeFile(path.join(dataDir, "outbox", `${emlFileName("<purge-cmd@atelier.exemple>")}.eml`), "x");
      if (kind === "pglite") {
        // A server holds the embedded PostgreSQL: the command connects to it and purges beside it (issue 29,
        // database/command-database.ts), where it used to refuse.
        stdout = (await run(process.execPath, [purgeScript], { env })).stdout;
      }
    } finally {
      if (kind === "pglite") await target.close();
    }
    if (kind !== "pglite") stdout = (await run(process.execPath, [purgeScript], { env })).stdout;

    expect(stdout).toMatch(/demandes de contact\s+1\n/);
    expect(stdout).toMatch(/mails envoyés \(file d'envoi\)\s+1\n/);
    expect(stdout).toMatch(/fichiers \.eml\s+1\n/);
    expect(stdout).toMatch(/demandes de devis\s+0\n/);
    expect(stdout).not.toContain("lea.purge");
    expect(stdout).not.toContain("Léa");
    expect(await readdir(path.join(dataDir, "outbox"))).toEqual([]);
    if (kind === "pglite") {
      const reopened = await openDatabase({ dataDir });
      try {
        expect(await reopened.db.$count(contactRequests)).toBe(0);
      } finally {
        await reopened.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    } else {
      expect(await db.$count(contactRequests, inArray(contactRequests.email, ["lea.purge@exemple.fr"]))).toBe(0);
    }
  });
});
