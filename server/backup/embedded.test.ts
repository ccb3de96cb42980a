/**
 * Issue 29 on the default database, the embedded PostgreSQL 18, through the
 * commands a shop owner types: `npm run backup` beside a running server and
 * alone, `npm run restore` refused while a server holds the folder, then
 * backup → wipe (the cluster and its password deleted) → restore brings every
 * request, booking, ticket and account back, equal; a second restore needs
 * `--remplacer` (which `backup.test.ts` exercises on PGlite).
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "#database/connection.ts";
import { fillShop, tableContents } from "#tests/support/backup.ts";
import { listBackups } from "./backup.ts";

const run = promisify(execFile);
const scripts = path.resolve(import.meta.dirname, "../../scripts");

type Outcome = { code: number; stdout: string; stderr: string };

describe("backups of the embedded PostgreSQL", () => {
  let dataDir: string;
  let original: Record<string, string[]>;
  // Not NODE_ENV=test's PGlite default: the shop's own database.
  const env = () => ({ PATH: process.env.PATH ?? "", DATA_DIR: dataDir, EMBEDDED_DATABASE: "postgres" });
  const command = (script: string, args: string[] = []): Promise<Outcome> =>
    run(process.execPath, [path.join(scripts, script), ...args], { env: env() }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: Outcome) => error,
    );
  const open = () => openDatabase({ dataDir, embedded: "postgres", poolSize: 2 });

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "atelier-backup-pg-"));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("backs up beside a running server, restores after a wipe, and refuses what it must", async () => {
    let server: DatabaseHandle = await open();
    try {
      await fillShop(server.db, { users: 5, requests: 30, appointments: 10, tickets: 12 });
      original = await tableContents(server.db);
      const beside = await command("backup.ts");
      expect(beside.stderr).toBe("");
      expect(beside.stdout).toContain("Sauvegarde faite (à côté du serveur en marche)");
      expect(beside.stdout).toMatch(/tickets de réparation \(repair_tickets\)\s+12\n/);
      expect(beside.stdout).toMatch(/demandes de contact \(contact_requests\)\s+15\n/);
      expect(beside.stdout).not.toContain("@exemple.fr");

      const refused = await command("restore.ts", [(await listBackups(path.join(dataDir, "backups")))[0]!.file]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/Restauration refusée : un serveur du site tourne sur .* : arrêtez-le/);
    } finally {
      await server.close();
    }

    // Alone: the command starts the cluster itself.
    const alone = await command("backup.ts");
    expect(alone.code).toBe(0);
    expect(alone.stdout).toMatch(/Sauvegarde faite : .*sauvegarde-\d{4}-\d{2}-\d{2}-\d{6}(-\d+)?\.gz\n/);
    const file = alone.stdout.match(/Sauvegarde faite : (\S+)/)![1]!;

    // The wipe: the cluster and its password are gone.
    await rm(path.join(dataDir, "postgres"), { recursive: true, force: true });
    await rm(path.join(dataDir, "postgres-password"), { force: true });
    const restored = await command("restore.ts", [file]);
    expect(restored.stderr).toBe("");
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(/restaurée en [\d,]+ s/);
    expect(restored.stdout).toMatch(/rendez-vous \(appointments\)\s+10\n/);
    expect(restored.stdout).toMatch(/comptes \(users\)\s+5\n/);

    server = await open();
    try {
      const restored = await tableContents(server.db);
      // Tables of migrations newer than the backup (none in CI; one may land while the code changes) are left out.
      expect(Object.fromEntries(Object.keys(original).map((table) => [table, restored[table]]))).toEqual(original);
    } finally {
      await server.close();
    }
    const again = await command("restore.ts", [file]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/Restauration refusée : la base de données cible n'est pas vide .*--remplacer/);
  }, 240_000);
});
