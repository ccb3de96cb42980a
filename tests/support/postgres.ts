/**
 * A throwaway PostgreSQL server for tests (issue 4: persistence tests run on
 * PGlite and on PostgreSQL). `TEST_DATABASE_URL` (or `DATABASE_URL`) names an
 * existing server; otherwise, when Debian's `postgresql` package is installed,
 * a cluster is created in a temporary folder and started on 127.0.0.1 and a
 * free port, then removed by `stop()`. Each test opens its own database on it
 * with `createScratchDatabase`.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync, chownSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";

export type PostgresServer = { url: string; stop(): Promise<void> };

/** The newest installed `/usr/lib/postgresql/<version>/bin`, or undefined. */
function postgresBinaries(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(path.join(root, name, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], "bin") : undefined;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/**
 * An existing server from the environment, a freshly started local one, or
 * `null` when PostgreSQL is not installed. `durable` keeps fsync and
 * synchronous commits on (benchmarks); tests turn them off.
 */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<PostgresServer | null> {
  const existing = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  if (existing) return { url: existing, stop: async () => undefined };
  const bin = postgresBinaries();
  if (!bin) return null;

  const asRoot = process.getuid?.() === 0;
  // PostgreSQL refuses to run as root: run its tools as the `postgres` user.
  const run = (tool: string, args: string[]) => {
    const [command, argv] = asRoot
      ? ["runuser", ["-u", "postgres", "--", path.join(bin, tool), ...args]]
      : [path.join(bin, tool), args];
    execFileSync(command, argv, { stdio: "pipe" });
  };
  const folder = mkdtempSync(path.join(tmpdir(), "atelier-pg-"));
  if (asRoot) {
    const ids = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" }).stdout.trim();
    const gid = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" }).stdout.trim();
    chownSync(folder, Number(ids), Number(gid));
  }
  const data = path.join(folder, "data");
  const port = await freePort();
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync", "--no-instructions"]);
  run("pg_ctl", [
    "-D",
    data,
    "-l",
    path.join(folder, "server.log"),
    "-w",
    "-o",
    // Tests trade durability for speed; benches (`durable`) keep PostgreSQL's defaults.
    `-h 127.0.0.1 -p ${port} -k ${folder} -c max_connections=200` +
      (options.durable ? "" : " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"),
    "start",
  ]);
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}

/** A new empty database on the server at `adminUrl`; `drop()` removes it. */
export async function createScratchDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
