/**
 * Issue 37 §2 on both databases: the app link's budgets per pairing, not per socket. One token opened 11 sockets
 * and relayed 1 073 frames/s; connect, send, close, repeat passed 57.7 MB in 6.3 s; 916 connect/close cycles pushed
 * 1 210 `queue:updated`. Here: one live socket per pairing (the newer replaces the older, the app does not count as
 * gone), frames and bytes within the pairing's budgets across sockets, connections past the rates refused in
 * French, queue pushes coalesced. The unit part (`createDeviceLinks`) runs with a hand-driven clock.
 */
import { describe, expect, it } from "vitest";
import type { Socket } from "socket.io-client";
import { packRects, SCREEN_LIMITS, type ScreenFrame } from "#app/remote-support/screen-protocol.ts";
import type { QueueServerEvents } from "#app/remote-support/queue.ts";
import { fakeJpeg } from "#app/remote-support/jpeg-testing.ts";
import { DATABASE_KINDS } from "#tests/support/databases.ts";
import { connectSocket, pause, record } from "#tests/support/remote-support.ts";
import { deviceSuite } from "./device-suite.ts";
import { DEFAULT_FRAME_BUDGET } from "./limits.ts";
import { QUEUE_PUSH_INTERVAL_MS } from "./queue-realtime.ts";
import { createDeviceLinks, DEFAULT_DEVICE_LINK_LIMITS, DEVICE_LINK_MESSAGES } from "./device-links.ts";
import {
  PAIR_FIELDS,
  connectDevice,
  openSession,
  pair,
  pairingCode,
  recordDevice,
  type DeviceClient,
} from "./device-testing.ts";

const { perToken, perAddress, keepMs } = DEFAULT_DEVICE_LINK_LIMITS;
const frame = (seq: number, bytes = 1_000): ScreenFrame => ({
  screen: "0",
  seq,
  width: 1280,
  height: 720,
  full: false,
  ...packRects([{ x: 0, y: 0, w: 64, h: 64, jpeg: fakeJpeg(64, 64, { bytes }) }]),
});

describe("the link budgets of one process (createDeviceLinks)", () => {
  const budget = { burst: 5, perSecond: 1 };
  const clock = () => {
    let at = 0;
    return { now: () => at, advance: (ms: number) => (at += ms) };
  };

  it("counts handshakes per token and per address, in French past either", () => {
    const time = clock();
    const links = createDeviceLinks({ frameBudget: budget, eventBudget: budget, now: time.now });
    const token = "t".repeat(43);
    for (let i = 0; i < perToken.burst; i += 1) expect(links.admit(token, "203.0.113.7")).toBeNull();
    expect(links.admit(token, "203.0.113.7")).toBe(DEVICE_LINK_MESSAGES.tooManyConnections);
    expect(links.admit(token, "198.51.100.1")).toBe(DEVICE_LINK_MESSAGES.tooManyConnections);
    time.advance(1_000 / perToken.perSecond);
    expect(links.admit(token, "203.0.113.7")).toBeNull();
    // Per address: many tokens (bogus or not) from one address.
    let admitted = 0;
    for (let i = 0; i < perAddress.burst + 20; i += 1)
      if (links.admit(`token-${i}`.padEnd(20, "x"), "192.0.2.9") === null) admitted += 1;
    expect(admitted).toBe(perAddress.burst);
    expect(links.admit("another-token-xxxxxx", "192.0.2.9")).toMatch(/^Trop de connexions/);
  });

  it("keeps a pairing's budgets after its last socket, and forgets them keepMs later", () => {
    const time = clock();
    const links = createDeviceLinks({ frameBudget: budget, eventBudget: budget, now: time.now });
    const first = links.attach("p1", "s1");
    for (let i = 0; i < budget.burst; i += 1) expect(first.pairing.frames.take()).toBe(true);
    expect(first.bytes.take(SCREEN_LIMITS.sessionBurstBytes)).toBe(true);
    links.detach("p1", "s1");
    const again = links.attach("p1", "s1");
    expect(again.pairing).toBe(first.pairing);
    expect(again.pairing.frames.take()).toBe(false);
    expect(again.bytes.take(1_000_000)).toBe(false);
    links.detach("p1", "s1");
    time.advance(keepMs);
    const later = links.attach("p1", "s1");
    expect(later.pairing).not.toBe(first.pairing);
    expect(links.size()).toEqual({ pairings: 1, sessions: 1 });
  });
});

describe.each(DATABASE_KINDS)("the app link per pairing on %s", (kind) => {
  const suite = deviceSuite(kind);
  const deviceView = async (code: string) =>
    (await suite.as("technician", "get", `/api/sessions/${code}/device`)).body.device;
  const browser = async () => {
    const socket = await connectSocket(suite.server.url, suite.accounts.technician.cookie);
    suite.opened.push(socket);
    return socket;
  };
  const app = async (token: string) => {
    const socket = await connectDevice(suite.server.url, token);
    suite.opened.push(socket);
    return socket;
  };

  /** A joined session, its app paired (able to capture) and connected. @returns the token too. */
  async function pairedApp() {
    const code = await openSession(suite.as);
    const paired = await pair(suite.server, await pairingCode(suite.as, code), {
      ...PAIR_FIELDS,
      capture: { ok: true },
    });
    expect(paired.status).toBe(201);
    const token = paired.body.deviceToken as string;
    const first = await app(token);
    await expect.poll(async () => (await deviceView(code)).connected).toBe(true);
    return { code, token, first };
  }

  /** `pairedApp`, the view allowed in the app; the technician's socket acknowledges every frame it draws. */
  async function viewedApp() {
    const paired = await pairedApp();
    const technician = await browser();
    const demands = recordDevice(paired.first, "device:screen");
    paired.first.emit("device:consent", { view: true });
    await expect.poll(() => demands.at(-1)?.[0]).toMatchObject({ active: true, screen: "0" });
    const relayed = record(technician, "screen:frame");
    technician.on("screen:frame", (shown) => technician.emit("screen:ack", { code: paired.code, seq: shown.seq }));
    return { ...paired, technician, relayed };
  }

  /** Streams as the app does (two frames unacknowledged at most), forgiving refused frames every 20 ms. */
  let seq = 0;
  function pump(socket: DeviceClient, bytes: number): () => void {
    let inFlight = 0;
    const send = () => {
      while (inFlight < SCREEN_LIMITS.framesInFlight && socket.connected) {
        inFlight += 1;
        socket.emit("device:frame", frame(++seq, bytes));
      }
    };
    socket.on("device:ack", () => {
      inFlight = Math.max(0, inFlight - 1);
      send();
    });
    const timer = setInterval(() => {
      inFlight = 0;
      send();
    }, 20);
    send();
    return () => clearInterval(timer);
  }

  it("a second socket with the same token replaces the first: the session stays, the app is not gone", async () => {
    const { code, token, first } = await pairedApp();
    const technician = await browser();
    const views = record(technician, "session:device");
    const closed = new Promise<string>((resolve) => first.once("disconnect", resolve));
    const second = await app(token);
    expect(await closed).toBe("io server disconnect");
    await pause(600);
    expect(second.connected).toBe(true);
    expect(await deviceView(code)).toMatchObject({ connected: true });
    expect(views.map(([view]) => view.connected)).not.toContain(false);
    // The live socket is the second: it still hears its session.
    const demands = recordDevice(second, "device:screen");
    second.emit("device:consent", { view: true });
    await expect.poll(() => demands.at(-1)?.[0]).toMatchObject({ active: true });
  });

  it("11 connections with one token: the 11th refused in French, frames relayed within the pairing's budget", async () => {
    const { token, first, relayed } = await viewedApp();
    const started = performance.now();
    const stops = [pump(first, 1_000)];
    for (let i = 1; i < perToken.burst; i += 1) {
      await pause(100);
      const next = await app(token);
      stops.push(pump(next, 1_000));
    }
    await pause(500);
    for (const stop of stops) stop();
    const seconds = (performance.now() - started) / 1000;
    await pause(200);
    expect(relayed.length).toBeGreaterThan(10);
    expect(relayed.length).toBeLessThanOrEqual(
      DEFAULT_FRAME_BUDGET.burst + DEFAULT_FRAME_BUDGET.perSecond * seconds + 5,
    );
    await expect(connectDevice(suite.server.url, token)).rejects.toThrow(DEVICE_LINK_MESSAGES.tooManyConnections);
  });

  it("the session's byte budget holds across connect/close cycles", async () => {
    const { token, first, relayed } = await viewedApp();
    const started = performance.now();
    let current = first;
    for (let cycle = 0; cycle < perToken.burst; cycle += 1) {
      if (cycle > 0) current = await app(token);
      const stop = pump(current, 110_000);
      await pause(300);
      stop();
      current.close();
    }
    const seconds = (performance.now() - started) / 1000;
    await pause(200);
    const bytes = relayed.reduce((sum, [shown]) => sum + shown.data.byteLength, 0);
    expect(bytes).toBeGreaterThan(1_000_000);
    expect(bytes).toBeLessThanOrEqual(SCREEN_LIMITS.sessionBurstBytes + SCREEN_LIMITS.sessionBytesPerSecond * seconds);
  });

  it("many connect/close cycles push few queue:updated (coalesced, the last state winning)", async () => {
    const { token, first } = await pairedApp();
    const technician = (await browser()) as unknown as Socket<QueueServerEvents>;
    await pause(600);
    const pushes: unknown[] = [];
    technician.on("queue:updated", (snapshot) => pushes.push(snapshot));
    const started = performance.now();
    first.close();
    for (let i = 1; i < perToken.burst; i += 1) (await app(token)).close();
    for (let i = 0; i < 30; i += 1) (await connectSocket(suite.server.url, suite.accounts.customer.cookie)).close();
    const elapsed = performance.now() - started;
    await pause(QUEUE_PUSH_INTERVAL_MS * 3);
    expect(pushes.length).toBeGreaterThan(0);
    expect(pushes.length).toBeLessThanOrEqual(Math.ceil(elapsed / QUEUE_PUSH_INTERVAL_MS) + 3);
  });
});
