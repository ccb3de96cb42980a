/**
 * Issue 29: a server process hears that a command beside it (`npm run user -- disable|delete`) ended an
 * account's sign-ins, and ends that account's sockets at once (`onEnded`, which the server wires to the
 * session service's `authSessionEnded`: `auth:ended`, then disconnection).
 *
 * One dedicated PostgreSQL connection LISTENs on `ACCOUNT_ENDED_CHANNEL` (`accounts.ts`'s
 * `notifyAccountEnded`). Each process listens for itself, so every one ends its own sockets. A lost
 * connection is opened again after 5 s; meanwhile, and with PGlite (no second process can write to it),
 * the sockets' 30 s background check is what notices. Payloads are validated (zod): a foreign NOTIFY on
 * the channel is ignored. Logs carry ids only.
 *
 * Issue 37: the command also changes roles (`promote`, `demote`: the account's sign-ins end the same way), and
 * the sessions a disabled, deleted or demoted technician had joined are handed to `onReleased` (the session
 * service's `announceReleased`: the desktop app is released and told).
 */
import pg from "pg";
import type { Logger } from "pino";
import { z } from "zod";
import { ACCOUNT_ENDED_CHANNEL } from "./accounts.ts";

const Id = z.string().min(1).max(200);
const Payload = z.object({
  userId: Id,
  sessionIds: z.array(Id).max(1_000),
  // Issue 37 §4; absent from a notice sent by an older command.
  releasedSessionIds: z.array(Id).max(1_000).default([]),
});
/** Wait before listening again after the connection dropped, ms. */
const RETRY_MS = 5_000;

export type AccountEventsListener = { close(): Promise<void> };

/**
 * LISTENs on `pool`'s database until `close()`; `onEnded` is called once per ended sign-in session, `onReleased`
 * (issue 37 §4) with the remote-support sessions the account's technician let go of.
 */
export function listenAccountEnded(
  pool: pg.Pool,
  onEnded: (ended: { id: string; userId: string }) => void,
  logger: Logger,
  onReleased?: (sessionIds: string[]) => void,
): AccountEventsListener {
  // A connection of its own, not one of the pool's: a pool's client held for LISTEN would keep
  // `pool.end()` (the database's close) waiting forever (a 30 s hang in the logger test on PostgreSQL).
  let client: pg.Client | undefined;
  let closed = false;
  // A broken connection can report twice (its error event, then the failed query): released once.
  const released = new WeakSet<pg.Client>();
  let retry: NodeJS.Timeout | undefined;

  const onNotification = (message: pg.Notification) => {
    if (message.channel !== ACCOUNT_ENDED_CHANNEL) return;
    let parsed: z.infer<typeof Payload>;
    try {
      parsed = Payload.parse(JSON.parse(message.payload ?? ""));
    } catch {
      return logger.warn("avis de fin de compte illisible ignoré");
    }
    logger.info({ userId: parsed.userId }, "connexions d'un compte terminées par une commande : sockets fermés");
    for (const id of parsed.sessionIds) onEnded({ id, userId: parsed.userId });
    if (parsed.releasedSessionIds.length > 0) onReleased?.(parsed.releasedSessionIds);
  };

  async function connect(): Promise<void> {
    try {
      const connected = new pg.Client(pool.options as pg.ClientConfig);
      // Before connect(): a refused connection emits "error" too, and an unhandled one would crash the server.
      connected.on("error", (error) => {
        logger.warn({ err: error }, "écoute des fins de compte interrompue");
        drop(connected, true);
      });
      await connected.connect();
      if (closed) return void connected.end().catch(() => undefined);
      client = connected;
      connected.on("notification", onNotification);
      await connected.query(`listen ${ACCOUNT_ENDED_CHANNEL}`);
    } catch (error) {
      if (closed) return;
      logger.warn({ err: error }, "écoute des fins de compte impossible pour l'instant");
      if (client) drop(client, true);
      else schedule();
    }
  }

  function drop(connected: pg.Client, broken: boolean): void {
    if (released.has(connected)) return;
    released.add(connected);
    connected.off("notification", onNotification);
    if (client === connected) client = undefined;
    void connected.end().catch(() => undefined);
    if (broken && !closed) schedule();
  }

  function schedule(): void {
    clearTimeout(retry);
    retry = setTimeout(() => void connect(), RETRY_MS);
    retry.unref();
  }

  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      if (client) {
        const connected = client;
        await connected.query(`unlisten ${ACCOUNT_ENDED_CHANNEL}`).catch(() => undefined);
        drop(connected, false);
      }
    },
  };
}
