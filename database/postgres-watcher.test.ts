/**
 * Issue 28 §11: the watcher that stops the embedded PostgreSQL when its
 * server dies. A fake `pg_ctl` (a shell script) writes its arguments to a
 * file, so these tests need no PostgreSQL; both the POSIX watcher (`sh`) and
 * the Windows one (`node -e`) run here. The real cluster under kill -9 is
 * tested in `embedded-postgres.test.ts` and `tests/e2e/postgres-orphan.spec.ts`.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startPostgresWatcher, watcherCommand } from "./postgres-watcher.ts";

const watcherModule = path.resolve(import.meta.dirname, "postgres-watcher.ts");
let folder: string;

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** A fake pg_ctl in a fresh folder; `calls()` reads the argument lines it was run with (whole lines only). */
async function fakePgCtl() {
  folder = await mkdtemp(path.join(tmpdir(), "atelier-watcher-"));
  const log = path.join(folder, "calls");
  const pgCtl = path.join(folder, "pg_ctl");
  await writeFile(pgCtl, `#!/bin/sh\necho "$@" >> '${log}'\n`, { mode: 0o755 });
  return { pgCtl, calls: () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : []) };
}

async function until(check: () => boolean, timeoutMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.each(["linux", "win32"] as const)("the %s watcher", (platform) => {
  it("runs pg_ctl stop (fast, no wait) for its folder once the server is killed with SIGKILL, then exits", async () => {
    const { pgCtl, calls } = await fakePgCtl();
    const cluster = path.join(folder, "postgres");
    const command = watcherCommand(pgCtl, cluster, platform);
    // A stand-in server: starts the watcher, prints its pid, then waits to be killed.
    const script =
      `const { startPostgresWatcher } = await import(${JSON.stringify(watcherModule)});` +
      `const watcher = startPostgresWatcher({ pgCtl: "", folder: "", spawnOptions: {}, command: ${JSON.stringify(command)} });` +
      `console.log("watcher " + watcher.pid);` +
      `setInterval(() => undefined, 1000);`;
    const server = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const pid = await new Promise<number>((resolve, reject) => {
      let output = "";
      server.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const match = /watcher (\d+)/.exec(output);
        if (match) resolve(Number(match[1]));
      });
      server.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      server.once("exit", () => reject(new Error(output)));
    });
    // Alive and idle while the server lives.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(alive(pid)).toBe(true);
    expect(calls()).toEqual([]);

    server.kill("SIGKILL");
    expect(await until(() => calls().length > 0)).toBe(true);
    expect(calls()).toEqual([`stop -D ${cluster} -m fast -W -s`]);
    expect(await until(() => !alive(pid))).toBe(true);
  });

  it("stands down without running pg_ctl when released after a clean stop", async () => {
    const { pgCtl, calls } = await fakePgCtl();
    const watcher = startPostgresWatcher({
      pgCtl,
      folder,
      spawnOptions: {},
      command: watcherCommand(pgCtl, folder, platform),
    });
    expect(watcher.pid).toBeGreaterThan(0);
    await watcher.release();
    expect(alive(watcher.pid!)).toBe(false);
    // Released twice (close() after an error path): the same answer.
    await watcher.release();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(calls()).toEqual([]);
  });
});

describe("startPostgresWatcher", () => {
  it("reports a watcher that cannot start and never throws", async () => {
    folder = await mkdtemp(path.join(tmpdir(), "atelier-watcher-"));
    const errors: Error[] = [];
    const watcher = startPostgresWatcher({
      pgCtl: "pg_ctl",
      folder,
      spawnOptions: {},
      command: { command: path.join(folder, "absent"), args: [] },
      onError: (error) => errors.push(error),
    });
    await watcher.release();
    expect(errors.map((error) => (error as NodeJS.ErrnoException).code)).toEqual(["ENOENT"]);
  });

  it("passes the folder as an argument, never inside the script", () => {
    const odd = '/tmp/a b\'; rm -rf "$HOME"';
    for (const platform of ["linux", "darwin", "win32"] as const) {
      const { args } = watcherCommand("/bin/pg_ctl", odd, platform);
      expect(args.at(-1)).toBe(odd);
      expect(args.slice(0, -2).join(" ")).not.toContain(odd);
    }
  });
});
