/**
 * Account administration (issue 5), the only way to give the technician role
 * (spec §3 `is_technician`; never settable from a browser). Roles are read
 * and written through `server/access.ts` (issue 14), which also says what
 * each may do:
 *
 *   npm run user -- list
 *   npm run user -- create --email tech@atelier.fr --name "Camille" [--password …] [--technician]
 *   npm run user -- promote tech@atelier.fr      # becomes a technician
 *   npm run user -- demote  tech@atelier.fr      # back to customer
 *   npm run user -- delete  client@exemple.fr
 *
 * Uses the server's configuration (DATA_DIR or DATABASE_URL), and runs beside
 * a running server (issue 29, `database/command-database.ts`; with PGlite, stop
 * the server first). Without `--password`, the password is asked on the terminal.
 * Exit codes: 0 done, 1 refused (message in French on stderr).
 */
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { eq } from "drizzle-orm";
import { pino } from "pino";
import { z } from "zod";
import { DatabaseLockedError } from "#database/connection.ts";
import { openCommandDatabase } from "#database/command-database.ts";
import { users } from "#database/schema.ts";
import { ConfigError, parseEnv } from "#server/env.ts";
import { roleFields, roleOf, type Role } from "#server/access.ts";
import { createAuth, loadAuthSecret } from "#server/auth.ts";

const USAGE = `Utilisation :
  npm run user -- list
  npm run user -- create --email <e-mail> --name <nom> [--password <mot de passe>] [--technician]
  npm run user -- promote <e-mail>
  npm run user -- demote <e-mail>
  npm run user -- delete <e-mail>`;

class UsageError extends Error {}

/** How `list` and the confirmations name each role. */
const ROLE_LABELS: Record<Role, string> = { customer: "client", technician: "technicien" };
/** `list`'s role column is as wide as its longest label. */
const LABEL_WIDTH = Math.max(...Object.values(ROLE_LABELS).map((label) => label.length));

const Email = z.email({ error: "adresse e-mail invalide" });
const NewUser = z.object({
  email: Email,
  name: z.string().trim().min(1, { error: "le nom est obligatoire (--name)" }).max(100),
  password: z.string().min(8, { error: "le mot de passe doit contenir au moins 8 caractères" }).max(128),
});

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
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: "string" },
      name: { type: "string" },
      password: { type: "string" },
      technician: { type: "boolean", default: false },
    },
  });
  const [command, target] = positionals;
  if (!command) throw new UsageError(USAGE);
  const env = parseEnv();
  const database = await openCommandDatabase(env);
  try {
    const { db } = database;
    const findUser = async (email: string | undefined) => {
      const checked = Email.safeParse(email);
      if (!checked.success) throw new UsageError(`adresse e-mail manquante ou invalide\n${USAGE}`);
      const [user] = await db.select().from(users).where(eq(users.email, checked.data.toLowerCase()));
      if (!user) throw new UsageError(`aucun compte pour ${checked.data}`);
      return user;
    };
    switch (command) {
      case "list": {
        const rows = await db.select().from(users).orderBy(users.createdAt);
        if (rows.length === 0) return "Aucun compte.";
        return rows
          .map(
            (user) =>
              `${ROLE_LABELS[roleOf(user)].padEnd(LABEL_WIDTH)}  ${user.email}  (${user.name}, créé le ${user.createdAt.toLocaleDateString("fr-FR")})`,
          )
          .join("\n");
      }
      case "create": {
        const input = NewUser.safeParse({
          email: values.email,
          name: values.name,
          password: values.password ?? (await askPassword()),
        });
        if (!input.success) throw new UsageError(input.error.issues.map((issue) => issue.message).join("\n"));
        const auth = createAuth({ db, env, logger: pino({ level: "silent" }), secret: await loadAuthSecret(env) });
        const [existing] = await db.select().from(users).where(eq(users.email, input.data.email.toLowerCase()));
        if (existing)
          throw new UsageError(`un compte existe déjà pour ${input.data.email} (utilisez promote ou demote)`);
        const { user } = await auth.api.signUpEmail({ body: input.data });
        const role: Role = values.technician ? "technician" : "customer";
        if (role !== "customer") await db.update(users).set(roleFields(role)).where(eq(users.id, user.id));
        return `Compte ${ROLE_LABELS[role]} créé : ${user.email}`;
      }
      case "promote":
      case "demote": {
        const user = await findUser(target);
        const role: Role = command === "promote" ? "technician" : "customer";
        await db.update(users).set(roleFields(role)).where(eq(users.id, user.id));
        return `${user.email} est maintenant ${ROLE_LABELS[role]}.`;
      }
      case "delete": {
        const user = await findUser(target);
        // Sign-in sessions and password accounts go with it (foreign keys, on delete cascade).
        await db.delete(users).where(eq(users.id, user.id));
        return `Compte ${user.email} supprimé.`;
      }
      default:
        throw new UsageError(`commande inconnue : ${command}\n${USAGE}`);
    }
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
