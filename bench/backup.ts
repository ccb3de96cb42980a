/**
 * Issue 29 figures: a backup and a restore of a shop with 10 000 requests
 * (half contact, half quote) and 5 000 repair tickets (two steps each), plus
 * 5 000 appointments and 200 accounts, on the embedded PostgreSQL 18 (the
 * default) and on PGlite:
 *
 * - `createBackup` in process (the nightly backup's work): median of 3, ms;
 *   the file's size;
 * - `restoreBackup` into a fresh, migrated database (the file read twice:
 *   checked whole, then copied in one transaction), ms;
 * - `npm run backup`'s script end to end (Node start, the cluster started
 *   by the command, the backup), embedded PostgreSQL only, ms.
 *
 *   node bench/backup.ts [requests=10000] [tickets=5000]
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { openDatabase, type DatabaseHandle, type EmbeddedEngine } from "#database/connection.ts";
import { createBackup } from "#server/backup/backup.ts";
import { restoreBackup } from "#server/backup/restore.ts";
import { formatBytes } from "#server/backup/describe.ts";
import { fillShop, tableContents } from "#tests/support/backup.ts";
import { median, root } from "./lib.ts";

const requests = Number(process.argv[2] ?? 10_000);
const tickets = Number(process.argv[3] ?? 5_000);
const run = promisify(execFile);
const ms = (value: number) => `${Math.round(value)} ms`;

async function measure(engine: EmbeddedEngine): Promise<void> {
  const sourceDir = await mkdtemp(path.join(tmpdir(), "atelier-bench-sauvegarde-"));
  const targetDir = await mkdtemp(path.join(tmpdir(), "atelier-bench-restauration-"));
  const backups = path.join(sourceDir, "backups");
  let source: DatabaseHandle | undefined = await openDatabase({ dataDir: sourceDir, embedded: engine, poolSize: 2 });
  let target: DatabaseHandle | undefined;
  try {
    let started = performance.now();
    await fillShop(source.db, { users: 200, requests, appointments: tickets, tickets });
    const fillMs = performance.now() - started;
    const times: number[] = [];
    let file = "";
    let size = 0;
    let rows = 0;
    for (let round = 0; round < 3; round++) {
      const result = await createBackup({ handle: source, dir: backups, now: new Date(Date.now() + round * 1000) });
      times.push(result.durationMs);
      ({ file, sizeBytes: size } = result);
      rows = result.header.tables.reduce((sum, table) => sum + table.rows, 0);
    }
    const expected = await tableContents(source.db);
    await source.close();
    source = undefined;

    target = await openDatabase({ dataDir: targetDir, embedded: engine, poolSize: 2 });
    started = performance.now();
    await restoreBackup({ handle: target, file, replace: false });
    const restoreMs = performance.now() - started;
    const same = JSON.stringify(await tableContents(target.db)) === JSON.stringify(expected);
    await target.close();
    target = undefined;

    let commandMs: number | undefined;
    if (engine === "postgres") {
      started = performance.now();
      await run(process.execPath, [path.join(root, "scripts/backup.ts")], {
        env: { PATH: process.env.PATH ?? "", DATA_DIR: sourceDir, EMBEDDED_DATABASE: "postgres" },
      });
      commandMs = performance.now() - started;
    }
    console.log(
      `${engine === "postgres" ? "PostgreSQL 18 intégré" : "PGlite"} : ${rows} lignes (remplissage ${ms(fillMs)})\n` +
        `  sauvegarde  ${ms(median(times))} (médiane de 3 : ${times.map(ms).join(", ")}), fichier ${formatBytes(size)}\n` +
        `  restauration  ${ms(restoreMs)} ; données identiques : ${same ? "oui" : "NON"}` +
        (commandMs === undefined
          ? ""
          : `\n  npm run backup (commande complète, base démarrée par elle)  ${ms(commandMs)}`),
    );
  } finally {
    await source?.close();
    await target?.close();
    await rm(sourceDir, { recursive: true, force: true });
    await rm(targetDir, { recursive: true, force: true });
  }
}

console.log(
  `Sauvegarde et restauration : ${requests} demandes, ${tickets} tickets, ${tickets} rendez-vous, 200 comptes`,
);
await measure("postgres");
await measure("pglite");
