/**
 * Issue 36 §4, « Past UAC », on both databases: the technician asks « Relancer en administrateur » (a Windows
 * app not elevated, the joined technician only); the app gets a single-use resume ticket on its socket; the
 * relaunched process redeems it at `POST /api/device/resume` and rejoins the same session with consent and view
 * asked again, while the old process is told `device:replaced` (not `device:ended`) and the session goes on; a
 * ticket used twice, expired, for another session or after a new pairing is refused in French; a refused UAC
 * prompt voids the ticket and tells the technician; the ticket and tokens are never logged; retention purges
 * expired tickets.
 */
import { Writable } from "node:stream";
import { eq } from "drizzle-orm";
import { pino } from "pino";
import request from "supertest";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEVICE_MESSAGES, type DevicePairResponse, type DeviceView } from "#app/remote-support/device-protocol.ts";
import { ELEVATION_MESSAGES, type ResumeTicketAck } from "#app/remote-support/elevation-protocol.ts";
import type { SessionEventView } from "#app/remote-support/protocol.ts";
import { sessions } from "#database/schema.ts";
import { deviceResumeTickets } from "#database/schema-elevation.ts";
import { parseEnv } from "#server/env.ts";
import { purgeExpired, retentionPolicyFromEnv } from "#server/retention.ts";
import { DATABASE_KINDS, emptyTables, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  connectSocket,
  createAccounts,
  nextEvent,
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
  pair,
  pairingCode,
  PAIR_FIELDS,
  recordDevice,
  startAppSession,
  type DeviceClient,
} from "./device-testing.ts";

/** A Windows app running without administrator rights. */
const WINDOWS_FIELDS = { ...PAIR_FIELDS, platform: "windows", elevated: false };

describe.each(DATABASE_KINDS)("the app relaunched as administrator on %s", (kind) => {
  let database: TestDatabase;
  let server: RemoteSupportServer;
  let accounts: Record<Role, TestAccount>;
  let as: ReturnType<typeof asAccount>;
  const logLines: string[] = [];
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
  const deviceView = async (code: string) =>
    (await as("technician", "get", `/api/sessions/${code}/device`)).body.device as DeviceView;
  /** A site session joined by the technician, with a Windows app paired and connected. */
  const pairedWindowsApp = async (fields: object = WINDOWS_FIELDS) => {
    const code = await openSession(as);
    const response = await pair(server, await pairingCode(as, code), fields);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const token = (response.body as DevicePairResponse).deviceToken;
    const app = await device(token);
    await expect.poll(async () => (await deviceView(code)).connected).toBe(true);
    return { code, token, app };
  };
  const ticketFor = async (app: DeviceClient): Promise<string> => {
    const ack: ResumeTicketAck = await app.timeout(5_000).emitWithAck("device:resume-ticket");
    if (!ack.ok) throw new Error(ack.message);
    return ack.ticket;
  };
  const resume = (ticket: string, sessionCode: string, fields: object = { ...WINDOWS_FIELDS, elevated: true }) =>
    request(server.url)
      .post("/api/device/resume")
      .send({ ...fields, ticket, sessionCode });
  const elevate = async (socket: TestSocket, code: string) =>
    socket.timeout(5_000).emitWithAck("device:elevate", { code });

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const logger = pino(
      { level: "debug" },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          logLines.push(chunk.toString("utf8"));
          done();
        },
      }),
    );
    server = await startRemoteSupportServer(database, { logger });
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

  it("shows the technician a Windows app without administrator rights, and relays his request to it only", async () => {
    const { code, app } = await pairedWindowsApp();
    expect(await deviceView(code)).toMatchObject({ platform: "windows", elevated: false, secureDesktop: false });
    const asked = recordDevice(app, "device:elevate");

    // The customer's own browser cannot ask.
    const customer = await browser("customer");
    expect(await elevate(customer, code)).toEqual({ ok: false, message: DEVICE_MESSAGES.controlRefused });
    const technician = await browser("technician");
    expect(await elevate(technician, code)).toEqual({ ok: true });
    await expect.poll(() => asked.length).toBe(1);

    // An app already elevated has nothing to gain.
    app.emit("device:status", { injection: { ok: true }, screens: PAIR_FIELDS.screens, elevated: true });
    await expect.poll(async () => (await deviceView(code)).elevated).toBe(true);
    expect(await elevate(technician, code)).toEqual({ ok: false, message: ELEVATION_MESSAGES.notPossible });
    expect(asked).toHaveLength(1);
  });

  it("refuses the request for an app on another system", async () => {
    const { code } = await pairedWindowsApp({ ...PAIR_FIELDS, platform: "linux" });
    expect((await deviceView(code)).elevated).toBeNull();
    const technician = await browser("technician");
    expect(await elevate(technician, code)).toEqual({ ok: false, message: ELEVATION_MESSAGES.notPossible });
  });

  it("the relaunched app rejoins the same session, consents asked again; the old one is replaced, nothing ends", async () => {
    const started = await startAppSession(server, { ...WINDOWS_FIELDS, customerName: "Marie" });
    expect(started.status).toBe(201);
    const { deviceToken, sessionCode } = started.body as DevicePairResponse;
    expect((await as("technician", "post", "/api/sessions/join").send({ code: sessionCode })).status).toBe(200);
    const technician = await browser("technician");
    const views = record(technician, "session:device");
    const oldApp = await device(deviceToken);
    oldApp.emit("device:consent", { allowed: true, view: true });
    await expect.poll(async () => (await deviceView(sessionCode)).consent).toBe(true);
    const ended = recordDevice(oldApp, "device:ended");
    const replaced = nextDeviceEvent(oldApp, "device:replaced");
    const gone = new Promise<string>((resolve) => oldApp.once("disconnect", (reason) => resolve(reason)));

    const ticket = await ticketFor(oldApp);
    const [stored] = await database.db.select().from(deviceResumeTickets);
    // Stored as its SHA-256 only, bound to the session, for two minutes.
    expect(stored!.ticketHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored!.ticketHash).not.toContain(ticket);
    expect(stored!.expiresAt.getTime() - Date.now()).toBeGreaterThan(100_000);
    expect(stored!.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(120_000);

    const resumed = await resume(ticket, sessionCode.toLowerCase());
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(201);
    expect(resumed.body).toEqual({
      deviceToken: expect.stringMatching(/^[\w-]{40,}$/),
      customerName: "Marie",
      sessionCode,
    });
    await replaced;
    expect(await gone).toBe("io server disconnect");
    expect(ended).toEqual([]);
    await expect(connectDevice(server.url, deviceToken)).rejects.toThrow(DEVICE_MESSAGES.tokenInvalid);

    // The same session goes on, with the new process: elevated, control and view to be allowed again.
    const newApp = await device((resumed.body as DevicePairResponse).deviceToken);
    await expect.poll(async () => (await deviceView(sessionCode)).connected).toBe(true);
    expect(await deviceView(sessionCode)).toMatchObject({
      paired: true,
      elevated: true,
      consent: false,
      viewConsent: false,
    });
    const [row] = await database.db.select().from(sessions).where(eq(sessions.code, sessionCode));
    expect(row!.endTime).toBeNull();
    await expect.poll(() => views.at(-1)?.[0]).toMatchObject({ code: sessionCode, elevated: true, consent: false });
    const events = (await as("technician", "get", `/api/sessions/${sessionCode}/events`)).body
      .events as SessionEventView[];
    expect(events.map((event) => event.kind)).toEqual(expect.arrayContaining(["control-withdrawn", "view-withdrawn"]));
    expect(events.map((event) => event.kind)).not.toContain("ended");
    newApp.emit("device:consent", { allowed: true });
    await expect.poll(async () => (await deviceView(sessionCode)).consent).toBe(true);
  });

  it("refuses a ticket used twice, expired, for another session, after a new pairing, or malformed, in French", async () => {
    const first = await pairedWindowsApp();
    const ticket = await ticketFor(first.app);
    expect((await resume(ticket, first.code)).status).toBe(201);
    const twice = await resume(ticket, first.code);
    expect(twice.status).toBe(400);
    expect(twice.body).toEqual({ message: ELEVATION_MESSAGES.ticketInvalid });

    await emptyTables(database.db);
    const second = await pairedWindowsApp();
    const expired = await ticketFor(second.app);
    await database.db.update(deviceResumeTickets).set({ expiresAt: new Date(Date.now() - 1_000) });
    expect((await resume(expired, second.code)).body).toEqual({ message: ELEVATION_MESSAGES.ticketInvalid });

    const other = await openSession(as, "otherCustomer", null);
    const elsewhere = await ticketFor(second.app);
    const wrong = await resume(elsewhere, other);
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(ELEVATION_MESSAGES.ticketInvalid);
    // Single use even when refused: the right session cannot take it afterwards.
    expect((await resume(elsewhere, second.code)).status).toBe(400);

    const beforePairing = await ticketFor(second.app);
    await pair(server, await pairingCode(as, second.code), WINDOWS_FIELDS);
    expect((await resume(beforePairing, second.code)).body).toEqual({ message: ELEVATION_MESSAGES.ticketInvalid });

    const malformed = await resume("pas-un-ticket", second.code);
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ message: ELEVATION_MESSAGES.ticketInvalid });
    expect(await deviceView(second.code)).toMatchObject({ paired: true });
  });

  it("a refused UAC prompt voids the ticket and tells the technician in French; the session goes on", async () => {
    const { code, app } = await pairedWindowsApp();
    const technician = await browser("technician");
    const told = nextEvent(technician, "device:elevation");
    const ticket = await ticketFor(app);
    app.emit("device:elevation", { outcome: "cancelled" });
    expect((await told)[0]).toEqual({ code, outcome: "cancelled", message: ELEVATION_MESSAGES.cancelled });
    expect(ELEVATION_MESSAGES.cancelled).toMatch(/sans droits d'administrateur/);
    expect((await resume(ticket, code)).status).toBe(400);
    expect(await deviceView(code)).toMatchObject({ paired: true, connected: true, elevated: false });

    const declined = nextEvent(technician, "device:elevation");
    app.emit("device:elevation", { outcome: "declined" });
    expect((await declined)[0].message).toBe(ELEVATION_MESSAGES.declined);
  });

  it("says while Windows shows its secure desktop, and no longer once the app's picture is back", async () => {
    const { code, app } = await pairedWindowsApp();
    app.emit("device:status", { ...statusOf(WINDOWS_FIELDS), secureDesktop: true });
    await expect.poll(async () => (await deviceView(code)).secureDesktop).toBe(true);
    app.emit("device:status", statusOf(WINDOWS_FIELDS));
    await expect.poll(async () => (await deviceView(code)).secureDesktop).toBe(false);
  });

  it("never logs a ticket or a device token", async () => {
    logLines.length = 0;
    const { code, token, app } = await pairedWindowsApp();
    const ticket = await ticketFor(app);
    const resumed = await resume(ticket, code);
    expect(resumed.status).toBe(201);
    await resume(ticket, code);
    const text = logLines.join("\n");
    expect(text).toContain("ticket de reprise émis");
    expect(text).toContain("session reprise");
    for (const secret of [ticket, token, (resumed.body as DevicePairResponse).deviceToken])
      expect(text).not.toContain(secret);
  });

  it("retention: expired tickets go, a fresh one stays", async () => {
    const { app } = await pairedWindowsApp();
    await ticketFor(app);
    const policy = retentionPolicyFromEnv(parseEnv({}));
    const purge = () => purgeExpired({ db: database.db, policy, outboxFolder: database.dataDir, pauseMs: 0 });
    expect(await purge()).toMatchObject({ resumeTickets: 0 });
    await database.db.update(deviceResumeTickets).set({ expiresAt: new Date(Date.now() - 1_000) });
    expect(await purge()).toMatchObject({ resumeTickets: 1 });
    expect(await database.db.select().from(deviceResumeTickets)).toEqual([]);
  });
});

/** The status part of pairing fields. */
function statusOf(fields: typeof WINDOWS_FIELDS) {
  return { injection: fields.injection, screens: fields.screens, elevated: fields.elevated };
}
