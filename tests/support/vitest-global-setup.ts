/**
 * Vitest global setup: starts the throwaway PostgreSQL of
 * `tests/support/postgres.ts` once for the run and provides its URL
 * (`inject("postgresUrl")`, empty when PostgreSQL is unavailable). On CI
 * PostgreSQL must be there: the persistence tests run on both databases.
 *
 * It also makes one migrated PGlite folder (`inject("pgliteTemplate")`) that `openTestDatabase("pglite")`
 * copies: creating and migrating a PGlite database takes ~7 s of CPU, copying one and opening it ~1.5 s,
 * and the suite opens about a hundred (issue 30 §3).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "#database/connection.ts";
import { startPostgres } from "./postgres.ts";

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
    /** A DATA_DIR whose `pglite` folder holds an empty database with every migration applied. */
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const [server, template] = await Promise.all([startPostgres(), migratedPglite()]);
  if (!server && process.env.CI) {
    throw new Error("PostgreSQL est introuvable : .ci/run doit installer le paquet postgresql.");
  }
  project.provide("postgresUrl", server?.url ?? "");
  project.provide("pgliteTemplate", template);
  return async () => {
    await server?.stop();
    await rm(template, { recursive: true, force: true });
  };
}

/** A DATA_DIR holding a migrated PGlite database, closed (so its lock is released). */
async function migratedPglite(): Promise<string> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "atelier-pglite-template-"));
  const handle = await openDatabase({ dataDir, embedded: "pglite" });
  await handle.close();
  return dataDir;
}
