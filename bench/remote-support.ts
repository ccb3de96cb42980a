/**
 * Remote-support sessions under load (issue 5 benchmarks), on a production
 * server process (`server/index.ts`, PGlite in a fresh DATA_DIR; then on
 * PostgreSQL when a cluster can be started, as `bench/post-contact.ts` does).
 *
 * 1. Push latency, 50 joins through the API: a customer's socket and two
 *    technicians' dashboards are connected; a technician POSTs
 *    /api/sessions/join. Figures (ms, median and p95): the join's HTTP
 *    answer, the customer's `session:updated` (connected) and the other
 *    dashboard's `sessions:changed`, each from the moment the join was sent.
 * 2. Join round trip in Chromium, 50 joins: the customer's page shows its
 *    code; the technician types it and clicks "Se connecter". Measured in the
 *    pages themselves (click listener, MutationObserver, one clock): click →
 *    technician shows "Connecté à la session", click → customer shows "Un
 *    technicien est connecté", and click → both (the larger), ms.
 * 3. 100 concurrent connected sessions (100 customers, 100 technicians, 200
 *    sockets in this process) relay ICE-candidate-sized `signal` messages
 *    through the server, which stores each in `signaling`:
 *    - open loop, 1 000 messages/s in all for 10 s: delivery time p50/p95/max;
 *    - flat out, each socket waiting for its acknowledgement before its next
 *      message, 10 s: messages/s delivered, delivery p50/p95.
 *    Delivery time = receipt at the other participant − send, same clock.
 *
 * Accounts are written into the database before the server starts (the
 * embedded database has one process at a time), with better-auth's own
 * sign-up, as `npm run user` does.
 *
 *   node bench/remote-support.ts [joins=50] [sessions=100] [seconds=10]
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import type { SessionResponse, SignalData } from "#app/remote-support/protocol.ts";
import { connectSocket, nextEvent, signIn, type TestSocket } from "#tests/support/remote-support.ts";
import {
  CHROMIUM_ARGS,
  PASSWORD,
  SECRET,
  api,
  nextClick,
  seedAccounts,
  signedInPage,
  summary,
  whenText,
  type Account,
} from "./soft-assist-lib.ts";
import { ensureBuild, onBothDatabases, freePort, startServer, stop } from "./lib.ts";

const joins = Number(process.argv[2] ?? 50);
const sessionCount = Number(process.argv[3] ?? 100);
const seconds = Number(process.argv[4] ?? 10);
async function residentMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024;
}

/** Part 1: push latency of a join, through the API and Socket.IO. */
async function pushLatency(url: string, customer: Account, technician: Account, watcher: Account) {
  const customerSocket = await connectSocket(url, customer.cookie);
  const watcherSocket = await connectSocket(url, watcher.cookie);
  const http: number[] = [];
  const toCustomer: number[] = [];
  const toDashboard: number[] = [];
  try {
    for (let i = 0; i < joins + 3; i += 1) {
      // Listening before asking: the push can arrive before the HTTP answer.
      const created = nextEvent(watcherSocket, "sessions:changed");
      const { session } = await api<SessionResponse>(url, customer.cookie, "/api/sessions", {});
      await created;
      const connected = new Promise<number>((resolve) => {
        const listener = (view: { code: string; status: string }) => {
          if (view.code !== session.code || view.status !== "connected") return;
          customerSocket.off("session:updated", listener);
          resolve(performance.now());
        };
        customerSocket.on("session:updated", listener);
      });
      const changed = nextEvent(watcherSocket, "sessions:changed").then(() => performance.now());
      const sent = performance.now();
      await api(url, technician.cookie, "/api/sessions/join", { code: session.code.toLowerCase() });
      const answered = performance.now();
      const [customerAt, dashboardAt] = await Promise.all([connected, changed]);
      // The first joins warm the server's code paths and connection pools.
      if (i >= 3) {
        http.push(answered - sent);
        toCustomer.push(customerAt - sent);
        toDashboard.push(dashboardAt - sent);
      }
      const ended = nextEvent(watcherSocket, "sessions:changed");
      await api(url, technician.cookie, `/api/sessions/${session.code}/disconnect`, {});
      await ended;
    }
  } finally {
    customerSocket.close();
    watcherSocket.close();
  }
  console.log(`  join answered (HTTP)            ${summary(http)}`);
  console.log(`  customer's session:updated      ${summary(toCustomer)}`);
  console.log(`  other dashboard's sessions:changed ${summary(toDashboard)}`);
}

/** Part 2: click → both sides connected, in Chromium. */
async function browserJoins(url: string, customer: Account, technician: Account) {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  const customerPage = await signedInPage(browser, url, customer);
  const techPage = await signedInPage(browser, url, technician);
  const toTech: number[] = [];
  const toCustomer: number[] = [];
  const both: number[] = [];
  try {
    await techPage.getByText("Aucune session active.").waitFor();
    for (let i = 0; i < joins + 3; i += 1) {
      await customerPage.getByRole("button", { name: "Démarrer une session d'assistance" }).click();
      const codeGroup = customerPage.getByRole("group", { name: /^Code de session/ });
      await customerPage.getByText("En attente d'un technicien…").waitFor();
      const code = (await codeGroup.textContent())!.trim();
      const input = techPage.getByLabel("Code de session");
      await input.fill(code);
      const button = techPage.getByRole("button", { name: "Se connecter", exact: true });
      const clicked = nextClick(techPage);
      const techShown = whenText(techPage, `Connecté à la session ${code}`);
      const customerShown = whenText(customerPage, "Un technicien est connecté");
      await button.click();
      const [clickAt, techAt, customerAt] = await Promise.all([clicked, techShown, customerShown]);
      if (i >= 3) {
        toTech.push(techAt - clickAt);
        toCustomer.push(customerAt - clickAt);
        both.push(Math.max(techAt, customerAt) - clickAt);
      }
      await techPage.getByRole("button", { name: "Fermer et terminer la session" }).click();
      await techPage.getByText("Aucune session active.").waitFor();
      await customerPage.getByRole("button", { name: "Démarrer une session d'assistance" }).waitFor();
    }
  } finally {
    await browser.close();
  }
  console.log(`  click → technician connected    ${summary(toTech)}`);
  console.log(`  click → customer sees it        ${summary(toCustomer)}`);
  console.log(`  click → both sides connected    ${summary(both)}`);
}

/** An ICE candidate as a browser sends it (~300 bytes of JSON); `usernameFragment` carries the bench's sequence number. */
function candidate(seq: number): SignalData {
  return {
    type: "candidate",
    peer: "banc-essai",
    candidate: {
      candidate: `candidate:842163049 1 udp 1677729535 192.0.2.${seq % 250} 5${String(seq % 10000).padStart(4, "0")} typ srflx raddr 10.0.0.2 rport 54321 generation 0 ufrag EsAw network-cost 999`,
      sdpMid: "0",
      sdpMLineIndex: 0,
      usernameFragment: String(seq),
    },
  };
}

/** Part 3: `sessionCount` connected sessions relaying signals. */
async function signaling(url: string, customers: Account[], technicians: Account[], serverPid: number) {
  const pairs: { code: string; sockets: [TestSocket, TestSocket] }[] = [];
  for (let i = 0; i < customers.length; i += 1) {
    const { session } = await api<SessionResponse>(url, customers[i]!.cookie, "/api/sessions", {});
    await api(url, technicians[i]!.cookie, "/api/sessions/join", { code: session.code });
    const sockets = await Promise.all([
      connectSocket(url, customers[i]!.cookie),
      connectSocket(url, technicians[i]!.cookie),
    ]);
    pairs.push({ code: session.code, sockets: sockets as [TestSocket, TestSocket] });
  }
  const delivery: number[] = [];
  const sentAt = new Map<number, number>();
  let refused = 0;
  for (const { sockets } of pairs) {
    for (const socket of sockets) {
      socket.on("signal", ({ data }) => {
        const seq = data.type === "candidate" ? Number(data.candidate.usernameFragment) : Number.NaN;
        const sent = sentAt.get(seq);
        if (sent === undefined) return;
        delivery.push(performance.now() - sent);
        sentAt.delete(seq);
      });
    }
  }
  const senders = pairs.flatMap(({ code, sockets }) => sockets.map((socket) => ({ code, socket })));
  let seq = 0;
  const send = (sender: (typeof senders)[number]) =>
    new Promise<void>((resolve) => {
      const data = candidate(seq);
      sentAt.set(seq++, performance.now());
      sender.socket.emit("signal", { code: sender.code, data }, (ack) => {
        if (!ack.ok) refused += 1;
        resolve();
      });
    });
  const settle = async () => {
    for (let waited = 0; waited < 5_000 && delivery.length < seq - refused; waited += 20)
      await new Promise((r) => setTimeout(r, 20));
  };

  // Open loop: messages spread evenly over time, round-robin over the 200 senders.
  const rate = 1000;
  let peakRss = 0;
  const started = performance.now();
  const acks: Promise<void>[] = [];
  for (let i = 0; i < rate * seconds; i += 1) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    acks.push(send(senders[i % senders.length]!));
    if (i % rate === 0) peakRss = Math.max(peakRss, await residentMb(serverPid));
  }
  await Promise.all(acks);
  await settle();
  console.log(
    `  open loop ${rate} msg/s for ${seconds} s: delivered ${delivery.length}/${seq}, refused ${refused}; delivery ${summary(delivery)}`,
  );

  // Flat out: every sender keeps one message in flight.
  delivery.length = 0;
  sentAt.clear();
  seq = 0;
  refused = 0;
  let running = true;
  const flatStart = performance.now();
  const loops = senders.map(async (sender) => {
    while (running) await send(sender);
  });
  const sampler = setInterval(() => void residentMb(serverPid).then((mb) => (peakRss = Math.max(peakRss, mb))), 1000);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  running = false;
  await Promise.all(loops);
  const elapsed = (performance.now() - flatStart) / 1000;
  clearInterval(sampler);
  await settle();
  console.log(
    `  flat out (${senders.length} senders, 1 in flight each): ${Math.round(delivery.length / elapsed)} msg/s delivered` +
      ` (${delivery.length} in ${elapsed.toFixed(1)} s, refused ${refused}); delivery ${summary(delivery)}`,
  );
  console.log(`  server RSS peak ${Math.round(peakRss)} MB`);
  for (const { sockets } of pairs) for (const socket of sockets) socket.close();
}

async function run(label: string, databaseUrl?: string) {
  console.log(`\n${label}`);
  const dataDir = await mkdtemp(path.join(tmpdir(), "atelier-bench-rs-"));
  const customers = Array.from({ length: sessionCount }, (_, i) => ({
    email: `client${i}@banc.fr`,
    name: `Client ${i}`,
    technician: false,
  }));
  const technicians = Array.from({ length: sessionCount }, (_, i) => ({
    email: `tech${i}@banc.fr`,
    name: `Technicien ${i}`,
    technician: true,
  }));
  // Parts 1 and 2 have their own accounts, so part 3's sessions start from scratch.
  const joinAccounts = ["client-a", "client-b", "tech-a", "tech-b", "tech-c"].map((name) => ({
    email: `${name}@banc.fr`,
    name,
    technician: name.startsWith("tech"),
  }));
  const seeded = performance.now();
  const all = [...customers, ...technicians, ...joinAccounts];
  await seedAccounts({ dataDir, databaseUrl }, all);
  console.log(`  ${all.length} accounts created in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
  const port = await freePort();
  const server = await startServer(port, {
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    BETTER_AUTH_SECRET: SECRET,
    AUTH_SIGN_IN_LIMIT: "100000",
    // Parts 1 and 2 start 53 sessions per customer and join as many per technician: past the per-account limits.
    SESSION_CREATE_LIMIT: "100000",
    SESSION_JOIN_LIMIT: "100000",
    LOG_LEVEL: "warn",
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    const signedIn = async (account: Omit<Account, "cookie">): Promise<Account> => ({
      ...account,
      cookie: await signIn(url, account.email, PASSWORD),
    });
    const customerAccounts: Account[] = [];
    const technicianAccounts: Account[] = [];
    for (const account of customers) customerAccounts.push(await signedIn(account));
    for (const account of technicians) technicianAccounts.push(await signedIn(account));
    const [clientA, clientB, techA, techB, techC] = await Promise.all(joinAccounts.map(signedIn));

    console.log(` 1. push latency over ${joins} joins (from the join request)`);
    await pushLatency(url, clientA!, techA!, techB!);
    console.log(` 2. join round trip in Chromium over ${joins} joins`);
    await browserJoins(url, clientB!, techC!);
    console.log(` 3. ${sessionCount} concurrent sessions signaling`);
    await signaling(url, customerAccounts, technicianAccounts, server.pid!);
  } finally {
    await stop(server);
    await rm(dataDir, { recursive: true, force: true });
  }
}

ensureBuild();
await onBothDatabases(run);
