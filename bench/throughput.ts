/**
 * Requests per second over loopback, our server vs nginx serving the same bytes, in the same run, with the
 * same load tool (wrk). Issue 2: a public page ≥ 0.5× nginx. Issue 39 §1: the site's largest script ≥ 0.5×
 * nginx with `gzip_static` (our `.br`/`.gz` copies from the build, never compressed per request).
 *
 * nginx (1 worker, like our one process) gets a folder with the build's `assets/` (and their `.gz` copies)
 * and the page's HTML as our server answers it, with its own `.gz` copy: `gzip_static on`, no compression
 * at request time. Debian's nginx has no brotli module: `br` is measured for ours only.
 * Needs Debian's `nginx` (or nginx-light) and `wrk`: apt-get install nginx-light wrk.
 * Usage: node bench/throughput.ts [path=/] [seconds=6] [connections=32]
 */
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { ensureBuild, freePort, has, root, startServer, stop, waitFor } from "./lib.ts";

const page = process.argv[2] ?? "/";
const seconds = Number(process.argv[3] ?? 6);
const connections = Number(process.argv[4] ?? 32);
for (const tool of ["nginx", "wrk"]) {
  if (!has(tool)) {
    console.error(`${tool} manque : apt-get install nginx-light wrk`);
    process.exit(1);
  }
}
ensureBuild();

const assetsDir = path.join(root, "build", "client", "assets");
const script = readdirSync(assetsDir)
  .filter((name) => name.endsWith(".js"))
  .map((name) => ({ name, size: statSync(path.join(assetsDir, name)).size }))
  .sort((a, b) => b.size - a.size)[0]!;

/** wrk's requests per second for `url` with `headers`; warns when some answers were not 2xx/3xx. */
function wrk(url: string, headers: string[]): number {
  const args = ["-t1", `-c${connections}`, `-d${seconds}s`, ...headers.flatMap((h) => ["-H", h]), url];
  const out = spawnSync("wrk", args, { encoding: "utf8" }).stdout;
  const rps = Number(out.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? NaN);
  const non2xx = out.match(/Non-2xx or 3xx responses: (\d+)/)?.[1];
  if (non2xx) console.warn(`  ! ${non2xx} réponses non 2xx/3xx de ${url}`);
  return rps;
}

/** The bytes and headers of one answer, to check both servers send what the bench claims. */
function probe(url: string, encoding: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { "Accept-Encoding": encoding } }, (response) => {
      let bytes = 0;
      response.on("data", (chunk: Buffer) => (bytes += chunk.length));
      response.on("end", () =>
        resolve(`${response.statusCode} ${response.headers["content-encoding"] ?? "identity"} ${bytes} o`),
      );
    }).on("error", reject);
  });
}

const cases = [
  { label: "script gzip", url: `/assets/${script.name}`, headers: ["Accept-Encoding: gzip"] },
  { label: "script br", url: `/assets/${script.name}`, headers: ["Accept-Encoding: br"], oursOnly: true },
  { label: "script identity", url: `/assets/${script.name}`, headers: [] as string[] },
  { label: `page ${page} gzip`, url: page, headers: ["Accept-Encoding: gzip"] },
  { label: `page ${page} identity`, url: page, headers: [] as string[] },
];
const ROUNDS = 3;

const ourPort = await freePort();
const ours = await startServer(ourPort, { LOG_LEVEL: process.env.LOG_LEVEL ?? "info" });
const html = Buffer.from(await (await fetch(`http://127.0.0.1:${ourPort}${page}`)).arrayBuffer());

const dir = mkdtempSync(path.join(tmpdir(), "bench-nginx-"));
// nginx's workers run as www-data when it is started as root: they must read the folder.
chmodSync(dir, 0o755);
const site = path.join(dir, "site");
cpSync(assetsDir, path.join(site, "assets"), { recursive: true });
const pageDir = path.join(site, page);
mkdirSync(pageDir, { recursive: true });
writeFileSync(path.join(pageDir, "index.html"), html);
writeFileSync(path.join(pageDir, "index.html.gz"), gzipSync(html, { level: 9 }));
const port = await freePort();
writeFileSync(
  path.join(dir, "nginx.conf"),
  `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
daemon off;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  sendfile on;
  gzip_static on;
  etag on;
  server {
    listen 127.0.0.1:${port};
    root ${site};
    location /assets/ { add_header Cache-Control "public, max-age=31536000, immutable"; }
    location / { try_files $uri $uri/index.html =404; }
  }
}`,
);
const nginx = spawn("nginx", ["-c", path.join(dir, "nginx.conf"), "-p", dir], { stdio: "ignore" });
await waitFor(`http://127.0.0.1:${port}${page}`, 10_000);
console.log(`Ours: script ${await probe(`http://127.0.0.1:${ourPort}/assets/${script.name}`, "gzip")}`);
console.log(`nginx: script ${await probe(`http://127.0.0.1:${port}/assets/${script.name}`, "gzip")}`);

// Both servers run side by side and take turns, so a slower minute of this shared machine weighs on both.
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const results = new Map<string, { ours: number[]; nginx: number[] }>();
for (const { label, url, headers, oursOnly } of cases) {
  const row = { ours: [] as number[], nginx: [] as number[] };
  wrk(`http://127.0.0.1:${ourPort}${url}`, headers); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    row.ours.push(wrk(`http://127.0.0.1:${ourPort}${url}`, headers));
    if (!oursOnly) row.nginx.push(wrk(`http://127.0.0.1:${port}${url}`, headers));
  }
  results.set(label, row);
}
await stop(ours);
await stop(nginx);
rmSync(dir, { recursive: true, force: true });

console.log(
  `wrk -t1 -c${connections} -d${seconds}s over loopback, median of ${ROUNDS} alternated runs (min–max); ` +
    `script /assets/${script.name} (${Math.round(script.size / 1024)} Ko):`,
);
const spread = (values: number[]) =>
  `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`;
for (const [label, row] of results) {
  const versus = row.nginx.length
    ? ` | nginx ${spread(row.nginx)} req/s → ours = ${(median(row.ours) / median(row.nginx)).toFixed(2)}× nginx`
    : "";
  console.log(`  ${label}: ours ${spread(row.ours)} req/s${versus}`);
}
