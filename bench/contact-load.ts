/**
 * What `bench/post-contact.ts` and `bench/memory.ts` share (issue 16 §2): the
 * `POST /api/contact` open-loop load, and the memory of a server with the
 * PostgreSQL it started.
 *
 * Memory, in MB (1 MB = 1 048 576 bytes), read from `/proc` (Linux):
 * - `server`: the Node process's VmRSS (its shared pages, Node's own binary
 *   included, counted in full: on a shop's machine nothing shares them).
 * - `postgres`: the embedded postmaster (pid in `DATA_DIR/postgres/postmaster.pid`,
 *   not a child of Node: `pg_ctl` detaches it) and its children, as the sum
 *   of their private pages plus the largest shared set among them counted
 *   once (`Private_*` and `Shared_*` of `/proc/<pid>/smaps_rollup`): the
 *   binary and the shared buffers they all map are counted one time, not
 *   once per process as a sum of RSS would. `postgresRssSum` (that naive
 *   sum) and `postgresPss` (PSS, which also divides pages shared with other
 *   clusters on the machine, so reads low) are printed beside it.
 * - `total`: server + postgres.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import http from "node:http";
import path from "node:path";

export const CONTACT_BODY = JSON.stringify({
  name: "Léa Martin",
  email: "lea@exemple.fr",
  message: "Bonjour, l'écran de mon ordinateur portable reste noir au démarrage. Pouvez-vous le regarder ?",
});

/** Percentile `p` (0–100) of sorted `values`. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** What each request of an open-loop load sends, and the status that counts it as served. */
export type LoadRequest = {
  path: string;
  contentType: string;
  /** The body of request number `index` (from 0). */
  body(index: number): string;
  okStatus: number;
  /** At most this many requests (default rate × seconds). */
  limit?: number;
};

/** `POST /api/contact` with `CONTACT_BODY`, answered 201. */
export const CONTACT_REQUEST: LoadRequest = {
  path: "/api/contact",
  contentType: "application/json",
  body: () => CONTACT_BODY,
  okStatus: 201,
};

/**
 * Open-loop load: `rate` POSTs per second for `seconds` (default: the contact form's); latency from each
 * request's due time, ms. `statuses` counts every answer by HTTP status.
 */
export async function openLoop(url: string, rate: number, seconds: number, load: LoadRequest = CONTACT_REQUEST) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const target = new URL(`${url}${load.path}`);
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let errors = 0;
  const pending: Promise<void>[] = [];
  const started = performance.now();
  const total = Math.min(rate * seconds, load.limit ?? Infinity);
  for (let i = 0; i < total; i += 1) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const body = load.body(i);
    pending.push(
      new Promise<void>((resolve) => {
        const request = http.request(
          target,
          {
            method: "POST",
            agent,
            headers: { "content-type": load.contentType, "content-length": Buffer.byteLength(body), origin: url },
          },
          (response) => {
            response.resume();
            response.on("end", () => {
              const status = response.statusCode ?? 0;
              statuses.set(status, (statuses.get(status) ?? 0) + 1);
              if (status === load.okStatus) latencies.push(performance.now() - due);
              else errors += 1;
              resolve();
            });
          },
        );
        request.on("error", () => {
          errors += 1;
          resolve();
        });
        request.end(body);
      }),
    );
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    rate: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? 0,
    accepted: latencies.length,
    errors,
    statuses,
  };
}

export type TreeMemory = {
  server: number;
  postgres: number;
  postgresRssSum: number;
  postgresPss: number;
  postgresProcesses: number;
  total: number;
};

const MB = 1024;

function rollup(pid: number): Record<string, number> {
  const fields: Record<string, number> = {};
  for (const line of readFileSync(`/proc/${pid}/smaps_rollup`, "utf8").split("\n")) {
    const match = line.match(/^(\w+):\s+(\d+) kB/);
    if (match) fields[match[1]!] = Number(match[2]);
  }
  return fields;
}

function rssKb(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)?.[1] ?? 0);
}

/** `pid` and every process below it. */
function withDescendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...(parents.get(all[i]!) ?? []));
  return all;
}

/** Memory of the server `serverPid` and of the PostgreSQL it runs in `dataDir` (none with PGlite or DATABASE_URL), MB. */
export function treeMemory(serverPid: number, dataDir: string): TreeMemory {
  const server = rssKb(serverPid) / MB;
  const pidFile = path.join(dataDir, "postgres", "postmaster.pid");
  let privateKb = 0;
  let sharedKb = 0;
  let rssSum = 0;
  let pss = 0;
  let count = 0;
  if (existsSync(pidFile)) {
    const postmaster = Number(readFileSync(pidFile, "utf8").split("\n", 1)[0]);
    for (const pid of withDescendants(postmaster)) {
      try {
        const fields = rollup(pid);
        privateKb += (fields.Private_Clean ?? 0) + (fields.Private_Dirty ?? 0);
        sharedKb = Math.max(sharedKb, (fields.Shared_Clean ?? 0) + (fields.Shared_Dirty ?? 0));
        rssSum += fields.Rss ?? 0;
        pss += fields.Pss ?? 0;
        count += 1;
      } catch {
        // a backend that just ended
      }
    }
  }
  const postgres = (privateKb + sharedKb) / MB;
  return {
    server,
    postgres,
    postgresRssSum: rssSum / MB,
    postgresPss: pss / MB,
    postgresProcesses: count,
    total: server + postgres,
  };
}

/** The pid of the Node server `npm start` (pid `npmPid`) runs: `scripts/start.mjs` since issue 16, `server/index.ts` before. */
export async function serverUnderNpm(npmPid: number): Promise<number> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const children = readFileSync(`/proc/${npmPid}/task/${npmPid}/children`, "utf8").trim().split(/\s+/);
    for (const pid of children.filter(Boolean).map(Number)) {
      if (/scripts\/start\.(?:ts|mjs)|server\/index\.ts/.test(readFileSync(`/proc/${pid}/cmdline`, "utf8"))) return pid;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("serveur introuvable sous npm");
}

/**
 * Waits until `pid` has exited and no postgres runs in `dataDir` any more: npm may exit before the
 * server it started has stopped its database and released the data-folder lock.
 */
export async function serverGone(pid: number, dataDir: string): Promise<void> {
  const gone = () => !existsSync(`/proc/${pid}`) && !existsSync(path.join(dataDir, "postgres", "postmaster.pid"));
  for (let attempt = 0; attempt < 600 && !gone(); attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** `serverGone`, then removes `dataDir`. */
export async function afterServer(pid: number, dataDir: string): Promise<void> {
  await serverGone(pid, dataDir);
  await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
}
