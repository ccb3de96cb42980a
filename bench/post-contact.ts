/**
 * POST /api/contact under load (issue 4), on PGlite and on PostgreSQL.
 *
 * For each database: a production server (mails written as .eml files by the
 * outbox worker, per-IP limit lifted), 3 s of warm-up, then
 * - a fixed rate of 200 requests/s for 20 s (autocannon, 20 connections,
 *   latencies corrected for coordinated omission): p50/p99 latency in ms —
 *   target p99 < 50 ms — and the server's resident memory (max and end, MB);
 * - as fast as it goes for 10 s: requests/s;
 * then checks every accepted request was stored and its mail written.
 *
 * PostgreSQL: `TEST_DATABASE_URL`, or a throwaway cluster when the
 * `postgresql` package is installed; skipped (and said) otherwise.
 *
 *   node bench/post-contact.ts [rate=200] [seconds=20]
 */
import { readdir, readFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { createScratchDatabase, startPostgres } from "../tests/support/postgres.ts";
import { ensureBuild, freePort, startServer, stop } from "./lib.ts";

const rate = Number(process.argv[2] ?? 200);
const seconds = Number(process.argv[3] ?? 20);
const body = JSON.stringify({
  name: "Léa Martin",
  email: "lea@exemple.fr",
  message: "Bonjour, l'écran de mon ordinateur portable reste noir au démarrage. Pouvez-vous le regarder ?",
});

async function residentMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024;
}

function load(url: string, options: { duration: number; overallRate?: number }) {
  return autocannon({
    url: `${url}/api/contact`,
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
    connections: 20,
    ...options,
  });
}

async function measure(kind: string, extraEnv: Record<string, string>) {
  const dataDir = await mkdtemp(path.join(tmpdir(), "atelier-bench-"));
  const port = await freePort();
  const server = await startServer(port, { DATA_DIR: dataDir, FORM_RATE_LIMIT: "100000000", LOG_LEVEL: "warn", ...extraEnv });
  const url = `http://127.0.0.1:${port}`;
  try {
    const warm = await load(url, { duration: 3, overallRate: rate });
    const samples: number[] = [];
    const sampler = setInterval(async () => samples.push(await residentMb(server.pid!)), 250);
    const fixed = await load(url, { duration: seconds, overallRate: rate });
    clearInterval(sampler);
    const rssEnd = await residentMb(server.pid!);
    const max = await load(url, { duration: 10 });
    const accepted = [warm, fixed, max].reduce((sum, result) => sum + result["2xx"], 0);
    const refused = [warm, fixed, max].reduce((sum, result) => sum + result.non2xx + result.errors, 0);
    // The worker catches up after the load: wait until every stored request has its mail.
    const deadline = Date.now() + 120_000;
    let mails = 0;
    while (Date.now() < deadline) {
      mails = (await readdir(path.join(dataDir, "outbox")).catch(() => [])).filter((file) => file.endsWith(".eml")).length;
      if (mails >= accepted) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return {
      kind,
      fixedRate: fixed.requests.average,
      p50: fixed.latency.p50,
      p99: fixed.latency.p99,
      rssMax: Math.max(...samples, rssEnd),
      rssEnd,
      maxRate: max.requests.average,
      maxP99: max.latency.p99,
      accepted,
      refused,
      mails,
    };
  } finally {
    await stop(server);
    await rm(dataDir, { recursive: true, force: true });
  }
}

ensureBuild();
const results = [await measure("PGlite", {})];
const postgres = await startPostgres();
if (postgres) {
  const scratch = await createScratchDatabase(postgres.url);
  try {
    results.push(await measure("PostgreSQL", { DATABASE_URL: scratch.url }));
  } finally {
    await scratch.drop();
    await postgres.stop();
  }
} else {
  console.log("PostgreSQL absent (ni TEST_DATABASE_URL ni paquet postgresql) : mesure PGlite seulement.");
}

console.log(`\nPOST /api/contact — ${rate} req/s imposées pendant ${seconds} s, puis débit maximal 10 s (20 connexions)`);
console.table(
  results.map((r) => ({
    base: r.kind,
    [`req/s à ${rate}/s`]: r.fixedRate.toFixed(0),
    "p50 ms": r.p50,
    "p99 ms (< 50)": r.p99,
    "RSS max Mo": r.rssMax.toFixed(0),
    "RSS fin Mo": r.rssEnd.toFixed(0),
    "débit max req/s": r.maxRate.toFixed(0),
    "p99 au max ms": r.maxP99,
    "acceptées": r.accepted,
    "refusées/erreurs": r.refused,
    "mails écrits": r.mails,
  })),
);
