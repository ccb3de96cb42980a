/**
 * Playwright global setup: a throwaway PostgreSQL (tests/support/postgres.ts)
 * for the outbox tests on PostgreSQL; workers read its URL from
 * `E2E_POSTGRES_URL`. On CI it must be available.
 *
 * It also makes one DATA_DIR with the embedded PostgreSQL created and migrated and no account
 * (`E2E_DATA_TEMPLATE`), that `startAreaServer` copies: `initdb` and the migrations then run once per run
 * instead of once per spec (issue 30 §3). Returns the teardown.
 *
 * Issue 36: the desktop apps the `desktop-app` specs run (Linux, and Windows under Wine) are built here, before
 * any worker starts, as customers get them: their compression takes a core for 20 s each, which beside a running
 * spec on 2 cores made its keys and consents arrive late (a CI rehearsal). Cached: 0.1 s when nothing changed.
 * Issue 40: also the macOS (Apple Silicon) build, which the signed-out /soft-assist offers a Mac first
 * (public-help.spec.ts).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startPostgres } from "./postgres.ts";

const root = path.resolve(import.meta.dirname, "../..");

export default async function globalSetup() {
  const server = await startPostgres();
  if (!server && process.env.CI)
    throw new Error("PostgreSQL est introuvable : .ci/run doit installer le paquet postgresql.");
  if (server) process.env.E2E_POSTGRES_URL = server.url;
  const template = mkdtempSync(path.join(tmpdir(), "atelier-e2e-template-"));
  // `npm run user -- list` opens the database as every command does: created and migrated, then stopped.
  execFileSync(process.execPath, ["--import", "./server/module-resolve.ts", "scripts/user.ts", "list"], {
    cwd: root,
    env: { PATH: process.env.PATH, DATA_DIR: template, LOG_LEVEL: "silent" },
    stdio: "pipe",
  });
  process.env.E2E_DATA_TEMPLATE = template;
  execFileSync(process.execPath, ["scripts/build-desktop.ts", "--target", "linux-x64,windows-x64,darwin-arm64"], {
    cwd: root,
    stdio: "inherit",
  });
  return async () => {
    await server?.stop();
    rmSync(template, { recursive: true, force: true });
  };
}
