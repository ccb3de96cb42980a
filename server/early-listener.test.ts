/** Issue 30 §2: the port open while the server loads (`early-listener.ts`). */
import { once } from "node:events";
import { createServer, request, type Server } from "node:http";
import { connect } from "node:net";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { EARLY_MESSAGES, listenEarly } from "./early-listener.ts";
import { cachedPage } from "./page-cache.ts";
import type { PageSnapshot, SnapshotPage } from "./page-snapshot.ts";

const logger = pino({ level: "silent" });

/** A snapshot holding `pages` (path → HTML), with one shared header. */
async function snapshotOf(pages: Record<string, string>): Promise<PageSnapshot> {
  const kept = new Map<string, SnapshotPage>();
  for (const [pagePath, html] of Object.entries(pages)) {
    kept.set(pagePath, {
      ...(await cachedPage(html, { https: false })),
      headers: { "X-Content-Type-Options": "nosniff" },
    });
  }
  return { save: () => undefined, read: (pagePath) => kept.get(pagePath), flush: async () => undefined };
}

/** GET `path` with `headers`: status, headers and body as text. */
function get(port: number, urlPath: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: urlPath, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the early listener", () => {
  let server: Server;
  let arrived: string[] = [];
  afterEach(() => new Promise((resolve) => server.close(resolve)));

  const start = async (snapshot?: PageSnapshot, maxHeld?: number) => {
    server = createServer();
    arrived = [];
    const early = listenEarly(server, { snapshot, logger, maxHeld });
    // Told after the early listener: the request is held (or answered) by the time it is listed here.
    server.on("request", (req) => arrived.push(req.url!));
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const address = server.address();
    return { early, port: typeof address === "object" && address ? address.port : 0 };
  };

  it("answers a kept page at once, with its headers and ETag, before the app is there", async () => {
    const { port } = await start(await snapshotOf({ "/": "<!doctype html><title>Accueil</title>" }));
    const page = await get(port, "/");
    expect(page.status).toBe(200);
    expect(page.body).toBe("<!doctype html><title>Accueil</title>");
    expect(page.headers["x-content-type-options"]).toBe("nosniff");
    expect(page.headers["content-security-policy"]).toContain("default-src");
    const again = await get(port, "/", { "If-None-Match": String(page.headers.etag) });
    expect(again.status).toBe(304);
  });

  it("holds every other request, then hands them to the app in arrival order", async () => {
    const { early, port } = await start(await snapshotOf({ "/": "<p>accueil</p>" }));
    const seen: string[] = [];
    const contact = get(port, "/contact");
    await expect.poll(() => arrived).toEqual(["/contact"]);
    const me = get(port, "/api/me");
    await expect.poll(() => arrived).toEqual(["/contact", "/api/me"]);
    // The home page, asked after them, is answered while they wait.
    expect((await get(port, "/")).body).toBe("<p>accueil</p>");
    const answers = Promise.all([contact, me]);
    early.handOver((req, res) => {
      seen.push(req.url!);
      res.end(`app ${req.url}`);
    });
    expect((await answers).map((answer) => answer.body)).toEqual(["app /contact", "app /api/me"]);
    expect(seen).toEqual(["/contact", "/api/me"]);
    // From now on, the app answers everything, the kept pages too.
    expect((await get(port, "/")).body).toBe("app /");
  });

  it("answers a French 503 beyond the requests it may hold", async () => {
    const { early, port } = await start(undefined, 1);
    const first = get(port, "/contact");
    await expect.poll(() => arrived).toEqual(["/contact"]);
    const refused = await get(port, "/suivi");
    expect(refused.status).toBe(503);
    expect(refused.body).toBe(EARLY_MESSAGES.busy);
    expect(refused.headers["retry-after"]).toBe("1");
    early.handOver((req, res) => res.end("app"));
    expect((await first).body).toBe("app");
  });

  it("holds a WebSocket upgrade for the listener attached before the hand-over", async () => {
    const { early, port } = await start();
    const socket = connect(port, "127.0.0.1");
    await once(socket, "connect");
    socket.write("GET /socket.io/ HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n");
    const upgraded = new Promise<string>((resolve) =>
      server.on("upgrade", (req, raw) => {
        raw.end("HTTP/1.1 101 Switching Protocols\r\n\r\n");
        resolve(req.url!);
      }),
    );
    const reply = once(socket, "data");
    early.handOver((req, res) => res.end());
    expect(await upgraded).toBe("/socket.io/");
    expect(String((await reply)[0])).toContain("101 Switching Protocols");
    socket.destroy();
  });

  it("survives a held WebSocket upgrade reset by its client (ECONNRESET), and skips it at the hand-over", async () => {
    const { early, port } = await start();
    const socket = connect(port, "127.0.0.1");
    await once(socket, "connect");
    socket.write("GET /socket.io/ HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n");
    const connections = () =>
      new Promise<number>((resolve) => server.getConnections((_error, count) => resolve(count)));
    await expect.poll(connections).toBe(1);
    // A tab closed while the server starts: the connection ends with a reset, not a goodbye.
    socket.resetAndDestroy();
    await expect.poll(connections).toBe(0);
    let upgrades = 0;
    server.on("upgrade", () => upgrades++);
    early.handOver((_req, res) => res.end());
    expect(upgrades).toBe(0);
    // Still serving.
    expect((await get(port, "/")).status).toBe(200);
  });
});
