/**
 * Closing the Socket.IO PostgreSQL adapter of one process without hanging.
 *
 * @socket.io/postgres-adapter 0.5.0 opens its LISTEN connection in the
 * background after the server starts, and its `close()` releases that
 * connection only once it is open. A server closed before (a short test, a
 * stop right after a start) left it checked out, and `pool.end()` waited
 * forever: 20 closes in 20 right after a start hung, and a unit test's
 * teardown timed out once the waiting queue (issue 27) made a server's first
 * moments busier on the pool. So: wait for the LISTEN connection to be open
 * (at most `waitMs`), close the adapters, then end the pool, never waiting
 * more than `waitMs` for it either.
 */
import type { Adapter } from "socket.io-adapter";
import type pg from "pg";

/** The adapter's shared LISTEN client (the library's `PubSubClient`, not exported): open once `client` is set. */
type PubSub = { client?: unknown };

const POLL_MS = 10;

/** Whether the adapter's LISTEN connection is open (or there is none to wait for). */
function listening(adapter: Adapter): boolean {
  const pubSub = (adapter as unknown as { client?: PubSub }).client;
  return !pubSub || typeof pubSub !== "object" || pubSub.client !== undefined;
}

/**
 * Closes `adapters` (the namespaces of one server sharing `pool`) and ends `pool`. Resolves within about
 * 2 × `waitMs` (ms, default 5 000) even when the database is unreachable. Never rejects.
 */
export async function closePostgresAdapters(adapters: readonly Adapter[], pool: pg.Pool, waitMs = 5_000) {
  const deadline = Date.now() + waitMs;
  while (!adapters.every(listening) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  for (const adapter of adapters) await adapter.close();
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    pool.end().catch(() => {}),
    new Promise((resolve) => {
      timer = setTimeout(resolve, waitMs);
      timer.unref?.();
    }),
  ]);
  clearTimeout(timer);
}
