/**
 * Issue 38 §2 benchmark: a file from the technician's browser side to the customer's app through a production
 * server process on loopback (PGlite, fresh DATA_DIR), the goals of the issue beside each figure:
 *
 * - throughput of a file of `MB` megabytes (default 200; goal ≥ 30 MB/s): the technician's side is the real
 *   `FileTransfers` (`app/remote-support/client/file-transfers.ts`) in this process, reading a `File` slice by
 *   slice and hashing it; the app is a device socket that writes nothing (counts, hashes, acknowledges each chunk);
 * - the server's memory during it (its RSS every 100 ms from /proc: goal flat), beside its RSS before;
 * - a resume: the same file again, the app's connection killed at 50 %, a new connection answering from the
 *   bytes it has; the time to resume and whether the file arrived whole (hash).
 *
 *   node bench/file-transfer.ts [MB=200]
 */
import { createHash, type Hash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { SessionResponse } from "#app/remote-support/protocol.ts";
import type { DevicePairResponse, PairingCodeResponse } from "#app/remote-support/device-protocol.ts";
import type { FileAck, FileDelivery } from "#app/remote-support/file-protocol.ts";
import { FileTransfers } from "#app/remote-support/client/file-transfers.ts";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";
import { connectDevice, PAIR_FIELDS, type DeviceClient } from "#server/remote-support/device-testing.ts";
import { connectSocket, signIn } from "#tests/support/remote-support.ts";
import { PASSWORD, SECRET, api, seedAccounts } from "./soft-assist-lib.ts";
import { ensureBuild, freePort, startServer, stop } from "./lib.ts";

const megabytes = Number(process.argv[2] ?? 200);
const size = megabytes * 1_000_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The server process's resident memory, MB (Linux). */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
  return line ? Number(line[1]) / 1024 : Number.NaN;
}

/** An app that accepts the offer from `offset`, hashes and acknowledges every chunk, checks the hash at the end. */
function app(device: DeviceClient, state: { received: number; hash: Hash; killAt?: number; onKill?: () => void }) {
  const emit = (message: unknown) =>
    new Promise<FileAck>((resolve) => device.emit("device:file", message as never, resolve));
  (device as unknown as { on(event: string, listener: (delivery: FileDelivery) => void): void }).on(
    "device:file",
    (delivery) => {
      if (delivery.type === "offer")
        void emit({ type: "answer", transferId: delivery.transferId, accept: true, offset: 0 });
      if (delivery.type === "chunk") {
        if (delivery.offset !== state.received) return;
        const data = new Uint8Array(delivery.data as ArrayBuffer);
        state.hash.update(data);
        state.received += data.byteLength;
        if (state.killAt !== undefined && state.received >= state.killAt) {
          state.killAt = undefined;
          device.disconnect();
          return state.onKill?.();
        }
        void emit({ type: "ack", transferId: delivery.transferId, received: state.received });
      }
      if (delivery.type === "end") {
        const ok = state.hash.copy().digest("hex") === delivery.sha256;
        void emit({ type: "done", transferId: delivery.transferId, ok });
      }
    },
  );
  return emit;
}

async function main() {
  ensureBuild();
  const dataDir = await mkdtemp(path.join(tmpdir(), "atelier-bench-fichiers-"));
  const customer = { email: "client-fichiers@banc.fr", name: "Client Fichiers", technician: false };
  const technician = { email: "tech-fichiers@banc.fr", name: "Technicien Fichiers", technician: true };
  await seedAccounts({ dataDir }, [customer, technician]);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startServer(port, { DATA_DIR: dataDir, BETTER_AUTH_SECRET: SECRET, LOG_LEVEL: "warn" });
  try {
    const customerCookie = await signIn(url, customer.email, PASSWORD);
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
    const socket = await connectSocket(url, technicianCookie);
    const bytes = new Uint8Array(size);
    for (let i = 0; i < size; i += 4096) bytes[i] = i % 251;
    const file = new File([bytes], "gros-fichier.bin");
    const pid = server.pid!;
    await pause(500);
    const rssBefore = rssMb(pid);

    // 1. Throughput and the server's memory.
    const device = await connectDevice(url, deviceToken);
    const state = { received: 0, hash: createHash("sha256") };
    app(device, state);
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(rssMb(pid)), 100);
    let transfers: FileTransfers | null = null;
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      transfers = new FileTransfers({
        socket: socket as unknown as RealtimeSocket,
        code: session.code,
        onChange: () => {
          const view = transfers?.views()[0];
          if (view?.state === "done") resolve();
          // A refusal or a failure ends the run with its reason, instead of waiting forever.
          if (view && ["declined", "cancelled", "failed"].includes(view.state))
            reject(new Error(`transfer ${view.state}: ${JSON.stringify(view)}`));
        },
        onReceived: () => undefined,
      });
      void transfers.send(file);
    });
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    (transfers as FileTransfers | null)?.destroy();
    device.close();
    console.log(`file of ${megabytes} MB, technician → app through the server on loopback`);
    console.log(`  ${(size / 1_000_000 / seconds).toFixed(1)} MB/s (${seconds.toFixed(1)} s; goal ≥ 30 MB/s)`);
    console.log(
      `  server RSS: ${rssBefore.toFixed(0)} MB before, during: max ${Math.max(...samples).toFixed(0)} MB, last ${samples.at(-1)?.toFixed(0)} MB (goal flat)`,
    );
    // Flat means the same at a quarter as at the end: what grows with the file would show here.
    const at = (share: number) => samples[Math.min(samples.length - 1, Math.floor(samples.length * share))]?.toFixed(0);
    console.log(
      `  server RSS at 10 / 25 / 50 / 75 / 100 % of the time: ${[0.1, 0.25, 0.5, 0.75, 1].map(at).join(" / ")} MB`,
    );

    // 2. Resume after a kill of the app's connection at 50 %.
    const first = await connectDevice(url, deviceToken);
    const resumed = { received: 0, hash: createHash("sha256"), killAt: size / 2, onKill: () => undefined as void };
    let killedAt = 0;
    let killedBytes = 0;
    resumed.onKill = () => {
      killedAt = performance.now();
      killedBytes = resumed.received;
    };
    app(first, resumed);
    const second = new FileTransfers({
      socket: socket as unknown as RealtimeSocket,
      code: session.code,
      onChange: () => undefined,
      onReceived: () => undefined,
    });
    const resumeStart = performance.now();
    await second.send(file);
    while (!killedAt) await pause(20);
    const back = await connectDevice(url, deviceToken);
    const emit = app(back, resumed);
    const transferId = second.views()[0]!.id;
    await emit({ type: "answer", transferId, accept: true, offset: resumed.received });
    const reconnectMs = performance.now() - killedAt;
    while (!["done", "failed", "cancelled"].includes(second.views()[0]!.state)) await pause(50);
    const outcome = second.views()[0]!;
    console.log(
      `resume: connection killed at ${((killedBytes / size) * 100).toFixed(0)} %, answered again ${reconnectMs.toFixed(0)} ms later; ${outcome.state} in ${((performance.now() - resumeStart) / 1000).toFixed(1)} s in all${outcome.state === "done" ? "" : ` (${JSON.stringify(outcome)})`}`,
    );
    second.destroy();
    back.close();
    socket.close();
  } finally {
    await stop(server);
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
