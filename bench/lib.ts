/** Shared helpers for the benchmark scripts (they print figures; they assert nothing). */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createScratchDatabase, startPostgres } from "#tests/support/postgres.ts";

export const root = path.resolve(import.meta.dirname, "..");

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** Makes sure a current build exists (same check as `npm start`). */
export function ensureBuild(): void {
  const result = spawnSync(process.execPath, [path.join(root, "scripts", "ensure-build.ts")], {
    cwd: root,
    stdio: "inherit",
  });
  if (result.status !== 0) throw new Error("build failed");
}

/** Starts the production server on `port`; resolves once /healthz answers. */
export async function startServer(port: number, extraEnv: Record<string, string> = {}): Promise<ChildProcess> {
  // Its own data folder unless told: a server already running on ./data holds that folder's lock.
  const dataDir = extraEnv.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "atelier-bench-"));
  const child = spawn(process.execPath, [path.join(root, "server", "index.ts")], {
    cwd: root,
    // No STUN server: on loopback it is useless, and unreachable here.
    // PUBLIC_URL: the origin the benchmarks reach, the only one the server trusts (issue 13 §9).
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      ICE_STUN_URLS: "none",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...extraEnv,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  await waitFor(`http://127.0.0.1:${port}/healthz`, 60_000);
  if (!extraEnv.DATA_DIR) child.once("exit", () => rmSync(dataDir, { recursive: true, force: true }));
  return child;
}

/** Polls `url` until it answers 200; returns the elapsed time in ms. */
export async function waitFor(url: string, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    try {
      const response = await fetch(url);
      if (response.ok) {
        await response.arrayBuffer();
        return performance.now() - started;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function has(command: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${command}`]).status === 0;
}

/**
 * Runs a benchmark on the embedded database of `npm start` (`databaseUrl`
 * undefined: PostgreSQL run by the server since issue 16, or PGlite with
 * EMBEDDED_DATABASE=pglite), then on a throwaway
 * durable PostgreSQL cluster when one can be started (TEST_DATABASE_URL or
 * Debian's postgresql package), dropping it afterwards.
 */
export async function onBothDatabases(run: (label: string, databaseUrl?: string) => Promise<void>): Promise<void> {
  await run(`embedded ${process.env.EMBEDDED_DATABASE === "pglite" ? "PGlite" : "PostgreSQL"} (DATA_DIR)`);
  const postgres = await startPostgres({ durable: true });
  if (!postgres) {
    console.log(
      "\nPostgreSQL absent (ni TEST_DATABASE_URL ni paquet postgresql) : mesure de la base embarquée seulement.",
    );
    return;
  }
  const scratch = await createScratchDatabase(postgres.url);
  try {
    await run("PostgreSQL", scratch.url);
  } finally {
    await scratch.drop();
    await postgres.stop();
  }
}
