/**
 * Account administration (issues 5, 14, 29), the only way to give a staff role from the shop's machine
 * (never settable from a browser; the manager also invites technicians from the dashboard). The work is
 * `scripts/user-command.ts`'s (roles through `server/access.ts`):
 *
 *   npm run user -- list
 *   npm run user -- create --email gerant@atelier.fr --name "Sam" [--password …] [--technician | --manager]
 *   npm run user -- promote tech@atelier.fr [--manager]   # becomes a technician (or the manager, « gérant »)
 *   npm run user -- demote  tech@atelier.fr [--technician] # back to customer (or manager → technician)
 *   npm run user -- disable tech@atelier.fr               # no sign-in; open pages closed at once
 *   npm run user -- enable  tech@atelier.fr
 *   npm run user -- delete  client@exemple.fr
 *
 * Uses the server's configuration (DATA_DIR or DATABASE_URL), and runs beside
 * a running server (issue 29, `database/command-database.ts`; with PGlite, stop
 * the server first). Without `--password`, the password is asked on the terminal.
 * Exit codes: 0 done, 1 refused (message in French on stderr).
 */
import { createInterface } from "node:readline/promises";
import { DatabaseLockedError } from "#database/connection.ts";
import { openCommandDatabase } from "#database/command-database.ts";
import { ConfigError, parseEnv } from "#server/env.ts";
import { runUserCommand, USAGE, UsageError } from "./user-command.ts";

async function askPassword(): Promise<string> {
  if (!process.stdin.isTTY) throw new UsageError("mot de passe manquant : --password <mot de passe>");
  const terminal = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  // Hide what is typed: the readline echo goes through _writeToOutput.
  const rl = terminal as unknown as { _writeToOutput: (text: string) => void; output: NodeJS.WriteStream };
  let muted = false;
  rl._writeToOutput = (text) => {
    if (!muted || text.includes("\n")) rl.output.write(muted ? "\n" : text);
  };
  const question = terminal.question("Mot de passe (8 caractères au moins) : ");
  muted = true;
  const answer = await question;
  terminal.close();
  return answer;
}

async function main(argv: string[]): Promise<string> {
  if (argv.filter((arg) => !arg.startsWith("-")).length === 0) throw new UsageError(USAGE);
  const env = parseEnv();
  const database = await openCommandDatabase(env);
  try {
    return await runUserCommand(argv, { db: database.db, env, askPassword });
  } finally {
    await database.close();
  }
}

try {
  console.log(await main(process.argv.slice(2)));
} catch (error) {
  if (error instanceof UsageError || error instanceof ConfigError || error instanceof DatabaseLockedError) {
    console.error(error.message);
  } else {
    console.error(`Échec : ${error instanceof Error ? error.message : String(error)}`);
  }
  process.exitCode = 1;
}
