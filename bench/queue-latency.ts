/**
 * Issue 27 benchmark: the waiting queue's update latency to every
 * technician's dashboard, with two production server processes (A and B)
 * sharing a throwaway PostgreSQL (Debian's `postgresql`, or
 * `TEST_DATABASE_URL`) and its Socket.IO adapter. Goal: p95 ≤ 200 ms.
 *
 * `dashboards` technician sockets (default 4), half on A, half on B, listen
 * to `queue:updated`. Then `rounds` times (default 40), one after another:
 * - a customer arrives: either a session the desktop app started through one
 *   process whose app connects to the other, or a signed-in customer's
 *   session whose page's socket connects to the other process; from the
 *   connection's start to each dashboard's first snapshot listing it;
 * - a technician takes it (`POST /api/sessions/:code/claim`, through A or B
 *   in turn): from the request to each dashboard's first snapshot without it.
 *
 * Printed per kind of change: the latency to each dashboard (all
 * dashboards × rounds), and to the last dashboard of each round ("every
 * dashboard"): median, p95, max, in ms.
 *
 *   node bench/queue-latency.ts [rounds=40] [dashboards=4]
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import type { Socket } from "socket.io-client";
import type { DeviceSessionResponse } from "#app/remote-support/device-protocol.ts";
import type { SessionResponse } from "#app/remote-support/protocol.ts";
import type { QueueServerEvents, QueueSnapshot } from "#app/remote-support/queue.ts";
import { connectDevice, PAIR_FIELDS } from "#server/remote-support/device-testing.ts";
import { createScratchDatabase, startPostgres } from "#tests/support/postgres.ts";
import { connectSocket, signIn, type TestSocket } from "#tests/support/remote-support.ts";
import { ensureBuild, freePort, startServer, stop } from "./lib.ts";
import { PASSWORD, SECRET, api, seedAccounts, summary } from "./soft-assist-lib.ts";

const rounds = Number(process.argv[2] ?? 40);
const dashboardCount = Number(process.argv[3] ?? 4);

/** Resolves with the time (performance.now) at which `socket` first gets a snapshot passing `test`. */
function whenQueue(socket: TestSocket, test: (snapshot: QueueSnapshot) => boolean): Promise<number> {
  const events = socket as unknown as Socket<QueueServerEvents>;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("file d'attente non reçue en 10 s")), 10_000);
    const listener = (snapshot: QueueSnapshot) => {
      if (!test(snapshot)) return;
      clearTimeout(timer);
      events.off("queue:updated", listener);
      resolve(performance.now());
    };
    events.on("queue:updated", listener);
  });
}

const listed = (code: string) => (snapshot: QueueSnapshot) => snapshot.entries.some((entry) => entry.code === code);
const unlisted = (code: string) => (snapshot: QueueSnapshot) => !listed(code)(snapshot);

ensureBuild();
const postgres = await startPostgres({ durable: true });
if (!postgres) {
  console.log(
    "PostgreSQL absent (ni TEST_DATABASE_URL ni paquet postgresql) : deux processus ne peuvent pas partager une base.",
  );
  process.exit(1);
}
const scratch = await createScratchDatabase(postgres.url);
const dataDirs = [
  await mkdtemp(path.join(tmpdir(), "atelier-bench-queue-")),
  await mkdtemp(path.join(tmpdir(), "atelier-bench-queue-")),
];
const servers: ChildProcess[] = [];
const sockets: { close(): void }[] = [];
try {
  const technicians = Array.from({ length: dashboardCount }, (_, i) => ({
    email: `tech${i}@banc.fr`,
    name: `Technicien ${i}`,
    technician: true,
  }));
  const customer = { email: "client-file@banc.fr", name: "Client du site", technician: false };
  await seedAccounts({ dataDir: dataDirs[0]!, databaseUrl: scratch.url }, [...technicians, customer]);
  const env = {
    DATABASE_URL: scratch.url,
    BETTER_AUTH_SECRET: SECRET,
    LOG_LEVEL: "warn",
    AUTH_SIGN_IN_LIMIT: "100000",
    SESSION_CREATE_LIMIT: "100000",
    SESSION_JOIN_LIMIT: "100000",
    SESSION_APP_CREATE_LIMIT: "100000",
  };
  const urls: string[] = [];
  for (const dataDir of dataDirs) {
    const port = await freePort();
    servers.push(await startServer(port, { ...env, DATA_DIR: dataDir }));
    urls.push(`http://127.0.0.1:${port}`);
  }
  const cookies = await Promise.all(technicians.map((account, i) => signIn(urls[i % 2]!, account.email, PASSWORD)));
  const dashboards = await Promise.all(cookies.map((cookie, i) => connectSocket(urls[i % 2]!, cookie)));
  sockets.push(...dashboards);
  const customerCookie = await signIn(urls[0]!, customer.email, PASSWORD);
  console.log(`${dashboardCount} tableaux de bord (moitié sur A, moitié sur B), ${rounds} tours`);

  const results = {
    arrival: { each: [] as number[], every: [] as number[] },
    claim: { each: [] as number[], every: [] as number[] },
  };
  const record = (kind: keyof typeof results, started: number, arrivals: number[]) => {
    const latencies = arrivals.map((at) => at - started);
    results[kind].each.push(...latencies);
    results[kind].every.push(Math.max(...latencies));
  };

  for (let round = 0; round < rounds; round++) {
    const [here, there] = round % 2 === 0 ? [urls[0]!, urls[1]!] : [urls[1]!, urls[0]!];
    let code: string;
    let customerSide: { close(): void };
    if (round % 4 < 2) {
      // The desktop app: a session created through one process, its app connected to the other.
      const response = await fetch(`${here}/api/device/sessions`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ ...PAIR_FIELDS, customerName: `Client ${round}` }),
      });
      const created = (await response.json()) as DeviceSessionResponse;
      code = created.sessionCode;
      const seen = Promise.all(dashboards.map((socket) => whenQueue(socket, listed(code))));
      const started = performance.now();
      customerSide = await connectDevice(there, created.deviceToken);
      record("arrival", started, await seen);
    } else {
      // A signed-in customer's session: its page's socket connects to the other process.
      code = (await api<SessionResponse>(here, customerCookie, "/api/sessions", {})).session.code;
      const seen = Promise.all(dashboards.map((socket) => whenQueue(socket, listed(code))));
      const started = performance.now();
      customerSide = await connectSocket(there, customerCookie);
      record("arrival", started, await seen);
    }
    const taker = cookies[round % dashboardCount]!;
    const takerUrl = urls[(round % dashboardCount) % 2]!;
    const gone = Promise.all(dashboards.map((socket) => whenQueue(socket, unlisted(code))));
    const started = performance.now();
    await api(takerUrl, taker, `/api/sessions/${code}/claim`, {});
    record("claim", started, await gone);
    await api(takerUrl, taker, `/api/sessions/${code}/disconnect`, {});
    customerSide.close();
  }

  console.log(` arrivée d'un client → chaque tableau de bord : ${summary(results.arrival.each)}`);
  console.log(` arrivée d'un client → tous les tableaux de bord : ${summary(results.arrival.every)}`);
  console.log(` « Prendre en charge » → chaque tableau de bord : ${summary(results.claim.each)}`);
  console.log(` « Prendre en charge » → tous les tableaux de bord : ${summary(results.claim.every)}`);
} finally {
  for (const socket of sockets) socket.close();
  for (const server of servers) await stop(server);
  await scratch.drop();
  await postgres.stop();
  for (const dataDir of dataDirs) await rm(dataDir, { recursive: true, force: true });
}
