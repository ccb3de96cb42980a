/**
 * The server listens before it is ready (issue 30 §2, docs/decisions/030). Once the data folder is its
 * own (the database's lock is held), `server/index.ts` opens the port while the rest of the server loads
 * and PostgreSQL starts, about a second:
 * - a public page kept from the last start for this very build and configuration (`page-snapshot.ts`) is
 *   answered at once, as the page cache would (same headers, ETag, encodings);
 * - every other request, and every WebSocket upgrade, is held and handed to the server's own listeners
 *   as soon as they are attached (`handOver`), in arrival order. A visitor waits a moment instead of
 *   getting « connexion refusée »;
 * - beyond `maxHeld` held requests, the next get a French 503 with `Retry-After: 1`.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { Logger } from "pino";
import type { PageSnapshot } from "./page-snapshot.ts";
import { createPrerenderedResponder, pagePathOf } from "./prerendered.ts";

/** Requests (and upgrades) held at most while the server loads; the next get a 503. */
export const MAX_HELD = 2_000;

export const EARLY_MESSAGES = {
  busy: "Le site redémarre et reçoit beaucoup de demandes. Réessayez dans une seconde.",
} as const;

type Held =
  | { kind: "request"; req: IncomingMessage; res: ServerResponse }
  | { kind: "upgrade"; req: IncomingMessage; socket: Duplex; head: Buffer };

export type EarlyListener = {
  /**
   * From now on, requests go to `handler` (the app), upgrades to the server's other `upgrade` listeners
   * (Socket.IO, attached before this call); the held ones are replayed first, in arrival order.
   */
  handOver(handler: (req: IncomingMessage, res: ServerResponse) => void): void;
};

/**
 * Takes `server`'s requests and upgrades until `handOver`; the server is not listening yet (the caller
 * calls `listen`). Register it before any other `request` listener: Socket.IO wraps the ones it finds.
 */
export function listenEarly(
  server: Server,
  options: { snapshot?: PageSnapshot; logger: Logger; maxHeld?: number },
): EarlyListener {
  const maxHeld = options.maxHeld ?? MAX_HELD;
  const logger = options.logger;
  const held: Held[] = [];
  let app: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  let answered = 0;

  const hold = (entry: Held) => {
    if (held.length < maxHeld) {
      held.push(entry);
      return;
    }
    if (entry.kind === "upgrade") {
      entry.socket.destroy();
      return;
    }
    entry.res
      .writeHead(503, { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "1", "Cache-Control": "no-store" })
      .end(EARLY_MESSAGES.busy);
  };

  const early = (req: IncomingMessage, res: ServerResponse) => {
    const pagePath = pagePathOf(req);
    const page = pagePath === undefined ? undefined : options.snapshot?.read(pagePath);
    if (!page) return hold({ kind: "request", req, res });
    createPrerenderedResponder({ get: () => page }, page.headers)(req, res);
    logger.debug({ method: req.method, url: pagePath }, "page from disk");
    answered++;
  };

  // One listener for the server's whole life: Socket.IO wraps the `request` listeners present when it attaches.
  server.on("request", (req, res) => (app ?? early)(req, res));
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node takes its own error listener off an upgraded socket: a client's reset (a tab closed while the
    // server starts) would be an uncaught error ending the server. A socket destroyed here is skipped later.
    socket.on("error", () => socket.destroy());
    hold({ kind: "upgrade", req, socket, head });
  };
  server.on("upgrade", onUpgrade);

  return {
    handOver(handler) {
      app = handler;
      server.off("upgrade", onUpgrade);
      for (const entry of held.splice(0)) {
        if (entry.kind === "request") server.emit("request", entry.req, entry.res);
        else if (entry.socket.destroyed) continue;
        else server.emit("upgrade", entry.req, entry.socket, entry.head);
      }
      if (answered > 0) logger.info({ pages: answered }, "pages servies depuis le disque pendant le démarrage");
    },
  };
}
