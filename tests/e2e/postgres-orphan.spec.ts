/**
 * Issue 28 §11 end to end: a server killed with SIGKILL (no handler, no
 * `exit` hook runs) must not leave its embedded PostgreSQL behind. Before the
 * fix, the postmaster ran on until the next start stopped it (60 s and more).
 *
 * A server of its own on a fresh data folder (the embedded PostgreSQL is the
 * default database), then `kill -9`, then `ps` every 100 ms until no process
 * of that cluster is left: the postmaster, its children (checkpointer,
 * walwriter…; their command line no longer names the folder, so they are found
 * by parent pid) and anything else naming the folder (the watcher). Prints the
 * seconds it took, the figure the issue asks for. Runs at desktop width only:
 * the browser plays no part.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startServerProcess } from "#tests/support/server-process.ts";

/** The bound, in seconds. */
const LIMIT_S = 5;

/**
 * Live processes (zombies left out: they hold nothing) that belong to the
 * cluster in `folder` whose postmaster is `postmaster`: `pid args` lines.
 */
function clusterProcesses(folder: string, postmaster: number): string[] {
  // -ww: whole command lines, however long the temporary folder's path.
  const table = execFileSync("ps", ["-ww", "-eo", "pid=,ppid=,stat=,args="], { encoding: "utf8" });
  const found: string[] = [];
  for (const line of table.split("\n")) {
    const match = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const [, pid, ppid, stat, args] = match as unknown as [string, string, string, string, string];
    if (stat.startsWith("Z")) continue;
    if (Number(pid) === postmaster || Number(ppid) === postmaster || args.includes(folder)) {
      found.push(`${pid} ${args}`);
    }
  }
  return found;
}

test.describe("the embedded PostgreSQL when its server is killed", { tag: "@desktop" }, () => {
  test("kill -9 of the server: no postgres process of its data folder is left within 5 s", async () => {
    test.setTimeout(120_000);
    const dataDir = await mkdtemp(path.join(tmpdir(), "atelier-e2e-orphan-"));
    const folder = path.join(dataDir, "postgres");
    let postmaster: number | undefined;
    try {
      const server = await startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: "warn" });
      postmaster = Number(readFileSync(path.join(folder, "postmaster.pid"), "utf8").split("\n", 1)[0]);
      expect(clusterProcesses(folder, postmaster).length).toBeGreaterThan(1);

      const killedAt = performance.now();
      await server.kill();
      // Past the bound, go on a little: the measured figure then says how far off it is.
      let left = clusterProcesses(folder, postmaster);
      while (left.length > 0 && performance.now() - killedAt < (LIMIT_S + 5) * 1000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        left = clusterProcesses(folder, postmaster);
      }
      const seconds = (performance.now() - killedAt) / 1000;
      console.log(
        left.length === 0
          ? `issue 28 §11 : plus aucun processus postgres ${seconds.toFixed(2)} s après le kill -9 du serveur`
          : `issue 28 §11 : ${left.length} processus postgres encore là ${seconds.toFixed(2)} s après le kill -9`,
      );
      expect(left, "processus postgres restants").toEqual([]);
      expect(seconds).toBeLessThan(LIMIT_S);
    } finally {
      // On failure, do not leave the cluster running for the rest of the run: a fast shutdown (SIGINT).
      if (postmaster !== undefined && clusterProcesses(folder, postmaster).length > 0) {
        try {
          process.kill(postmaster, "SIGINT");
        } catch {
          // Already gone.
        }
        const deadline = Date.now() + 10_000;
        while (clusterProcesses(folder, postmaster).length > 0 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      await rm(dataDir, { recursive: true, force: true, maxRetries: 10 });
    }
  });
});
