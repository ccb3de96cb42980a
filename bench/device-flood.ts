/**
 * Issue 28 §1 benchmark: one paired desktop app floods the server with
 * `device:status`, `device:consent` and unknown events, against a production
 * server process, on PGlite (fresh DATA_DIR) then on PostgreSQL when a
 * cluster can be started (`onBothDatabases`).
 *
 * A customer's session joined by a technician; the app pairs as the real one
 * does (`POST /api/device/pair`) and connects to `/device`. It then sends
 * `events` events (default 10 000) in bursts of 500, a status that changes
 * every time, a withdrawal and an unknown event in turn, as fast as the
 * socket takes them. Meanwhile another user (a second customer) requests
 * `/api/me` every 20 ms from a worker thread.
 *
 * Printed: `/api/me` p50 / p99 / max with the server idle (3 s, this
 * machine's own noise), during the flood and the second after (goal p99 <
 * 50 ms), and the `session:device` pushes the technician received.
 *
 *   node bench/device-flood.ts [events=10000]
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import type { SessionResponse } from "#app/remote-support/protocol.ts";
import type { DevicePairResponse, PairingCodeResponse } from "#app/remote-support/device-protocol.ts";
import { connectDevice, PAIR_FIELDS } from "#server/remote-support/device-testing.ts";
import { connectSocket, signIn } from "#tests/support/remote-support.ts";
import { PASSWORD, SECRET, api, seedAccounts } from "./soft-assist-lib.ts";
import { epochNow, latencies, pollUrl } from "./poll-lib.ts";
import { ensureBuild, onBothDatabases, freePort, startServer, stop } from "./lib.ts";

const eventCount = Number(process.argv[2] ?? 10_000);
const POLL_INTERVAL_MS = 20;
const BURST = 500;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function run(label: string, databaseUrl?: string) {
  console.log(`\n${label}`);
  const dataDir = await mkdtemp(path.join(tmpdir(), "atelier-bench-device-flood-"));
  const customer = { email: "client-appli@banc.fr", name: "Client Appli", technician: false };
  const other = { email: "autre-client@banc.fr", name: "Autre Client", technician: false };
  const technician = { email: "tech-appli@banc.fr", name: "Technicien Appli", technician: true };
  await seedAccounts({ dataDir, databaseUrl }, [customer, other, technician]);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = {
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    BETTER_AUTH_SECRET: SECRET,
    LOG_LEVEL: "warn",
  };
  const server: ChildProcess = await startServer(port, env);
  try {
    const customerCookie = await signIn(url, customer.email, PASSWORD);
    const otherCookie = await signIn(url, other.email, PASSWORD);
    const technicianCookie = await signIn(url, technician.email, PASSWORD);
    const { session } = await api<SessionResponse>(url, customerCookie, "/api/sessions", {});
    await api(url, technicianCookie, "/api/sessions/join", { code: session.code });
    const { pairingCode } = await api<PairingCodeResponse>(
      url,
      customerCookie,
      `/api/sessions/${session.code}/pairing`,
      {},
    );
    const paired = await fetch(`${url}/api/device/pair`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...PAIR_FIELDS, pairingCode }),
    });
    const { deviceToken } = (await paired.json()) as DevicePairResponse;
    const app = await connectDevice(url, deviceToken);
    const technicianSocket = await connectSocket(url, technicianCookie);
    let pushes = 0;
    technicianSocket.on("session:device", () => (pushes += 1));
    await pause(1_000);
    pushes = 0;

    const idlePolls = pollUrl(`${url}/api/me`, POLL_INTERVAL_MS, otherCookie);
    await pause(3_000);
    const idle = (await idlePolls.stop()).map((poll) => poll.ms);

    const polls = pollUrl(`${url}/api/me`, POLL_INTERVAL_MS, otherCookie);
    const started = epochNow();
    const unknown = app as unknown as { emit(event: string, ...args: unknown[]): void };
    for (let sent = 0; sent < eventCount;) {
      for (const end = Math.min(eventCount, sent + BURST); sent < end; sent += 1) {
        if (sent % 3 === 0)
          app.emit("device:status", {
            injection: { ok: true },
            screens: [{ id: "0", x: 0, y: 0, width: 1000 + (sent % 600), height: 720, scale: 1, primary: true }],
          });
        else if (sent % 3 === 1) app.emit("device:consent", { allowed: false });
        else unknown.emit("device:inconnu", { n: sent });
      }
      // Let the socket write: a real flood is limited by the link, not by one synchronous loop.
      await pause(1);
    }
    const sentAt = epochNow();
    await pause(1_000);
    const during = (await polls.stop()).filter((poll) => poll.at >= started).map((poll) => poll.ms);

    console.log(
      `  ${eventCount} app events sent in ${((sentAt - started) / 1000).toFixed(1)} s; session:device pushes to the technician: ${pushes}`,
    );
    console.log(`  another user's /api/me every ${POLL_INTERVAL_MS} ms, server idle (3 s): ${latencies(idle)}`);
    console.log(`  another user's /api/me during the flood and the second after: ${latencies(during)}`);
    app.close();
    technicianSocket.close();
  } finally {
    await stop(server);
    await rm(dataDir, { recursive: true, force: true });
  }
}

ensureBuild();
await onBothDatabases(run);
