/**
 * Issue 28 §1 on both databases: one paired app flooding `device:status`,
 * `device:consent` or events the server does not know. Every such event
 * spends the connection's budget before it costs a query; past it the event
 * is dropped (never queued), and a state equal to the stored one is neither
 * written nor pushed.
 */
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import type { DeviceStatus } from "#app/remote-support/device-protocol.ts";
import { DEFAULT_DEVICE_EVENT_BUDGET } from "./limits.ts";
import { REFUSALS_BEFORE_DISCONNECT } from "./device-socket.ts";
import { DATABASE_KINDS } from "#tests/support/databases.ts";
import { deviceSuite } from "./device-suite.ts";
import { connectSocket, pause, record } from "#tests/support/remote-support.ts";
import { PAIR_FIELDS, connectDevice, openSession, pairDevice } from "./device-testing.ts";

/** Long enough for every write and push an event could cause to land. */
const SETTLE_MS = 600;
const status = (width: number): DeviceStatus => ({
  injection: { ok: true },
  screens: [{ id: "0", x: 0, y: 0, width, height: 720, scale: 1, primary: true }],
});

describe.each(DATABASE_KINDS)("a paired app's flood on %s", (kind) => {
  const suite = deviceSuite(kind);

  /** A session joined by the technician, its app paired and connected; the technician's socket listening. */
  async function pairedApp() {
    const code = await openSession(suite.as);
    const app = await connectDevice(suite.server.url, await pairDevice(suite.server, suite.as, code));
    const technician = await connectSocket(suite.server.url, suite.accounts.technician.cookie);
    suite.opened.push(app, technician);
    // The connection's own push first: the counts below start after it.
    await expect
      .poll(async () => (await suite.as("technician", "get", `/api/sessions/${code}/device`)).body.device.connected)
      .toBe(true);
    await pause(SETTLE_MS);
    return { code, app, pushes: record(technician, "session:device") };
  }

  const eventCount = async (code: string) => {
    const result = (await suite.database.db.execute(
      sql`select count(*)::int as n from session_events e join sessions s on s.id = e.session_id where s.code = ${code}`,
    )) as unknown as { rows: { n: number }[] };
    return Number(result.rows[0]?.n);
  };

  it("1 500 changing statuses: at most the burst is written and pushed, the rest dropped at once", async () => {
    const { code, app, pushes } = await pairedApp();
    for (let i = 0; i < 1_500; i += 1) app.emit("device:status", status(1000 + (i % 2)));
    await pause(SETTLE_MS);
    expect(pushes.length).toBeGreaterThan(0);
    // One more event may have earned its token while the flood was being read.
    expect(pushes.length).toBeLessThanOrEqual(DEFAULT_DEVICE_EVENT_BUDGET.burst + 2);
    // The other participants still get answers at once.
    const started = performance.now();
    expect((await suite.as("customer", "get", `/api/sessions/${code}/device`)).status).toBe(200);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("the same status again is neither written nor pushed", async () => {
    const { app, pushes } = await pairedApp();
    // What pairing stored: repeating it changes nothing.
    for (let i = 0; i < 10; i += 1)
      app.emit("device:status", { injection: PAIR_FIELDS.injection, screens: PAIR_FIELDS.screens });
    await pause(SETTLE_MS);
    expect(pushes).toHaveLength(0);
    app.emit("device:status", status(1920));
    await expect.poll(() => pushes.length).toBe(1);
    app.emit("device:status", status(1920));
    await pause(SETTLE_MS);
    expect(pushes).toHaveLength(1);
  });

  it("a flood of withdrawals records and pushes one change; unknown events spend the budget too", async () => {
    const { code, app, pushes } = await pairedApp();
    await suite.as("customer", "post", `/api/sessions/${code}/consent`).send({ allowed: true });
    await expect.poll(() => pushes.length).toBe(1);
    const before = await eventCount(code);
    // Below the count that closes the connection (tested below): 20 accepted, 130 refused.
    for (let i = 0; i < 150; i += 1) app.emit("device:consent", { allowed: false });
    await expect.poll(() => pushes.length).toBe(2);
    await pause(SETTLE_MS);
    expect(pushes).toHaveLength(2);
    expect((await eventCount(code)) - before).toBe(1);

    // The budget is spent: a real change now waits for tokens, so it is dropped.
    const unknown = app as unknown as { emit(event: string, ...args: unknown[]): void };
    for (let i = 0; i < 40; i += 1) unknown.emit("device:nonsense", { i });
    app.emit("device:status", status(1600));
    await pause(SETTLE_MS);
    expect(pushes).toHaveLength(2);
    expect(app.connected).toBe(true);
  });

  it("far past its budget, the app's connection is closed and the rest of the flood never read", async () => {
    const { code, app, pushes } = await pairedApp();
    const closed = new Promise<string>((resolve) => app.once("disconnect", resolve));
    const unknown = app as unknown as { emit(event: string, ...args: unknown[]): void };
    // Within the budget and a little past it: still connected.
    for (let i = 0; i < DEFAULT_DEVICE_EVENT_BUDGET.burst + REFUSALS_BEFORE_DISCONNECT - 10; i += 1)
      unknown.emit("device:nonsense", { i });
    await pause(SETTLE_MS);
    expect(app.connected).toBe(true);
    for (let i = 0; i < 5_000; i += 1) app.emit("device:status", status(1000 + (i % 2)));
    expect(await closed).toBe("io server disconnect");
    await pause(SETTLE_MS);
    // No status of the flood was written; the one push says the app is gone.
    expect(pushes.map(([view]) => (view as { connected: boolean }).connected)).toEqual([false]);
    expect((await suite.as("customer", "get", `/api/sessions/${code}/device`)).status).toBe(200);
  });
  it("issue 37 §5: a flood that lets an event through now and then is closed all the same", async () => {
    const { app } = await pairedApp();
    const closed = new Promise<string>((resolve) => app.once("disconnect", resolve));
    const unknown = app as unknown as { emit(event: string, ...args: unknown[]): void };
    for (let i = 0; i < DEFAULT_DEVICE_EVENT_BUDGET.burst; i += 1) app.emit("device:consent", { allowed: false });
    // Rounds of refusals below the count that closes at once, each followed by an event the budget accepts.
    for (let round = 0; round < 4; round += 1) {
      for (let i = 0; i < 150; i += 1) unknown.emit(`\u001b[31m<script>${round}-${i}`, { i });
      await pause(1_100);
      app.emit("device:consent", { allowed: false });
    }
    expect(await closed).toBe("io server disconnect");
  });
});
