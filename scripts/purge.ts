/**
 * Runs the retention purges once, by hand (issue 13 §11):
 *
 *   npm run purge
 *
 * Same configuration as the server (DATA_DIR or DATABASE_URL, RETENTION_*):
 * deletes what `server/retention.ts` deletes on its schedule and prints the
 * number of rows (and `.eml` files) deleted per kind, never their content.
 * Runs beside a running server (issue 29, `database/command-database.ts`;
 * with PGlite, stop the server first).
 * Exit codes: 0 done, 1 refused or failed (message in French on stderr).
 */
import { ConfigError, parseEnv } from "#server/env.ts";
import { DatabaseLockedError } from "#database/connection.ts";
import { openCommandDatabase } from "#database/command-database.ts";
import { outboxFolder, purgeExpired, PURGE_KINDS, PURGE_LABELS, retentionPolicyFromEnv } from "#server/retention.ts";

async function main(): Promise<string> {
  const env = parseEnv();
  const policy = retentionPolicyFromEnv(env);
  const database = await openCommandDatabase(env);
  try {
    // Nobody waits on the database here: no pause between batches.
    const counts = await purgeExpired({ db: database.db, policy, outboxFolder: outboxFolder(env), pauseMs: 0 });
    const width = Math.max(...PURGE_KINDS.map((kind) => PURGE_LABELS[kind].length));
    return [
      `Purge terminée (demandes : ${policy.requestDays} j après le dernier contact, mails envoyés : ${policy.sentMailDays} j, ` +
        `sessions : ${policy.sessionDays} j, assistant : ${policy.assistantDays} j d'inactivité, signalisation : ${policy.signalingHours} h).`,
      "Supprimé :",
      ...PURGE_KINDS.map((kind) => `  ${PURGE_LABELS[kind].padEnd(width)}  ${counts[kind]}`),
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
    console.error(`Échec de la purge : ${error instanceof Error ? error.message : String(error)}`);
  }
  process.exitCode = 1;
}
