/**
 * Makes one backup now (issue 29, docs/decisions/024):
 *
 *   npm run backup
 *
 * Same configuration as the server (DATA_DIR or DATABASE_URL, BACKUP_DIR,
 * BACKUP_KEEP_DAYS). Runs beside a running server (it then reads the
 * server's embedded PostgreSQL through `database/command-database.ts`; with
 * PGlite, stop the server first) or alone (it starts the database itself).
 * Prints, in French, the file, its size, the time taken and the rows per
 * table (counts only, never content); records the status the manager sees;
 * then deletes backups past the retention, as the nightly one does.
 * Exit codes: 0 done, 1 refused or failed (message in French on stderr).
 */
import { DatabaseLockedError } from "#database/connection.ts";
import { openCommandDatabase } from "#database/command-database.ts";
import { ConfigError, parseEnv } from "#server/env.ts";
import { createBackup, pruneBackups } from "#server/backup/backup.ts";
import { backupFolder, recordBackupFailure, recordBackupSuccess } from "#server/backup/status.ts";
import { describeCounts, formatBytes } from "#server/backup/describe.ts";

async function main(): Promise<string> {
  const env = parseEnv();
  const dir = backupFolder(env);
  const database = await openCommandDatabase(env);
  try {
    const result = await createBackup({ handle: database, dir }).catch(async (error: unknown) => {
      await recordBackupFailure(dir, error, new Date());
      throw error;
    });
    await recordBackupSuccess(dir, result, new Date());
    const deleted = await pruneBackups(dir, new Date(), env.BACKUP_KEEP_DAYS);
    return [
      `Sauvegarde faite${database.beside ? " (à côté du serveur en marche)" : ""} : ${result.file}`,
      `Taille : ${formatBytes(result.sizeBytes)} · durée : ${(result.durationMs / 1000).toFixed(1).replace(".", ",")} s`,
      "Lignes par table :",
      ...describeCounts(result.header.tables),
      deleted.length > 0
        ? `Supprimées (plus de ${env.BACKUP_KEEP_DAYS} jours) : ${deleted.join(", ")}`
        : `Aucune sauvegarde de plus de ${env.BACKUP_KEEP_DAYS} jours à supprimer.`,
      "Copiez ce dossier hors de la machine (clé USB, autre ordinateur) : voir « Sauvegardes » dans docs/running-the-shop.md.",
    ].join("\n");
  } finally {
    await database.close();
  }
}

try {
  console.log(await main());
} catch (error) {
  if (error instanceof ConfigError || error instanceof DatabaseLockedError) {
    console.error(error.message);
  } else {
    console.error(`Échec de la sauvegarde : ${error instanceof Error ? error.message : String(error)}`);
  }
  process.exitCode = 1;
}
