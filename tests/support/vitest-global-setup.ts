/**
 * Vitest global setup: starts the throwaway PostgreSQL of
 * `tests/support/postgres.ts` once for the run and provides its URL
 * (`inject("postgresUrl")`, empty when PostgreSQL is unavailable). On CI
 * PostgreSQL must be there: the persistence tests run on both databases.
 */
import type { TestProject } from "vitest/node";
import { startPostgres } from "./postgres.ts";

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await startPostgres();
  if (!server && process.env.CI) {
    throw new Error("PostgreSQL est introuvable : .ci/run doit installer le paquet postgresql.");
  }
  project.provide("postgresUrl", server?.url ?? "");
  return async () => {
    await server?.stop();
  };
}
