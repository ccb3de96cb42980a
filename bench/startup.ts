/**
 * Time from `npm start` (build present and current) to the first 200 on / (issue 2; issue 16 §3: later
 * starts under 1 s), each start at a new `PUBLIC_URL` (issue 29: a new address needs no build, goal ≤ 2 s). The first start creates the embedded database (issue 4; the PostgreSQL cluster
 * since issue 16) and is reported apart; the measured runs reopen it, as every start after the first does.
 * `BENCH_ROOT=<folder>` measures another copy of the project (e.g. the previous commit, for a before/after).
 * Usage: node bench/startup.ts [runs=5]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { serverGone, serverUnderNpm } from "./contact-load.ts";
import { ensureBuild, freePort, median, root, stop, waitFor } from "./lib.ts";

const runs = Number(process.argv[2] ?? 5);
const project = process.env.BENCH_ROOT ?? root;
if (project === root) ensureBuild();
const dataDir = mkdtempSync(path.join(tmpdir(), "atelier-bench-startup-"));
const times: number[] = [];
for (let i = 0; i <= runs; i++) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn("npm", ["start", "--silent"], {
    cwd: project,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      // A new address at every start: the build holds none (issue 29), so none of them rebuilds.
      PUBLIC_URL: `https://adresse-${i}.example.fr`,
      LOG_LEVEL: "warn",
      DATA_DIR: dataDir,
    },
    stdio: ["ignore", "ignore", "ignore"],
    detached: true,
  });
  const server = serverUnderNpm(child.pid!);
  await waitFor(`http://127.0.0.1:${port}/`, 60_000);
  times.push(performance.now() - started);
  process.kill(-child.pid!, "SIGTERM");
  await stop(child);
  // The next start must not wait for this one's database to close.
  await serverGone(await server, dataDir);
}
rmSync(dataDir, { recursive: true, force: true });
const [first, ...restarts] = times;
console.log(`npm start → first 200 on /, database created: ${first!.toFixed(0)} ms`);
const sorted = [...restarts].sort((a, b) => a - b);
const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!;
console.log(
  `npm start at a new PUBLIC_URL → first 200 on /, database reopened: median ${median(restarts).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms over ${runs} runs (${restarts.map((t) => t.toFixed(0)).join(", ")} ms)`,
);
