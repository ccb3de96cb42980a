/**
 * Requests per second for a pre-rendered page over loopback: our server vs nginx serving the same
 * build folder, in the same run, with the same load tool (wrk). Issue 2 target: ours ≥ 0.5× nginx.
 * Needs Debian's `nginx` (nginx-light) and `wrk`: apt-get install nginx-light wrk.
 * Usage: node bench/throughput.ts [path=/contact] [seconds=10] [connections=50]
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureBuild, freePort, has, root, startServer, stop, waitFor } from "./lib.ts";

const page = process.argv[2] ?? "/contact";
const seconds = Number(process.argv[3] ?? 10);
const connections = Number(process.argv[4] ?? 50);
for (const tool of ["nginx", "wrk"]) {
  if (!has(tool)) {
    console.error(`${tool} manque : apt-get install nginx-light wrk`);
    process.exit(1);
  }
}
ensureBuild();

function wrk(url: string, headers: string[]): number {
  const args = ["-t2", `-c${connections}`, `-d${seconds}s`, ...headers.flatMap((h) => ["-H", h]), url];
  const out = spawnSync("wrk", args, { encoding: "utf8" }).stdout;
  const rps = Number(out.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? NaN);
  const non2xx = out.match(/Non-2xx or 3xx responses: (\d+)/)?.[1];
  if (non2xx) console.warn(`  ! ${non2xx} non-2xx responses from ${url}`);
  return rps;
}

async function nginx(workers: number) {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), "bench-nginx-"));
  const conf = path.join(dir, "nginx.conf");
  writeFileSync(
    conf,
    `worker_processes ${workers};
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
daemon off;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  sendfile on;
  gzip on; gzip_types text/html application/javascript text/css;
  server {
    listen 127.0.0.1:${port};
    root ${path.join(root, "build", "client")};
    location / { try_files $uri $uri/index.html =404; }
  }
}`,
  );
  const child = spawn("nginx", ["-c", conf, "-p", dir], { stdio: "ignore" });
  await waitFor(`http://127.0.0.1:${port}${page}`, 10_000);
  return { child, port };
}

const ourPort = await freePort();
const ours = await startServer(ourPort, { LOG_LEVEL: process.env.LOG_LEVEL ?? "info" });
const results: Record<string, Record<string, number>> = {};
for (const [label, headers] of [
  ["identity", [] as string[]],
  ["gzip", ["Accept-Encoding: gzip"]],
] as const) {
  results[label] = {};
  wrk(`http://127.0.0.1:${ourPort}${page}`, [...headers]); // warm-up
  results[label]["ours"] = wrk(`http://127.0.0.1:${ourPort}${page}`, [...headers]);
}
await stop(ours);
for (const workers of [1, 2]) {
  const { child, port } = await nginx(workers);
  for (const [label, headers] of [
    ["identity", [] as string[]],
    ["gzip", ["Accept-Encoding: gzip"]],
  ] as const) {
    results[label]![`nginx ${workers} worker${workers > 1 ? "s" : ""}`] = wrk(`http://127.0.0.1:${port}${page}`, [
      ...headers,
    ]);
  }
  await stop(child);
}
console.log(`Pre-rendered page ${page}, wrk -t2 -c${connections} -d${seconds}s over loopback:`);
for (const [label, row] of Object.entries(results)) {
  const ours = row["ours"]!;
  const cells = Object.entries(row).map(([name, rps]) => `${name} ${rps.toFixed(0)} req/s`);
  const ratios = Object.entries(row)
    .filter(([name]) => name !== "ours")
    .map(([name, rps]) => `${(ours / rps).toFixed(2)}× ${name}`);
  console.log(`  ${label}: ${cells.join(" | ")}  → ours = ${ratios.join(", ")}`);
}
