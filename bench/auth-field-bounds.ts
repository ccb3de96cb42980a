/**
 * Issue 13 §5: the server's memory while four 50 MB update-user attempts
 * arrive at once (they took it to 1.37 GB before the bound; goal: peak under
 * 400 MB, PGlite's own footprint counted: it runs inside the server process).
 *
 *   node bench/auth-field-bounds.ts [attempts] [megabytes]
 *
 * Production build, PGlite in a fresh data folder, one customer account.
 * Prints each attempt's status, the size of `/api/me` afterwards (what a
 * stored name would have inflated), and the server's resident memory before,
 * after, and at its peak during the attempts (`VmHWM`, reset just before them).
 */
import { ensureBuild, freePort, startServer, stop } from "./lib.ts";
import { memoryMb, postLargeName, resetPeak, signUp } from "./hostile-lib.ts";

const attempts = Number(process.argv[2] ?? 4);
const megabytes = Number(process.argv[3] ?? 50);

ensureBuild();
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const server = await startServer(port, { LOG_LEVEL: "warn" });
try {
  const cookie = await signUp(url, "Léa Martin", "lea@exemple.fr", "mot-de-passe-long");
  const before = await memoryMb(server.pid!);
  await resetPeak(server.pid!);
  const started = performance.now();
  const statuses = await Promise.all(
    Array.from({ length: attempts }, () => postLargeName(url, cookie, megabytes * 1024 * 1024)),
  );
  const elapsed = performance.now() - started;
  const me = await fetch(`${url}/api/me`, { headers: { Cookie: cookie } });
  const meBytes = (await me.arrayBuffer()).byteLength;
  const after = await memoryMb(server.pid!);
  console.log(
    `${attempts} × ${megabytes} Mo sur POST /api/auth/update-user en parallèle : statuts ${statuses.join(", ")} (${elapsed.toFixed(0)} ms)`,
  );
  console.log(`GET /api/me ensuite : ${me.status}, ${meBytes} octets`);
  console.log(
    `mémoire résidente du serveur (PGlite compris) : avant ${before.rss.toFixed(0)} Mo, après ${after.rss.toFixed(0)} Mo, ` +
      `pic pendant les envois ${after.peak.toFixed(0)} Mo (+${(after.peak - before.rss).toFixed(0)} Mo ; objectif < 400 Mo)`,
  );
} finally {
  await stop(server);
}
