/**
 * Memory of `npm start` (issue 16 §2; goals: under 250 MB idle, under 350 MB
 * under load), server + the PostgreSQL it started, counted as
 * `contact-load.ts` explains (MB). For each database: the real `npm start`
 * on a fresh DATA_DIR, 5 s after `/healthz` first answers (idle), then the
 * `bench/post-contact.ts` load (3 s warm-up then `rate` POST /api/contact
 * per second for `seconds`, open loop), sampled every 250 ms: the peak, and
 * the figure at the end. npm's own process, which waits beside the server,
 * is printed apart (it is the same whatever the database).
 * Databases: the embedded PostgreSQL (default), PGlite (EMBEDDED_DATABASE=pglite),
 * and a PostgreSQL server by DATABASE_URL when one can be started (its own
 * memory is not counted: it is another service).
 *
 * `BENCH_ROOT=<folder>` measures another copy of the project (e.g. the previous commit, for a before/after).
 *
 *   node bench/memory.ts [rate=200] [seconds=20]
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createScratchDatabase, startPostgres } from "#tests/support/postgres.ts";
import { afterServer, openLoop, serverUnderNpm, treeMemory, type TreeMemory } from "./contact-load.ts";
import { ensureBuild, freePort, root, waitFor } from "./lib.ts";

const rate = Number(process.argv[2] ?? 200);
const seconds = Number(process.argv[3] ?? 20);
const project = process.env.BENCH_ROOT ?? root;

function stopGroup(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    process.kill(-child.pid!, "SIGTERM");
  });
}

async function measure(kind: string, extraEnv: Record<string, string>) {
  const dataDir = await mkdtemp(path.join(tmpdir(), "atelier-bench-memory-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn("npm", ["start", "--silent"], {
    cwd: project,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      // The default build's address: another one would rebuild the site (it is baked into the pages).
      PUBLIC_URL: "http://localhost:3000",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      FORM_RATE_LIMIT: "100000000",
      ...extraEnv,
    },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const pid = await serverUnderNpm(child.pid!);
  try {
    await waitFor(`${url}/healthz`, 120_000);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const idle = treeMemory(pid, dataDir);
    const npm = Number(readFileSync(`/proc/${child.pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)?.[1]) / 1024;
    await openLoop(url, rate, 3);
    let peak: TreeMemory = idle;
    const sampler = setInterval(() => {
      const now = treeMemory(pid, dataDir);
      if (now.total > peak.total) peak = now;
    }, 250);
    const load = await openLoop(url, rate, seconds);
    clearInterval(sampler);
    const end = treeMemory(pid, dataDir);
    return { kind, idle, peak, end, npm, load };
  } finally {
    await stopGroup(child);
    await afterServer(pid, dataDir);
  }
}

if (project === root) ensureBuild();
const results = [await measure("PostgreSQL intégré (défaut)", {})];
results.push(await measure("PGlite (EMBEDDED_DATABASE=pglite)", { EMBEDDED_DATABASE: "pglite" }));
const postgres = await startPostgres({ durable: true });
if (postgres) {
  const scratch = await createScratchDatabase(postgres.url);
  try {
    results.push(await measure("PostgreSQL (DATABASE_URL, non compté)", { DATABASE_URL: scratch.url }));
  } finally {
    await scratch.drop();
    await postgres.stop();
  }
}

const mb = (value: number) => value.toFixed(0);
console.log(
  `\nMémoire de npm start (Mo) : au repos (5 s après le démarrage), puis ${rate} POST /api/contact/s pendant ${seconds} s`,
);
console.table(
  results.map((r) => ({
    base: r.kind,
    "repos total (< 250)": mb(r.idle.total),
    "repos Node RSS": mb(r.idle.server),
    "repos postgres": `${mb(r.idle.postgres)} (${r.idle.postgresProcesses} proc., ΣRSS ${mb(r.idle.postgresRssSum)}, ΣPSS ${mb(r.idle.postgresPss)})`,
    "charge max total (< 350)": mb(r.peak.total),
    "charge max Node": mb(r.peak.server),
    "charge max postgres": `${mb(r.peak.postgres)} (${r.peak.postgresProcesses} proc., ΣRSS ${mb(r.peak.postgresRssSum)})`,
    "fin total": mb(r.end.total),
    "req/s": r.load.rate.toFixed(0),
    "p99 ms": r.load.p99.toFixed(1),
    "npm (à part)": mb(r.npm),
  })),
);
