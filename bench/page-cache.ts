/**
 * The public pages rendered at run time (issue 29, docs/decisions/025): for every page of
 * `PRERENDERED_PATHS`, the time of its first request (rendered, compressed, kept) and of the next one
 * (from memory), on a fresh server at a new PUBLIC_URL, brotli accepted as browsers do.
 * Usage: node bench/page-cache.ts
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PRERENDERED_PATHS } from "#app/config/public-routes.ts";
import { ensureBuild, freePort, median, root, stop, waitFor } from "./lib.ts";

ensureBuild();
const dataDir = mkdtempSync(path.join(tmpdir(), "atelier-bench-pages-"));
const port = await freePort();
const child = spawn(process.execPath, [path.join(root, "server", "index.ts")], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    PUBLIC_URL: "https://banc.example.fr",
  },
  stdio: "ignore",
});
try {
  await waitFor(`http://127.0.0.1:${port}/healthz`, 60_000);
  const timed = async (pagePath: string) => {
    const started = performance.now();
    const response = await fetch(`http://127.0.0.1:${port}${pagePath}`, { headers: { "Accept-Encoding": "br" } });
    await response.arrayBuffer();
    return performance.now() - started;
  };
  const first: number[] = [];
  const again: number[] = [];
  for (const pagePath of PRERENDERED_PATHS) {
    first.push(await timed(pagePath));
    again.push(await timed(pagePath));
  }
  const summary = (values: number[]) =>
    `median ${median(values).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms, sum ${values.reduce((a, b) => a + b, 0).toFixed(0)} ms`;
  console.log(`${PRERENDERED_PATHS.length} public pages, first request (render + compress): ${summary(first)}`);
  console.log(`same pages from memory: ${summary(again)}`);
} finally {
  await stop(child);
  rmSync(dataDir, { recursive: true, force: true });
}
