/**
 * A signaling flood against a production server process (issue 13 §3
 * benchmark), on PGlite (fresh DATA_DIR), then on PostgreSQL when a cluster
 * can be started (as `bench/remote-support.ts` does).
 *
 * One connected session; the customer's socket floods, the technician's
 * socket only receives:
 * 1. 10 000 ICE candidates (≈ 290 bytes of JSON each), one at a time, each
 *    sent as soon as the previous one was acknowledged;
 * 2. 1 000 offers of 60 KB, the same way;
 * 3. 2 000 candidates sent at once, without waiting for acknowledgements
 *    (the per-connection queue bound).
 * Meanwhile a worker thread (its own event loop, so the flood's client does
 * not delay it) requests `/healthz` every 20 ms, open loop.
 *
 * Printed: accepted / refused per part (and the refusal messages), signals
 * received by the technician, `/healthz` p50 / p99 / max with the server
 * idle (3 s first: this machine's own noise), during parts 1 and 2 (the
 * flood of issue 13 §3, goal p99 < 50 ms), and during part 3 and the second after,
 * the server's RSS before, at its peak and after, and the bytes of signaling
 * stored for the session while it is connected and after it ended. With
 * PGlite the server owns the data folder: it is stopped to read the table,
 * then started again (sessions outlive a restart, issue 13 §4).
 *
 *   node bench/signaling-flood.ts [candidates=10000] [offers=1000] [burst=2000]
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { sql } from "drizzle-orm";
import type { SessionResponse, SignalAck, SignalData } from "#app/remote-support/protocol.ts";
import { openDatabase } from "#database/connection.ts";
import { connectSocket, signIn, type TestSocket } from "#tests/support/remote-support.ts";
import { PASSWORD, SECRET, api, seedAccounts } from "./soft-assist-lib.ts";
import { epochNow, latencies, pollUrl } from "./poll-lib.ts";
import { ensureBuild, onBothDatabases, freePort, startServer, stop } from "./lib.ts";

const candidateCount = Number(process.argv[2] ?? 10_000);
const offerCount = Number(process.argv[3] ?? 1_000);
const burstCount = Number(process.argv[4] ?? 2_000);
const HEALTH_INTERVAL_MS = 20;

async function residentMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024;
}

/** An ICE candidate as Chromium sends it (≈ 290 bytes of JSON). */
function candidate(seq: number): SignalData {
  return {
    type: "candidate",
    peer: "3f1c9a52-5d7e-4b8a-9c61-2e0f4d8b7a10",
    candidate: {
      candidate: `candidate:3549223199 1 udp 2113937151 048785d0-6b93-4262-a306-${String(seq).padStart(12, "0")}.local ${40000 + (seq % 20000)} typ host generation 0 ufrag 60BE network-cost 999`,
      sdpMid: "0",
      sdpMLineIndex: 0,
      usernameFragment: "60BE",
    },
  };
}

/** An offer whose JSON is about 60 KB (the protocol allows 64 KB). */
function offer(seq: number): SignalData {
  return { type: "offer", peer: `offre-${seq}`, sdp: `v=0\r\na=${"x".repeat(60 * 1024)}\r\n` };
}

const send = (socket: TestSocket, code: string, data: SignalData) =>
  new Promise<SignalAck>((resolve) => socket.emit("signal", { code, data }, resolve));

type Tally = { accepted: number; refused: Map<string, number>; seconds: number };

function describeTally(label: string, tally: Tally): string {
  const total = tally.accepted + [...tally.refused.values()].reduce((sum, n) => sum + n, 0);
  const refusals = [...tally.refused].map(([message, n]) => `${n} « ${message} »`).join(", ") || "none";
  return `  ${label}: ${tally.accepted} accepted, ${total - tally.accepted} refused (${refusals}) in ${tally.seconds.toFixed(1)} s (${Math.round(total / tally.seconds)} msg/s)`;
}

async function flood(
  socket: TestSocket,
  code: string,
  count: number,
  make: (seq: number) => SignalData,
  inFlight: "one" | "all",
): Promise<Tally> {
  const tally: Tally = { accepted: 0, refused: new Map(), seconds: 0 };
  const count1 = (ack: SignalAck) => {
    if (ack.ok) tally.accepted += 1;
    else tally.refused.set(ack.message, (tally.refused.get(ack.message) ?? 0) + 1);
  };
  const started = performance.now();
  if (inFlight === "one") {
    for (let seq = 0; seq < count; seq += 1) count1(await send(socket, code, make(seq)));
  } else {
    (await Promise.all(Array.from({ length: count }, (_, seq) => send(socket, code, make(seq))))).forEach(count1);
  }
  tally.seconds = (performance.now() - started) / 1000;
  return tally;
}

/** Polls `/healthz` every `HEALTH_INTERVAL_MS` from a worker thread until told to stop. */
const pollHealth = (url: string) => pollUrl(`${url}/healthz`, HEALTH_INTERVAL_MS);

async function run(label: string, databaseUrl?: string) {
  console.log(`\n${label}`);
  const dataDir = await mkdtemp(path.join(tmpdir(), "atelier-bench-flood-"));
  const customer = { email: "client-flood@banc.fr", name: "Client Flood", technician: false };
  const technician = { email: "tech-flood@banc.fr", name: "Technicien Flood", technician: true };
  await seedAccounts({ dataDir, databaseUrl }, [customer, technician]);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = {
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    BETTER_AUTH_SECRET: SECRET,
    LOG_LEVEL: "warn",
  };
  let server: ChildProcess = await startServer(port, env);

  /** Bytes of JSON stored in `signaling` for `code`: read live on PostgreSQL; on PGlite, with the server stopped. */
  const storedBytes = async (code: string, restart: boolean): Promise<{ rows: number; bytes: number }> => {
    if (!databaseUrl) await stop(server);
    const database = await openDatabase({ databaseUrl, dataDir, lockRetries: 3 });
    try {
      const result = (await database.db.execute(
        sql`select count(*)::integer as rows, coalesce(sum(octet_length(data)), 0)::integer as bytes from signaling where session_code = ${code}`,
      )) as unknown as { rows: { rows: number; bytes: number }[] };
      return result.rows[0]!;
    } finally {
      await database.close();
      if (!databaseUrl && restart) server = await startServer(port, env);
    }
  };

  try {
    const customerCookie = await signIn(url, customer.email, PASSWORD);
    const technicianCookie = await signIn(url, technician.email, PASSWORD);
    const { session } = await api<SessionResponse>(url, customerCookie, "/api/sessions", {});
    await api(url, technicianCookie, "/api/sessions/join", { code: session.code });
    const customerSocket = await connectSocket(url, customerCookie);
    const technicianSocket = await connectSocket(url, technicianCookie);
    let received = 0;
    technicianSocket.on("signal", () => (received += 1));
    // Warm-up: the code paths and the database connection, before the first figure.
    await send(technicianSocket, session.code, { type: "ready" });
    await new Promise((resolve) => setTimeout(resolve, 500));

    // The same polling with the server idle: what this machine gives without any flood, to read the figures against.
    const idleHealth = pollHealth(url);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const idle = (await idleHealth.stop()).map((poll) => poll.ms);

    const rssBefore = await residentMb(server.pid!);
    let rssPeak = rssBefore;
    const sampler = setInterval(
      () => void residentMb(server.pid!).then((mb) => (rssPeak = Math.max(rssPeak, mb))),
      250,
    );
    const health = pollHealth(url);
    const started = epochNow();
    const candidates = await flood(customerSocket, session.code, candidateCount, candidate, "one");
    const offers = await flood(customerSocket, session.code, offerCount, offer, "one");
    const sequentialEnd = epochNow();
    // A quiet second, so that no poll of parts 1 and 2 waits through part 3.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const burstStart = epochNow();
    const burst = await flood(
      customerSocket,
      session.code,
      burstCount,
      (seq) => candidate(candidateCount + seq),
      "all",
    );
    const burstEnd = epochNow();
    // The polls of the second after part 3: what its burst left queued.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const polls = await health.stop();
    const during = (from: number, to: number) =>
      polls.filter((poll) => poll.at >= from && poll.at < to).map((poll) => poll.ms);
    clearInterval(sampler);
    const rssAfter = await residentMb(server.pid!);

    console.log(describeTally(`${candidateCount} ICE candidates, one in flight`, candidates));
    console.log(describeTally(`${offerCount} offers of 60 KB, one in flight`, offers));
    console.log(describeTally(`${burstCount} ICE candidates sent at once`, burst));
    console.log(
      `  signals received by the technician: ${received} (accepted in all: ${candidates.accepted + offers.accepted + burst.accepted})`,
    );
    console.log(`  /healthz every ${HEALTH_INTERVAL_MS} ms, server idle (3 s):  ${latencies(idle)}`);
    console.log(
      `  /healthz every ${HEALTH_INTERVAL_MS} ms during parts 1 and 2: ${latencies(during(started, sequentialEnd))}`,
    );
    console.log(
      `  /healthz every ${HEALTH_INTERVAL_MS} ms during part 3 and after: ${latencies(during(burstStart, burstEnd + 1_000))}`,
    );
    console.log(
      `  server RSS: ${Math.round(rssBefore)} MB before, ${Math.round(rssPeak)} MB at the peak, ${Math.round(rssAfter)} MB after`,
    );

    customerSocket.close();
    technicianSocket.close();
    const connected = await storedBytes(session.code, true);
    console.log(
      `  signaling stored for the session while connected: ${connected.rows} rows, ${(connected.bytes / 1024).toFixed(1)} KB`,
    );
    await api(url, customerCookie, `/api/sessions/${session.code}/disconnect`, {});
    const ended = await storedBytes(session.code, false);
    console.log(`  after the session ended: ${ended.rows} rows, ${ended.bytes} bytes`);
  } finally {
    await stop(server);
    await rm(dataDir, { recursive: true, force: true });
  }
}

ensureBuild();
await onBothDatabases(run);
