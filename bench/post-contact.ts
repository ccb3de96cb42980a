/**
 * POST /api/contact under load (issue 4), on the embedded PostgreSQL (the default, issue 16), PGlite and PostgreSQL.
 *
 * For each database: a production server (mails written as .eml files by the
 * outbox worker, per-IP limit lifted), 3 s of warm-up, then
 * - an open-loop fixed rate of 200 requests/s for 20 s: one request every
 *   5 ms on keep-alive connections, each latency counted from the moment it
 *   was due (so a stalled server cannot hide its queue): p50/p99 latency in
 *   ms — target p99 < 50 ms — and the memory of the server with its embedded
 *   PostgreSQL (max and end, MB, counted as `contact-load.ts` says;
 *   the server runs with `SERVER_NODE_FLAGS` as `npm start` does). (autocannon's own rate limit sends each second's requests in one
 *   burst, which measures bursts of 200, not a rate.)
 * - as fast as it goes for 10 s (autocannon, 20 connections): requests/s;
 * then checks every accepted request was stored and its mail written.
 *
 * PostgreSQL: `TEST_DATABASE_URL`, or a throwaway cluster when the
 * `postgresql` package is installed; skipped (and said) otherwise.
 *
 *   node bench/post-contact.ts [rate=200] [seconds=20]
 */
import { readdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { SERVER_NODE_FLAGS } from "#server/node-flags.ts";
import { createScratchDatabase, startPostgres } from "#tests/support/postgres.ts";
import { CONTACT_BODY as body, openLoop, treeMemory } from "./contact-load.ts";
import { ensureBuild, freePort, startServer, stop } from "./lib.ts";

const rate = Number(process.argv[2] ?? 200);
const seconds = Number(process.argv[3] ?? 20);

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
  const server = await startServer(port, {
    DATA_DIR: dataDir,
    FORM_RATE_LIMIT: "100000000",
    LOG_LEVEL: "warn",
    // As `npm start` runs it (issue 16 §2).
    NODE_OPTIONS: SERVER_NODE_FLAGS.join(" "),
    ...extraEnv,
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    // Server RSS + the embedded PostgreSQL's processes (bench/contact-load.ts says how shared pages count).
    const residentMb = () => treeMemory(server.pid!, dataDir).total;
    const rssIdle = residentMb();
    const warm = await openLoop(url, rate, 3);
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(residentMb()), 250);
    const fixed = await openLoop(url, rate, seconds);
    clearInterval(sampler);
    const rssEnd = residentMb();
    const max = await load(url, { duration: 10 });
    const accepted = warm.accepted + fixed.accepted + max["2xx"];
    const refused = warm.errors + fixed.errors + max.non2xx + max.errors;
    // The worker catches up after the load: wait until every stored request has its mail.
    const deadline = Date.now() + 120_000;
    let mails = 0;
    while (Date.now() < deadline) {
      mails = (await readdir(path.join(dataDir, "outbox")).catch(() => [])).filter((file) =>
        file.endsWith(".eml"),
      ).length;
      if (mails >= accepted) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return {
      kind,
      fixedRate: fixed.rate,
      p50: fixed.p50,
      p99: fixed.p99,
      maxLatency: fixed.max,
      rssIdle,
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
const results = [
  await measure("PostgreSQL intégré (défaut)", {}),
  await measure("PGlite (EMBEDDED_DATABASE=pglite)", { EMBEDDED_DATABASE: "pglite" }),
];
const postgres = await startPostgres({ durable: true });
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

console.log(
  `\nPOST /api/contact — ${rate} req/s en boucle ouverte pendant ${seconds} s, puis débit maximal 10 s (autocannon, 20 connexions)`,
);
console.table(
  results.map((r) => ({
    base: r.kind,
    [`req/s à ${rate}/s`]: r.fixedRate.toFixed(0),
    "p50 ms": r.p50.toFixed(1),
    "p99 ms (< 50)": r.p99.toFixed(1),
    "max ms": r.maxLatency.toFixed(0),
    "RSS repos Mo": r.rssIdle.toFixed(0),
    "RSS max Mo": r.rssMax.toFixed(0),
    "RSS fin Mo": r.rssEnd.toFixed(0),
    "débit max req/s": r.maxRate.toFixed(0),
    "p99 au max ms": r.maxP99,
    acceptées: r.accepted,
    "refusées/erreurs": r.refused,
    "mails écrits": r.mails,
  })),
);
