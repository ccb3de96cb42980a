/**
 * Restores a backup made by the server or `npm run backup` (issue 29, docs/decisions/024):
 *
 *   npm run restore -- data/backups/sauvegarde-2026-11-24-030000.gz [--remplacer]
 *
 * Into the database of the server's configuration (DATA_DIR, or DATABASE_URL),
 * which no server may be using: with the embedded database, a server running
 * on DATA_DIR is detected (its folder lock) and the restore refused. A database
 * holding data is refused unless `--remplacer` (or `--force`) is given. The file
 * is checked whole before anything is touched; the copy is one transaction,
 * and every table's row count is checked against the backup's header before
 * it commits. A backup from an older version of the site is restored into its
 * own schema, then the newer migrations run. Prints the rows per table.
 * Exit codes: 0 restored, 1 refused or failed (message in French on stderr;
 * the database is then as it was).
 */
import path from "node:path";
import { DatabaseLockedError, openDatabase, type DatabaseHandle } from "#database/connection.ts";
import { ConfigError, parseEnv, type Env } from "#server/env.ts";
import { BackupFormatError } from "#server/backup/format.ts";
import { restoreBackup, RestoreRefusedError } from "#server/backup/restore.ts";
import { describeCounts } from "#server/backup/describe.ts";
import { inTransaction, quoted } from "#server/backup/session.ts";

const USAGE =
  "Usage : npm run restore -- <fichier de sauvegarde> [--remplacer]\n" +
  "  --remplacer (ou --force) : efface la base actuelle et la remplace par la sauvegarde.";

class UsageError extends Error {}

function open(env: Env): Promise<DatabaseHandle> {
  return openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    embedded: env.EMBEDDED_DATABASE,
    // A running server holds the folder's lock: refuse at once rather than wait for it.
    lockRetries: 0,
    poolSize: 2,
    onProgress: (message) => console.log(message),
  });
}

async function main(args: string[]): Promise<string> {
  const flags = new Set(args.filter((arg) => arg.startsWith("--")));
  const unknown = [...flags].filter((flag) => flag !== "--remplacer" && flag !== "--force");
  const files = args.filter((arg) => !arg.startsWith("--"));
  if (unknown.length > 0) throw new UsageError(`option inconnue : ${unknown.join(", ")}\n${USAGE}`);
  if (files.length !== 1) throw new UsageError(USAGE);
  const file = path.resolve(files[0]!);
  const env = parseEnv();
  const lines: string[] = [];
  if (env.DATABASE_URL) {
    lines.push(
      "DATABASE_URL est défini : restauration dans ce serveur PostgreSQL (arrêtez les serveurs du site qui l'utilisent).",
    );
  }
  let database: DatabaseHandle;
  try {
    database = await open(env);
  } catch (error) {
    if (error instanceof DatabaseLockedError) {
      throw new RestoreRefusedError(
        `un serveur du site tourne sur ${path.resolve(env.DATA_DIR)} : arrêtez-le, puis relancez la restauration.`,
      );
    }
    throw error;
  }
  let result;
  try {
    result = await restoreBackup({ handle: database, file, replace: flags.size > 0 });
  } finally {
    await database.close();
  }
  // Reopening applies the migrations newer than the backup (openDatabase migrates).
  const reopened = await open(env);
  let now: { name: string; rows: number }[];
  try {
    now = await inTransaction(reopened, "snapshot", async (session) => {
      const counted = [];
      for (const table of result.header.tables) {
        const [row] = await session.query<{ n: number }>(`select count(*)::integer as n from ${quoted(table.name)}`);
        counted.push({ name: table.name, rows: Number(row?.n) });
      }
      return counted;
    });
  } finally {
    await reopened.close();
  }
  const seconds = (result.durationMs / 1000).toFixed(1).replace(".", ",");
  lines.push(
    `Sauvegarde du ${new Date(result.header.createdAt).toLocaleString("fr-FR", { timeZone: "Europe/Paris" })} restaurée en ${seconds} s ` +
      `(${reopened.kind === "pglite" ? "PGlite" : "PostgreSQL"} : ${reopened.location}).`,
    "Lignes par table (vérifiées avec l'en-tête de la sauvegarde) :",
    ...describeCounts(now),
  );
  if (result.pendingMigrations.length > 0) {
    lines.push(
      `Sauvegarde d'une version précédente : migrations appliquées ensuite : ${result.pendingMigrations.join(", ")}.`,
    );
  }
  lines.push(
    "Si la sauvegarde vient d'une autre machine, remettez aussi son fichier auth-secret dans DATA_DIR " +
      "(sinon chacun doit se reconnecter et les liens de rendez-vous déjà envoyés ne marchent plus).",
  );
  return lines.join("\n");
}

try {
  console.log(await main(process.argv.slice(2)));
} catch (error) {
  if (error instanceof UsageError || error instanceof ConfigError) {
    console.error(error.message);
  } else if (error instanceof RestoreRefusedError || error instanceof BackupFormatError) {
    console.error(`Restauration refusée : ${error.message}`);
  } else {
    console.error(
      `Échec de la restauration, rien n'a été changé : ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  process.exitCode = 1;
}
