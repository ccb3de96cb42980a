/**
 * Playwright global setup: a throwaway PostgreSQL (tests/support/postgres.ts)
 * for the outbox tests on PostgreSQL; workers read its URL from
 * `E2E_POSTGRES_URL`. On CI it must be available. Returns the teardown.
 */
import { startPostgres } from "./postgres.ts";

export default async function globalSetup() {
  const server = await startPostgres();
  if (!server && process.env.CI)
    throw new Error("PostgreSQL est introuvable : .ci/run doit installer le paquet postgresql.");
  if (server) process.env.E2E_POSTGRES_URL = server.url;
  return async () => {
    await server?.stop();
  };
}
