/**
 * Issue 13 §4: sessions whose two participants are both gone are ended by
 * the server after a grace (`presence.ts`), and a shutting-down server lets
 * its clients reconnect instead of disconnecting them for good.
 */
import { pino } from "pino";
import request from "supertest";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SessionEventView, SessionView } from "#app/remote-support/protocol.ts";
import { DATABASE_KINDS, emptyTables, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  connectSocket,
  createAccounts,
  nextEvent,
  pause,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type Role,
  type TestAccount,
  type TestSocket,
} from "#tests/support/remote-support.ts";
import { startPresence, sweepIntervalFor, type OpenSession, type PresenceOptions } from "./presence.ts";

const GRACE_MS = 60_000;

/** A presence watcher over fakes: `open` sessions, `present` accounts, a clock moved by hand. */
function fakePresence(open: OpenSession[], overrides: Partial<PresenceOptions> = {}) {
  const state = { now: 1_000_000, present: new Set<string>(), ended: [] as string[], open };
  const presence = startPresence({
    abandonAfterMs: GRACE_MS,
    autoStart: false,
    logger: pino({ level: "silent" }),
    now: () => state.now,
    openSessions: async () => state.open,
    presentUsers: async (ids) => new Set(ids.filter((id) => state.present.has(id))),
    endByServer: async (code) => {
      state.ended.push(code);
      state.open = state.open.filter((session) => session.code !== code);
      return true;
    },
    ...overrides,
  });
  return { state, presence };
}

const SESSION: OpenSession = { id: "s1", code: "ACDEFG", userId: "client", technicianId: "tech" };

describe("abandoned sessions (fake clock)", () => {
  it("ends a session only once both participants have been gone for the whole grace", async () => {
    const { state, presence } = fakePresence([SESSION]);
    expect(await presence.sweep()).toEqual([]); // first seen without anyone: the grace starts now
    state.now += GRACE_MS - 1;
    expect(await presence.sweep()).toEqual([]);
    expect(state.ended).toEqual([]);
    state.now += 1;
    expect(await presence.sweep()).toEqual(["s1"]);
    expect(state.ended).toEqual(["ACDEFG"]);
  });

  it("keeps a session while either participant is there, and starts the grace again when they leave", async () => {
    const { state, presence } = fakePresence([SESSION]);
    state.present.add("tech");
    await presence.sweep();
    state.now += GRACE_MS * 3;
    await presence.sweep();
    expect(state.ended).toEqual([]);

    state.present.clear();
    await presence.sweep();
    state.present.add("client"); // the customer's tab comes back
    state.now += GRACE_MS / 2;
    await presence.sweep();
    state.present.clear();
    await presence.sweep();
    state.now += GRACE_MS / 2;
    await presence.sweep();
    expect(state.ended).toEqual([]);
    state.now += GRACE_MS / 2;
    await presence.sweep();
    expect(state.ended).toEqual(["ACDEFG"]);
  });

  it("ends nothing while presence cannot be read, and goes on once it can", async () => {
    let failing = true;
    const { state, presence } = fakePresence([SESSION], {
      presentUsers: async () => {
        if (failing) throw new Error("un processus ne répond pas");
        return new Set<string>();
      },
    });
    for (let i = 0; i < 5; i++) {
      await presence.sweep();
      state.now += GRACE_MS;
    }
    expect(state.ended).toEqual([]);
    failing = false;
    await presence.sweep();
    state.now += GRACE_MS;
    await presence.sweep();
    expect(state.ended).toEqual(["ACDEFG"]);
  });

  it("watches a session whose technician account was deleted through its customer alone", async () => {
    const { state, presence } = fakePresence([{ ...SESSION, technicianId: null }]);
    state.present.add("client");
    await presence.sweep();
    state.now += GRACE_MS * 2;
    await presence.sweep();
    expect(state.ended).toEqual([]);
    state.present.clear();
    await presence.sweep();
    state.now += GRACE_MS;
    await presence.sweep();
    expect(state.ended).toEqual(["ACDEFG"]);
  });

  it("watches a session the app started (no customer account) through its app's connection (issue 26)", async () => {
    const app: OpenSession = { ...SESSION, userId: null, appPresent: true };
    const { state, presence } = fakePresence([app]);
    await presence.sweep();
    state.now += GRACE_MS * 2;
    await presence.sweep();
    expect(state.ended).toEqual([]);
    // The app gone too (and the technician's tab): ended after the grace, like any session.
    state.open = [{ ...app, appPresent: false }];
    await presence.sweep();
    state.now += GRACE_MS;
    await presence.sweep();
    expect(state.ended).toEqual(["ACDEFG"]);
  });

  it("forgets a session ended by its participants, so the same id never inherits an old absence", async () => {
    const { state, presence } = fakePresence([SESSION]);
    await presence.sweep();
    state.open = [];
    await presence.sweep();
    state.now += GRACE_MS;
    state.open = [SESSION];
    await presence.sweep();
    expect(state.ended).toEqual([]);
  });

  it("sweeps a quarter of the grace apart, between 250 ms and 15 s", () => {
    expect(sweepIntervalFor(120_000)).toBe(15_000);
    expect(sweepIntervalFor(8_000)).toBe(2_000);
    expect(sweepIntervalFor(400)).toBe(250);
  });
});

describe.each(DATABASE_KINDS)("abandoned sessions and restarts on %s", (kind) => {
  const ABANDON_MS = 600;
  let database: TestDatabase;
  let server: RemoteSupportServer;
  let accounts: Record<Role, TestAccount>;
  const opened: TestSocket[] = [];
  const as = (role: Role, method: "get" | "post", path: string) =>
    request(server.url)[method](path).set("Cookie", accounts[role].cookie);
  const socketOf = async (role: Role) => {
    const socket = await connectSocket(server.url, accounts[role].cookie);
    opened.push(socket);
    return socket;
  };

  /** A session of the customer, joined by the technician. */
  async function connectedSession(): Promise<SessionView> {
    const created = await as("customer", "post", "/api/sessions").send({});
    const joined = await as("technician", "post", "/api/sessions/join").send({ code: created.body.session.code });
    expect(joined.status).toBe(200);
    return joined.body.session as SessionView;
  }
  const historyRow = async (code: string): Promise<SessionView> =>
    ((await as("technician", "get", "/api/sessions/history")).body.sessions as SessionView[]).find(
      (session) => session.code === code,
    )!;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    server = await startRemoteSupportServer(database, { sessionAbandonMs: ABANDON_MS });
    accounts = await createAccounts(server, database);
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

  it("keeps a session while one side is connected, ends it once both are gone, with the server as its ender", async () => {
    const customer = await socketOf("customer");
    const technician = await socketOf("technician");
    const session = await connectedSession();

    technician.close();
    // Several graces with the customer still there: nothing ends.
    await pause(ABANDON_MS * 3);
    expect((await historyRow(session.code)).endTime).toBeNull();

    customer.close();
    await expect
      .poll(async () => (await historyRow(session.code)).endTime, { timeout: 10_000, interval: 100 })
      .not.toBeNull();
    const row = await historyRow(session.code);
    expect(row.status).toBe("disconnected");
    // The recorded duration is the session's own: from the join to the end the server wrote.
    const span = (Date.parse(row.endTime!) - Date.parse(row.startTime!)) / 1000;
    expect(row.durationSeconds).toBe(Math.floor(span));
    const events = (await as("customer", "get", `/api/sessions/${session.code}/events`)).body
      .events as SessionEventView[];
    expect(events.filter((event) => event.kind === "ended")).toEqual([expect.objectContaining({ actor: null })]);
  });

  it("ends a joined session nobody connects to (what a new process finds after a kill -9) once the grace has passed", async () => {
    const session = await connectedSession();
    await expect
      .poll(async () => (await historyRow(session.code)).endTime, { timeout: 10_000, interval: 100 })
      .not.toBeNull();
    expect((await as("customer", "get", "/api/sessions/mine")).body.sessions[0]).toMatchObject({
      code: session.code,
      status: "disconnected",
    });
  });
});

describe("a shutting-down server", () => {
  let database: TestDatabase;
  let server: RemoteSupportServer;
  beforeAll(async () => {
    database = await openTestDatabase("pglite");
    server = await startRemoteSupportServer(database);
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });

  it("says it is restarting, then drops connections as a network loss (which clients retry), not as a final disconnect", async () => {
    const accounts = await createAccounts(server, database);
    const socket = await connectSocket(server.url, accounts.customer.cookie);
    const restarting = nextEvent(socket, "server:restarting");
    const reason = new Promise<string>((resolve) => socket.once("disconnect", resolve));
    await server.realtime.close();
    await restarting;
    // "io server disconnect" would leave the browser's client disconnected for good.
    expect(await reason).toBe("transport close");
    socket.close();
  });
});
