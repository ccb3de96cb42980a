/**
 * Issue 38 §3, « Reboot and reconnect », the server's part on both databases: the joined technician alone asks
 * « Redémarrer l'ordinateur » of a connected app; the app's reboot ticket lives 15 minutes (the relaunch as
 * administrator's still 2); while it is pending the technician's view says the computer restarts and the session
 * is not abandoned for want of its app; the customer's refusal voids it and the technician reads why; the app
 * back after the restart redeems it, rejoins the same session (consents asked again) and the view is back to
 * normal; an expired ticket no longer holds the session nor resumes anything. A ticket's purpose is stored with it
 * (migration 0026): a restart's holds the session whatever its lifetime, a relaunch's never does.
 */
import { readFile } from "node:fs/promises";
import { eq, sql } from "drizzle-orm";
import { pino } from "pino";
import request from "supertest";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEVICE_MESSAGES, type DevicePairResponse, type DeviceView } from "#app/remote-support/device-protocol.ts";
import { ELEVATION_MESSAGES, type ResumeTicketAck } from "#app/remote-support/elevation-protocol.ts";
import { REBOOT_MESSAGES } from "#app/remote-support/reboot-protocol.ts";
import { sessions } from "#database/schema.ts";
import { deviceResumeTickets } from "#database/schema-elevation.ts";
import { DATABASE_KINDS, emptyTables, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  connectSocket,
  createAccounts,
  nextEvent,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type Role,
  type TestAccount,
  type TestSocket,
} from "#tests/support/remote-support.ts";
import {
  asAccount,
  connectDevice,
  PAIR_FIELDS,
  recordDevice,
  startAppSession,
  type DeviceClient,
} from "./device-testing.ts";
import { connectedSessions, startPresence } from "./presence.ts";

describe.each(DATABASE_KINDS)("restarting the customer's computer on %s", (kind) => {
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
  const deviceView = async (code: string) =>
    (await as("technician", "get", `/api/sessions/${code}/device`)).body.device as DeviceView;
  const reboot = (socket: TestSocket, code: string) => socket.timeout(5_000).emitWithAck("reboot:request", { code });
  const rebootTicket = async (app: DeviceClient): Promise<string> => {
    const ack: ResumeTicketAck = await app.timeout(5_000).emitWithAck("device:reboot-ticket");
    if (!ack.ok) throw new Error(ack.message);
    return ack.ticket;
  };
  const resume = (ticket: string, sessionCode: string) =>
    request(server.url)
      .post("/api/device/resume")
      .send({ ...PAIR_FIELDS, ticket, sessionCode });
  /** Whether the presence sweep counts the session's customer side as there. */
  const held = async (code: string) =>
    (await connectedSessions(database.db)()).find((session) => session.code === code)?.appPresent === true;

  /** A session started by a Linux app, joined by the technician, the app connected and the picture allowed. */
  const joinedApp = async () => {
    const started = await startAppSession(server, { ...PAIR_FIELDS, customerName: "Marie" });
    expect(started.status).toBe(201);
    const { deviceToken, sessionCode: code } = started.body as DevicePairResponse;
    expect((await as("technician", "post", "/api/sessions/join").send({ code })).status).toBe(200);
    const app = await device(deviceToken);
    app.emit("device:consent", { allowed: true, view: true });
    await expect.poll(async () => (await deviceView(code)).viewConsent).toBe(true);
    return { code, app };
  };

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

  it("relays the joined technician's request to a connected app only, and never twice while it restarts", async () => {
    const { code, app } = await joinedApp();
    const asked = recordDevice(app, "device:reboot");
    const customer = await browser("customer");
    expect(await reboot(customer, code)).toEqual({ ok: false, message: DEVICE_MESSAGES.controlRefused });
    const technician = await browser("technician");
    expect(await reboot(technician, code)).toEqual({ ok: true });
    await expect.poll(() => asked.length).toBe(1);

    await rebootTicket(app);
    expect(await reboot(technician, code)).toEqual({ ok: false, message: REBOOT_MESSAGES.restarting });
    app.close();
    await expect.poll(async () => (await deviceView(code)).connected).toBe(false);
    await database.db.delete(deviceResumeTickets);
    expect(await reboot(technician, code)).toEqual({ ok: false, message: DEVICE_MESSAGES.deviceGone });
    expect(asked).toHaveLength(1);
  });

  it("a declined restart voids its ticket and tells the technician in French", async () => {
    const { code, app } = await joinedApp();
    const technician = await browser("technician");
    const ticket = await rebootTicket(app);
    const told = nextEvent(technician, "reboot:news");
    app.emit("device:reboot-report", { outcome: "declined" });
    expect((await told)[0]).toEqual({ code, outcome: "declined", message: "Le client a refusé le redémarrage." });
    await expect.poll(async () => (await deviceView(code)).rebootingUntil).toBeNull();
    expect((await resume(ticket, code)).body).toEqual({ message: ELEVATION_MESSAGES.ticketInvalid });
    expect(await deviceView(code)).toMatchObject({ connected: true, viewConsent: true });
  });

  it("keeps the session for 15 minutes while the computer restarts, then the app rejoins it", async () => {
    const { code, app } = await joinedApp();
    const technician = await browser("technician");
    const ticket = await rebootTicket(app);
    const [stored] = await database.db.select().from(deviceResumeTickets);
    expect(stored!.ticketHash).not.toContain(ticket);
    const lifetime = stored!.expiresAt.getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(890_000);
    expect(lifetime).toBeLessThanOrEqual(900_000);

    const told = nextEvent(technician, "reboot:news");
    app.emit("device:reboot-report", { outcome: "restarting" });
    expect((await told)[0]).toEqual({ code, outcome: "restarting", message: REBOOT_MESSAGES.restarting });
    // The system stops the app: it leaves no `device:leave`, only a closed link.
    app.close();
    await expect.poll(async () => (await deviceView(code)).connected).toBe(false);
    const away = await deviceView(code);
    expect(away).toMatchObject({ paired: true, connected: false, appPicture: false });
    expect(Date.parse(away.rebootingUntil!)).toBe(stored!.expiresAt.getTime());
    expect(await held(code)).toBe(true);
    expect((await as("technician", "get", "/api/sessions/queue")).body.entries).toEqual([]);

    const resumed = await resume(ticket, code);
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(201);
    await device((resumed.body as DevicePairResponse).deviceToken);
    await expect.poll(async () => (await deviceView(code)).connected).toBe(true);
    expect(await deviceView(code)).toMatchObject({ rebootingUntil: null, consent: false, viewConsent: false });
    const [row] = await database.db.select().from(sessions).where(eq(sessions.code, code));
    // Still his: the same session, joined by him, never back in the waiting queue.
    expect(row).toMatchObject({ endTime: null, status: "connected", technicianId: accounts.technician.id });
    expect((await as("technician", "get", "/api/sessions/queue")).body.entries).toEqual([]);
  });

  it("an expired reboot ticket no longer holds the session, nor brings the app back", async () => {
    const { code, app } = await joinedApp();
    const ticket = await rebootTicket(app);
    app.emit("device:reboot-report", { outcome: "restarting" });
    app.close();
    await expect.poll(async () => (await deviceView(code)).connected).toBe(false);
    expect(await held(code)).toBe(true);
    // The abandoned-session sweep, with the technician's tab closed too: nothing ends while the ticket is pending.
    const clock = { now: 0 };
    const presence = startPresence({
      abandonAfterMs: 1_000,
      autoStart: false,
      logger: pino({ level: "silent" }),
      now: () => clock.now,
      openSessions: connectedSessions(database.db),
      presentUsers: async () => new Set(),
      endByServer: async (sessionCode) => {
        const result = await server.sessions.endByServer(sessionCode);
        return result.ok && result.session !== null;
      },
    });
    await presence.sweep();
    clock.now = 60_000;
    expect(await presence.sweep()).toEqual([]);
    await database.db
      .update(deviceResumeTickets)
      .set({ expiresAt: new Date(Date.now() - 1_000), createdAt: new Date(Date.now() - 901_000) });
    expect(await held(code)).toBe(false);
    // Expired: it ends as an app gone would.
    await presence.sweep();
    clock.now = 120_000;
    expect(await presence.sweep()).toHaveLength(1);
    presence.stop();
    expect((await deviceView(code)).rebootingUntil).toBeNull();
    expect((await resume(ticket, code)).body).toEqual({ message: ELEVATION_MESSAGES.ticketInvalid });
  });

  it("a relaunch as administrator's ticket still lives 2 minutes and says nothing of a restart", async () => {
    const { code, app } = await joinedApp();
    const ack: ResumeTicketAck = await app.timeout(5_000).emitWithAck("device:resume-ticket");
    expect(ack.ok).toBe(true);
    const [stored] = await database.db.select().from(deviceResumeTickets);
    expect(stored!.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(120_000);
    expect(stored!.purpose).toBe("elevation");
    expect((await deviceView(code)).rebootingUntil).toBeNull();
  });

  it("tells a restart's ticket by its purpose, not its lifetime (migration 0026)", async () => {
    const { code, app } = await joinedApp();
    await rebootTicket(app);
    const [stored] = await database.db.select().from(deviceResumeTickets);
    expect(stored!.purpose).toBe("reboot");
    // Stored before the column (the default), a 15-minute ticket is a restart's once the migration ran.
    await database.db.update(deviceResumeTickets).set({ purpose: "elevation" });
    const migration = await readFile(new URL("../../drizzle/0026_resume_ticket_purpose.sql", import.meta.url), "utf8");
    await database.db.execute(sql.raw(migration.slice(migration.indexOf("UPDATE"))));
    expect((await database.db.select().from(deviceResumeTickets))[0]!.purpose).toBe("reboot");
    app.close();
    await expect.poll(async () => (await deviceView(code)).connected).toBe(false);
    // A restart's ticket with a short lifetime is still a restart's: the session is held for it.
    const soon = new Date(Date.now() + 60_000);
    await database.db.update(deviceResumeTickets).set({ createdAt: new Date(), expiresAt: soon });
    expect(Date.parse((await deviceView(code)).rebootingUntil!)).toBe(soon.getTime());
    expect(await held(code)).toBe(true);
    // A relaunch's ticket, however long it lives, never says the computer restarts.
    await database.db
      .update(deviceResumeTickets)
      .set({ purpose: "elevation", expiresAt: new Date(Date.now() + 3_600_000) });
    expect((await deviceView(code)).rebootingUntil).toBeNull();
    expect(await held(code)).toBe(false);
  });
});
