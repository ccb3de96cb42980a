/**
 * Time from the start command (build present and current) to the first 200 on / (issue 2; issue 30 §2:
 * goal ≤ 1 s with the embedded PostgreSQL already created), p50 and p95 of `runs` starts in each case:
 * - `npm start` again at the same address: the usual restart (a reboot, a crash, a new setting that no page
 *   shows); the public pages the last start kept on disk answer while the server loads (decision 030);
 * - `node scripts/start.mjs` at the same address: the same without npm's own start (~0.25 s);
 * - `npm start` at a new `PUBLIC_URL` each time (issue 29: a new address needs no build, goal ≤ 2 s); the
 *   pages kept are another address's, so / waits for the server's own render.
 * The first start creates the embedded database (issue 4; the PostgreSQL cluster since issue 16) and is
 * reported apart. `BENCH_ROOT=<folder>` measures another copy of the project (e.g. the previous commit).
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

/** One start by `command`, timed to the first 200 on /, then stopped (database closed, lock released). */
async function timedStart(command: "npm" | "node", publicUrl: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(
    command,
    command === "npm" ? ["start", "--silent"] : ["--max-semi-space-size=8", "scripts/start.mjs"],
    {
      cwd: project,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        PUBLIC_URL: publicUrl,
        LOG_LEVEL: "warn",
        DATA_DIR: dataDir,
      },
      stdio: ["ignore", "ignore", "ignore"],
      detached: true,
    },
  );
  const server = command === "npm" ? serverUnderNpm(child.pid!) : Promise.resolve(child.pid!);
  await waitFor(`http://127.0.0.1:${port}/`, 60_000);
  const elapsed = performance.now() - started;
  process.kill(-child.pid!, "SIGTERM");
  await stop(child);
  // The next start must not wait for this one's database to close.
  await serverGone(await server, dataDir);
  return elapsed;
}

function report(label: string, times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!;
  console.log(
    `${label}: median ${median(times).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms over ${times.length} runs (${times.map((t) => t.toFixed(0)).join(", ")} ms)`,
  );
}

const address = "https://atelier.example.fr";
console.log(`npm start → first 200 on /, database created: ${(await timedStart("npm", address)).toFixed(0)} ms`);
const same: number[] = [];
const direct: number[] = [];
const moved: number[] = [];
for (let i = 0; i < runs; i++) {
  same.push(await timedStart("npm", address));
  direct.push(await timedStart("node", address));
  // A new address at every start: the build holds none (issue 29), so none of them rebuilds.
  moved.push(await timedStart("npm", `https://adresse-${i}.example.fr`));
  // Back to the usual address, whose pages the next start finds on disk again.
  await timedStart("npm", address);
}
rmSync(dataDir, { recursive: true, force: true });
report("npm start again at the same address → first 200 on /", same);
report("node scripts/start.mjs at the same address → first 200 on /", direct);
report("npm start at a new PUBLIC_URL → first 200 on /", moved);
