/**
 * The work of `npm run user` (issues 5, 14, 29), apart from opening the database (`scripts/user.ts`) so
 * tests run it on their own database. Roles are read and written through `server/access.ts`; disabling
 * follows the same rules as the manager's « Équipe » view (`server/staff/accounts.ts`).
 *
 *   list                                                   every account: role in French, « désactivé »
 *   create --email <e-mail> --name <nom> [--password <…>] [--technician | --manager]
 *   promote <e-mail> [--manager] [--force]                  customer → technician (or → manager)
 *   demote <e-mail> [--technician]                          → customer (or manager → technician)
 *   disable <e-mail> / enable <e-mail>                      no sign-in while disabled
 *   delete <e-mail>
 *
 * Beside a running server (embedded PostgreSQL or `DATABASE_URL`), `disable` and `delete` end the account's
 * open pages at once: the sign-in sessions are deleted here, then a PostgreSQL NOTIFY tells every server
 * process (`notifyAccountEnded`), which disconnects their sockets. The last active manager cannot be
 * disabled (as in the dashboard); deleting or demoting it is allowed here, on the shop's machine: the
 * next start then prints the set-up link again.
 *
 * Issue 37: every role change (`promote`, `demote`) ends the account's sign-in sessions (`changeRole`) and tells a
 * running server the same way. `promote` refuses an address nobody proved (sign-up needs no proof: anyone may have
 * registered it) unless `--force`; the « Équipe » view's invitation is the way, its mailed link taking the account
 * over. Disabling, deleting or demoting to customer ends the sessions the account joined as technician.
 */
import { parseArgs } from "node:util";
import { eq } from "drizzle-orm";
import { pino } from "pino";
import { z } from "zod";
import type { AppDatabase } from "#database/connection.ts";
import { users } from "#database/schema.ts";
import type { Env } from "#server/env.ts";
import { ROLE_LABELS, roleOf, STAFF_ROLES, type Role } from "#server/access.ts";
import { createAuth, loadAuthSecret } from "#server/auth.ts";
import { changeRole, deleteAccount, notifyAccountEnded, setDisabled } from "#server/staff/accounts.ts";

export const USAGE = `Utilisation :
  npm run user -- list
  npm run user -- create --email <e-mail> --name <nom> [--password <mot de passe>] [--technician | --manager]
  npm run user -- promote <e-mail> [--manager] [--force]
  npm run user -- demote <e-mail> [--technician]
  npm run user -- disable <e-mail>
  npm run user -- enable <e-mail>
  npm run user -- delete <e-mail>`;

/** A refusal to print as is (exit code 1). */
export class UsageError extends Error {}

/** `list`'s role column is as wide as its longest label. */
const LABEL_WIDTH = Math.max(...Object.values(ROLE_LABELS).map((label) => label.length));

const Email = z.email({ error: "adresse e-mail invalide" });
const NewUser = z.object({
  email: Email,
  name: z.string().trim().min(1, { error: "le nom est obligatoire (--name)" }).max(100),
  password: z.string().min(8, { error: "le mot de passe doit contenir au moins 8 caractères" }).max(128),
});

export type UserCommandDeps = {
  db: AppDatabase;
  env: Env;
  /** Asks the password on the terminal when `--password` is not given. */
  askPassword: () => Promise<string>;
};

/** Runs one command; resolves with what to print. @throws UsageError for a refusal (French message). */
export async function runUserCommand(argv: string[], { db, env, askPassword }: UserCommandDeps): Promise<string> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: "string" },
      name: { type: "string" },
      password: { type: "string" },
      technician: { type: "boolean", default: false },
      manager: { type: "boolean", default: false },
      force: { type: "boolean", default: false },
    },
  });
  const [command, target] = positionals;
  if (!command) throw new UsageError(USAGE);
  if (values.technician && values.manager) throw new UsageError("choisissez --technician ou --manager, pas les deux");

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
            `${ROLE_LABELS[roleOf(user)].padEnd(LABEL_WIDTH)}  ${user.email}  (${user.name}, créé le ${user.createdAt.toLocaleDateString("fr-FR")}${user.disabledAt ? ", désactivé" : ""})`,
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
        throw new UsageError(
          `un compte existe déjà pour ${input.data.email} : pour en faire un technicien, invitez cette adresse depuis la vue « Équipe » (le lien reçu par mail prouve l'adresse)`,
        );
      const { user } = await auth.api.signUpEmail({ body: input.data });
      const role: Role = values.manager ? "manager" : values.technician ? "technician" : "customer";
      if (role !== "customer") await changeRole(db, user.id, role);
      return `Compte ${ROLE_LABELS[role]} créé : ${user.email}`;
    }
    case "promote":
    case "demote": {
      const user = await findUser(target);
      const role: Role =
        command === "promote"
          ? values.manager
            ? "manager"
            : "technician"
          : values.technician
            ? "technician"
            : "customer";
      const staff = (STAFF_ROLES as readonly Role[]).includes(role);
      if (command === "promote" && staff && !user.emailVerified && !values.force)
        throw new UsageError(
          `l'adresse ${user.email} n'a jamais été prouvée : n'importe qui a pu créer ce compte. Invitez-la plutôt depuis la vue « Équipe » (le lien reçu par mail reprend le compte avec un nouveau mot de passe), ou relancez avec --force si vous connaissez son titulaire.`,
        );
      const change = await changeRole(db, user.id, role);
      if (change) await notifyAccountEnded(db, change.ended);
      return `${user.email} est maintenant ${ROLE_LABELS[role]}.`;
    }
    case "disable":
    case "enable": {
      const user = await findUser(target);
      const result = await setDisabled(db, user.id, command === "disable", { staffOnly: false });
      if (!result.ok) {
        throw new UsageError(
          result.reason === "last-manager"
            ? `${user.email} est le dernier gérant actif : nommez-en un autre avant de le désactiver (promote --manager)`
            : `aucun compte pour ${user.email}`,
        );
      }
      await notifyAccountEnded(db, result.ended);
      return command === "disable"
        ? `Compte ${user.email} désactivé (${result.ended.sessionIds.length} connexion(s) terminée(s)).`
        : `Compte ${user.email} réactivé.`;
    }
    case "delete": {
      const user = await findUser(target);
      // The sign-in sessions and the joined sessions first, to tell a running server; the rest goes by cascade.
      const ended = await deleteAccount(db, user.id);
      if (ended) await notifyAccountEnded(db, ended);
      return `Compte ${user.email} supprimé.`;
    }
    default:
      throw new UsageError(`commande inconnue : ${command}\n${USAGE}`);
  }
}
