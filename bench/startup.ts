/**
 * Time from `npm start` (build present and current) to the first 200 on / (issue 2; target ≤ 2 s).
 * Usage: node bench/startup.ts [runs=5]
 */
import { spawn } from "node:child_process";
import { ensureBuild, freePort, median, root, stop, waitFor } from "./lib.ts";

const runs = Number(process.argv[2] ?? 5);
ensureBuild();
const times: number[] = [];
for (let i = 0; i < runs; i++) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn("npm", ["start", "--silent"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "ignore"],
    detached: true,
  });
  await waitFor(`http://127.0.0.1:${port}/`, 30_000);
  times.push(performance.now() - started);
  process.kill(-child.pid!, "SIGTERM");
  await stop(child);
}
console.log(`npm start → first 200 on /: median ${median(times).toFixed(0)} ms over ${runs} runs (${times.map((t) => t.toFixed(0)).join(", ")} ms)`);
