/**
 * Issue 15 across server processes (PostgreSQL and its Socket.IO adapter):
 * the app on server A, the technician's browser on server B. Input crosses
 * the adapter; a change made on A (toggle off) reaches B's cached control
 * state; the session ended on B ends the app on A.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { InputAck, InputBatch } from "#app/remote-support/device-protocol.ts";
import { DEVICE_MESSAGES } from "#app/remote-support/device-protocol.ts";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  connectSocket,
  createAccounts,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type Role,
  type TestAccount,
  type TestSocket,
} from "#tests/support/remote-support.ts";
import {
  asAccount,
  connectDevice,
  nextDeviceEvent,
  openSession,
  pairDevice,
  type DeviceClient,
} from "./device-testing.ts";

const input = (socket: TestSocket, code: string): Promise<InputAck> =>
  new Promise((resolve) =>
    socket.emit("input", { code, events: [{ t: "move", x: 0.1, y: 0.2 }] } as InputBatch, resolve),
  );

describe.skipIf(!DATABASE_KINDS.includes("postgres"))("desktop app across two server processes", () => {
  let database: TestDatabase;
  let serverA: RemoteSupportServer;
  let serverB: RemoteSupportServer;
  let accounts: Record<Role, TestAccount>;
  const opened: (TestSocket | DeviceClient)[] = [];

  beforeAll(async () => {
    database = await openTestDatabase("postgres");
    serverA = await startRemoteSupportServer(database);
    serverB = await startRemoteSupportServer(database);
    accounts = await createAccounts(serverA, database);
  });
  afterEach(() => {
    for (const socket of opened.splice(0)) socket.close();
  });
  afterAll(async () => {
    await serverA?.close();
    await serverB?.close();
    await database?.dispose();
  });

  it("relays input from B to the app on A, follows A's toggle off, and ends the app when B ends the session", async () => {
    const onA = asAccount(serverA, accounts);
    const onB = asAccount(serverB, accounts);
    const code = await openSession(onA);
    const token = await pairDevice(serverA, onA, code);
    const app = await connectDevice(serverA.url, token);
    opened.push(app);
    await onA("customer", "post", `/api/sessions/${code}/surface`).send({
      displaySurface: "monitor",
      width: 1280,
      height: 720,
    });
    await onA("customer", "post", `/api/sessions/${code}/consent`).send({ allowed: true });
    await onA("technician", "post", `/api/sessions/${code}/events`).send({ kind: "control-on" });
    const technician = await connectSocket(serverB.url, accounts.technician.cookie);
    opened.push(technician);

    // B may have read the state before A's last change reached it: within the adapter's delay it follows.
    await expect.poll(() => input(technician, code)).toEqual({ ok: true });
    const arrived = nextDeviceEvent(app, "device:input");
    expect(await input(technician, code)).toEqual({ ok: true });
    expect((await arrived)[0].screen).toBe("0");
    // Moves keep their order across processes.
    const moves = Array.from({ length: 20 }, (_, i) => i / 20);
    const received: number[] = [];
    const all = new Promise<void>((resolve) =>
      app.on("device:input", (batch) => {
        // y 0.25 tells these moves from the ones sent above, some of which may still be on their way.
        for (const event of batch.events) if (event.t === "move" && event.y === 0.25) received.push(event.x);
        if (received.length === moves.length) resolve();
      }),
    );
    for (const x of moves) technician.emit("input", { code, events: [{ t: "move", x, y: 0.25 }] }, () => undefined);
    await all;
    expect(received).toEqual(moves);

    const release = nextDeviceEvent(app, "device:release");
    await onA("technician", "post", `/api/sessions/${code}/events`).send({ kind: "control-off" });
    await release;
    await expect
      .poll(() => input(technician, code), { timeout: 1_000, interval: 20 })
      .toEqual({ ok: false, message: DEVICE_MESSAGES.controlRefused });

    const ended = nextDeviceEvent(app, "device:ended");
    await onB("customer", "post", `/api/sessions/${code}/disconnect`);
    expect((await ended)[0]).toBe(DEVICE_MESSAGES.sessionEnded);
  });
});
