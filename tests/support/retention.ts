/**
 * What the retention tests share (`server/retention.test.ts`, what each purge
 * keeps; `server/retention-runs.test.ts`, how it runs): dates in the past,
 * the default policy, a stored mail, and a test database with its outbox
 * folder for `.eml` copies.
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { parseEnv } from "#server/env.ts";
import { retentionPolicyFromEnv, type RetentionPolicy } from "#server/retention.ts";
import { openTestDatabase, type DatabaseKind, type TestDatabase } from "./databases.ts";

const DAY_MS = 86_400_000;

/** The instant `days` days ago (negative: ahead). */
export const ago = (days: number) => new Date(Date.now() - days * DAY_MS);

/** The periods the server uses with no RETENTION_* variable set. */
export const DEFAULT_POLICY: RetentionPolicy = retentionPolicyFromEnv(parseEnv({}));

/** An outbox row's mail to `to`. */
export const storedMail = (to: string) => ({
  to,
  subject: "Demande",
  text: "Bonjour",
  template: null,
  templateParams: {},
});

/** A test database of `kind` with `<dataDir>/outbox` created, where the outbox keeps its `.eml` copies. */
export async function openRetentionDatabase(
  kind: DatabaseKind,
): Promise<{ database: TestDatabase; outboxDir: string }> {
  const database = await openTestDatabase(kind);
  const outboxDir = path.join(database.dataDir, "outbox");
  await mkdir(outboxDir, { recursive: true });
  return { database, outboxDir };
}
