/**
 * Issue 15, the `/device` namespace and the input relay (`device-realtime.ts`)
 * on both databases: the app's handshake, `session:device` pushes, input
 * reaching the app only from the joined technician while control is active,
 * within the budget; `device:release` whenever control stops; `device:ended`
 * when the session ends. Also prints the relay's latency on loopback.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  DEVICE_MESSAGES,
  INPUT_LIMITS,
  type InputAck,
  type InputBatch,
  type InputEvent,
} from "#app/remote-support/device-protocol.ts";
import { DATABASE_KINDS, emptyTables, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  connectSocket,
  createAccounts,
  nextEvent,
  pause,
  record,
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
  recordDevice,
  type DeviceClient,
} from "./device-testing.ts";

const QUIET_MS = 300;
const MOVE: InputEvent = { t: "move", x: 0.5, y: 0.25 };

function sendInput(socket: TestSocket, code: string, events: unknown[]): Promise<InputAck> {
  return new Promise((resolve) => socket.emit("input", { code, events } as InputBatch, resolve));
}

describe.each(DATABASE_KINDS)("desktop app realtime on %s", (kind) => {
  let database: TestDatabase;
  let server: RemoteSupportServer;
  let accounts: Record<Role, TestAccount>;
  let as: ReturnType<typeof asAccount>;
  const opened: (TestSocket | DeviceClient)[] = [];

  const browser = async (role: Role) => {
    const socket = await connectSocket(server.url, accounts[role].cookie);
    opened.push(socket);
    return socket;
  };
  const device = async (token: string) => {
    const socket = await connectDevice(server.url, token);
    opened.push(socket);
    return socket;
  };

  /** A session with its app paired and connected, a whole screen shared, consent given, the toggle on. */
  async function controlledSession() {
    const code = await openSession(as);
    const token = await pairDevice(server, as, code);
    const app = await device(token);
    await as("customer", "post", `/api/sessions/${code}/surface`).send({
      displaySurface: "monitor",
      width: 1280,
      height: 720,
    });
    await as("customer", "post", `/api/sessions/${code}/consent`).send({ allowed: true });
    await as("technician", "post", `/api/sessions/${code}/events`).send({ kind: "control-on" });
    const technician = await browser("technician");
    await expect
      .poll(async () => (await as("technician", "get", `/api/sessions/${code}/device`)).body.device.controlActive)
      .toBe(true);
    return { code, token, app, technician };
  }

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    server = await startRemoteSupportServer(database);
    accounts = await createAccounts(server, database);
    as = asAccount(server, accounts);
  });
  beforeEach(async () => {
    await emptyTables(database.db);
  });
  afterEach(() => {
    for (const socket of opened.splice(0)) socket.close();
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });

  it("refuses the app's handshake without a valid token, and from another site's origin", async () => {
    await expect(connectDevice(server.url, "")).rejects.toThrow(DEVICE_MESSAGES.tokenInvalid);
    await expect(connectDevice(server.url, "x".repeat(43))).rejects.toThrow(DEVICE_MESSAGES.tokenInvalid);
    const code = await openSession(as);
    const token = await pairDevice(server, as, code);
    const { io } = await import("socket.io-client");
    const foreign = io(`${server.url}/device`, {
      transports: ["websocket"],
      reconnection: false,
      forceNew: true,
      auth: { token },
      extraHeaders: { origin: "https://pirate.example" },
    });
    await expect(
      new Promise((resolve, reject) => {
        foreign.once("connect", () => resolve("connecté"));
        foreign.once("connect_error", reject);
      }),
    ).rejects.toThrow();
    foreign.close();
  });

  it("relays the joined technician's input to the app, with the shown screen; pushes session:device", async () => {
    const customer = await browser("customer");
    const pushed = nextEvent(customer, "session:device");
    const { code, app, technician } = await controlledSession();
    expect((await pushed)[0].code).toBe(code);
    // Consent given again changes nothing and pushes nothing (issue 28 §1): withdraw it, then give it back.
    await as("customer", "post", `/api/sessions/${code}/consent`).send({ allowed: false });
    await expect
      .poll(async () => (await as("technician", "get", `/api/sessions/${code}/device`)).body.device.consent)
      .toBe(false);
    const state = nextDeviceEvent(app, "device:state");
    await as("customer", "post", `/api/sessions/${code}/consent`).send({ allowed: true });
    const input = nextDeviceEvent(app, "device:input");
    expect(await sendInput(technician, code, [MOVE, { t: "button", button: 0, down: true }])).toEqual({ ok: true });
    expect((await input)[0]).toEqual({ events: [MOVE, { t: "button", button: 0, down: true }], screen: "0" });
    expect((await state)[0]).toMatchObject({ customerName: accounts.customer.name, controlActive: true });
  });

  it("a device token of session A never receives session B's input; the other technician and the customer are refused", async () => {
    const a = await controlledSession();
    // Session B: another customer, the same technician, its own app.
    const codeB = await openSession(as, "otherCustomer", null);
    const appB = await device(await pairDevice(server, as, codeB, "otherCustomer"));
    const receivedB = recordDevice(appB, "device:input");
    const receivedA = recordDevice(a.app, "device:input");
    const other = await browser("otherTechnician");
    const customer = await browser("customer");
    expect(await sendInput(other, a.code, [MOVE])).toEqual({ ok: false, message: DEVICE_MESSAGES.controlRefused });
    expect(await sendInput(customer, a.code, [MOVE])).toEqual({ ok: false, message: DEVICE_MESSAGES.controlRefused });
    expect(await sendInput(a.technician, codeB, [MOVE])).toMatchObject({ ok: false });
    expect(await sendInput(a.technician, a.code, [MOVE])).toEqual({ ok: true });
    await pause(QUIET_MS);
    expect(receivedB).toEqual([]);
    expect(receivedA).toHaveLength(1);
  });

  it("toggle off or consent withdrawn (page or app): release, then nothing reaches the app", async () => {
    const { code, app, technician } = await controlledSession();
    const received = recordDevice(app, "device:input");
    let release = nextDeviceEvent(app, "device:release");
    await as("technician", "post", `/api/sessions/${code}/events`).send({ kind: "control-off" });
    await release;
    expect(await sendInput(technician, code, [MOVE])).toEqual({ ok: false, message: DEVICE_MESSAGES.controlRefused });

    await as("technician", "post", `/api/sessions/${code}/events`).send({ kind: "control-on" });
    expect(await sendInput(technician, code, [MOVE])).toEqual({ ok: true });
    release = nextDeviceEvent(app, "device:release");
    await as("customer", "post", `/api/sessions/${code}/consent`).send({ allowed: false });
    await release;
    expect(await sendInput(technician, code, [MOVE])).toMatchObject({ ok: false });

    await as("customer", "post", `/api/sessions/${code}/consent`).send({ allowed: true });
    expect(await sendInput(technician, code, [MOVE])).toEqual({ ok: true });
    release = nextDeviceEvent(app, "device:release");
    const views = record(technician, "session:device");
    app.emit("device:consent", { allowed: false });
    await release;
    await expect.poll(() => views.at(-1)?.[0]).toMatchObject({ consent: false, controlActive: false });
    expect(await sendInput(technician, code, [MOVE])).toMatchObject({ ok: false });
    await pause(QUIET_MS);
    expect(received).toHaveLength(2);
  });

  it("refuses input while a window is shared or injection is impossible, saying why", async () => {
    const { code, app, technician } = await controlledSession();
    await as("customer", "post", `/api/sessions/${code}/surface`).send({
      displaySurface: "window",
      width: 800,
      height: 600,
    });
    expect(await sendInput(technician, code, [MOVE])).toEqual({ ok: false, message: DEVICE_MESSAGES.windowShared });
    await as("customer", "post", `/api/sessions/${code}/surface`).send({
      displaySurface: "monitor",
      width: 1280,
      height: 720,
    });
    const reason = "Wayland : le contrôle n'est pas possible.";
    const views = record(technician, "session:device");
    app.emit("device:status", {
      injection: { ok: false, reason },
      screens: [{ id: "0", x: 0, y: 0, width: 1280, height: 720, scale: 1, primary: true }],
    });
    // Pushes of the earlier changes may still be on their way (through PostgreSQL): the last one counts.
    await expect.poll(() => views.at(-1)?.[0].injection).toEqual({ ok: false, reason });
    expect(await sendInput(technician, code, [MOVE])).toEqual({ ok: false, message: reason });
  });

  it("the technician's socket dropping mid-drag releases the app's buttons", async () => {
    const { code, app, technician } = await controlledSession();
    expect(await sendInput(technician, code, [{ t: "button", button: 0, down: true }])).toEqual({ ok: true });
    const release = nextDeviceEvent(app, "device:release");
    technician.close();
    await release;
  });

  it("session end: release, device:ended, token void", async () => {
    const { code, token, app } = await controlledSession();
    const release = nextDeviceEvent(app, "device:release");
    const ended = nextDeviceEvent(app, "device:ended");
    await as("customer", "post", `/api/sessions/${code}/disconnect`);
    await release;
    expect((await ended)[0]).toBe(DEVICE_MESSAGES.sessionEnded);
    await expect(connectDevice(server.url, token)).rejects.toThrow(DEVICE_MESSAGES.tokenInvalid);
    const kinds = (await as("customer", "get", `/api/sessions/${code}/events`)).body.events.map(
      (event: { kind: string }) => event.kind,
    );
    expect(kinds.slice(-2)).toEqual(["ended", "device-unpaired"]);
  });

  it("keeps each technician socket within its budget: batch size, characters, events per second", async () => {
    const { code, technician } = await controlledSession();
    const tooMany = Array.from({ length: INPUT_LIMITS.batchEvents + 1 }, () => MOVE);
    expect(await sendInput(technician, code, tooMany)).toEqual({ ok: false, message: DEVICE_MESSAGES.tooMuchInput });
    // Unknown fields are dropped by the schema, but they count: the budget is of what was sent.
    const long = [{ ...MOVE, padding: "x".repeat(INPUT_LIMITS.batchChars) }];
    expect(await sendInput(technician, code, long)).toEqual({ ok: false, message: DEVICE_MESSAGES.tooMuchInput });
    expect(await sendInput(technician, code, [{ t: "move", x: 2, y: 0 }])).toMatchObject({ ok: false });
    // A 2 s burst at most: 500 events pass, the next batch does not.
    const batch = Array.from({ length: 25 }, () => MOVE);
    const acks = await Promise.all(Array.from({ length: 21 }, () => sendInput(technician, code, batch)));
    expect(acks.filter((ack) => ack.ok)).toHaveLength(20);
    expect(acks.at(-1)).toEqual({ ok: false, message: DEVICE_MESSAGES.tooMuchInput });
  });
});
