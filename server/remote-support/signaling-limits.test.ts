/**
 * Issue 13 §3: signaling budgets (per connection, per session) and the
 * deletion of a session's signaling rows when it ends, on both databases.
 * Each budget is shrunk to a few messages so that a flood is a dozen
 * signals; `DEFAULT_SOCKET_SIGNAL_BUDGET` and `DEFAULT_SESSION_SIGNAL_BUDGET`
 * are measured by `bench/signaling-flood.ts`.
 */
import { eq, sql } from "drizzle-orm";
import request from "supertest";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SESSION_MESSAGES, type SignalAck, type SignalData } from "#app/remote-support/protocol.ts";
import { signaling } from "#database/schema.ts";
import { DATABASE_KINDS, emptyTables, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  accountRole,
  TEST_SESSION_OPTIONS,
  connectSocket,
  createAccounts,
  pause,
  record,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type Role,
  type TestAccount,
  type TestSocket,
} from "#tests/support/remote-support.ts";
import type { Caller } from "#server/access.ts";
import { DEFAULT_SOCKET_SIGNAL_BUDGET, type SessionSignalBudget, type SocketSignalBudget } from "./limits.ts";

const candidate = (index: number): SignalData => ({
  type: "candidate",
  peer: "p1",
  candidate: {
    candidate: `candidate:${index} 1 udp 2113937151 192.0.2.${index % 250} ${5000 + index} typ host`,
    sdpMid: "0",
    sdpMLineIndex: 0,
  },
});

/** Sends a `signal` and resolves with the server's acknowledgement. */
function signal(socket: TestSocket, code: string, data: SignalData): Promise<SignalAck> {
  return new Promise((resolve) => socket.emit("signal", { code, data }, resolve));
}

const okCount = (acks: SignalAck[]) => acks.filter((ack) => ack.ok).length;

describe.each(DATABASE_KINDS)("signaling limits on %s", (kind) => {
  let database: TestDatabase;
  let accounts: Record<Role, TestAccount>;
  const servers: RemoteSupportServer[] = [];
  const opened: TestSocket[] = [];

  /** A server sharing the database, with its own budgets. */
  const serverWith = async (budgets: { socket?: Partial<SocketSignalBudget>; session?: SessionSignalBudget }) => {
    const server = await startRemoteSupportServer(database, {
      signalBudget: { ...DEFAULT_SOCKET_SIGNAL_BUDGET, ...budgets.socket },
      sessionOptions: { ...TEST_SESSION_OPTIONS, ...(budgets.session ? { signalBudget: budgets.session } : {}) },
    });
    servers.push(server);
    return server;
  };
  const socketOn = async (server: RemoteSupportServer, role: Role) => {
    const socket = await connectSocket(server.url, accounts[role].cookie);
    opened.push(socket);
    return socket;
  };
  /** The customer's session, joined by the technician, through `server`'s API. */
  const connectedSession = async (server: RemoteSupportServer): Promise<string> => {
    const created = await request(server.url).post("/api/sessions").set("Cookie", accounts.customer.cookie).send({});
    const code = created.body.session.code as string;
    const joined = await request(server.url)
      .post("/api/sessions/join")
      .set("Cookie", accounts.technician.cookie)
      .send({ code });
    expect(joined.status).toBe(200);
    return code;
  };
  const storedRows = (code: string) => database.db.$count(signaling, eq(signaling.sessionCode, code));

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    accounts = await createAccounts(await serverWith({}), database);
  });
  beforeEach(async () => {
    await emptyTables(database.db);
  });
  afterEach(() => {
    for (const socket of opened.splice(0)) socket.close();
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await database?.dispose();
  });

  it("refuses a flood past the connection's budget, stores and relays none of it, and accepts signals again once it refilled", async () => {
    const server = await serverWith({ socket: { burstMessages: 5, messagesPerSecond: 2 } });
    const code = await connectedSession(server);
    const customer = await socketOn(server, "customer");
    const technician = await socketOn(server, "technician");
    const relayed = record(technician, "signal");

    const acks = await Promise.all(Array.from({ length: 12 }, (_, index) => signal(customer, code, candidate(index))));
    expect(okCount(acks)).toBe(5);
    expect(acks.filter((ack) => !ack.ok)).toEqual(
      Array.from({ length: 7 }, () => ({ ok: false, message: SESSION_MESSAGES.signalTooFast })),
    );
    expect(await storedRows(code)).toBe(5);
    await expect.poll(() => relayed.length).toBe(5);

    // The session goes on: the other side is not throttled, and the same socket is accepted again after a pause.
    expect(await signal(technician, code, candidate(100))).toEqual({ ok: true });
    await pause(700);
    expect(await signal(customer, code, candidate(101))).toEqual({ ok: true });
    expect(await storedRows(code)).toBe(7);
  });

  it("refuses at once, without queueing, past a few pending signals", async () => {
    const server = await serverWith({ socket: { maxPending: 3 } });
    const code = await connectedSession(server);
    const customer = await socketOn(server, "customer");

    const acks = await Promise.all(Array.from({ length: 30 }, (_, index) => signal(customer, code, candidate(index))));
    const refused = acks.filter((ack) => !ack.ok);
    expect(refused.length).toBeGreaterThan(0);
    expect(new Set(refused.map((ack) => !ack.ok && ack.message))).toEqual(new Set([SESSION_MESSAGES.signalTooFast]));
    expect(await storedRows(code)).toBe(okCount(acks));
    // Once the queue drained, the next one goes through.
    expect(await signal(customer, code, candidate(99))).toEqual({ ok: true });
  });

  it("limits each sender of a session across all its connections, and accepts again after the window", async () => {
    const server = await serverWith({ session: { messagesPerWindow: 4, windowSeconds: 1, maxStoredBytes: 1_000_000 } });
    const code = await connectedSession(server);
    const firstTab = await socketOn(server, "customer");
    const secondTab = await socketOn(server, "customer");
    const technician = await socketOn(server, "technician");

    expect(await signal(firstTab, code, candidate(1))).toEqual({ ok: true });
    expect(await signal(firstTab, code, candidate(2))).toEqual({ ok: true });
    expect(await signal(secondTab, code, candidate(3))).toEqual({ ok: true });
    expect(await signal(secondTab, code, candidate(4))).toEqual({ ok: true });
    expect(await signal(secondTab, code, candidate(5))).toEqual({ ok: false, message: SESSION_MESSAGES.signalTooFast });
    expect(await signal(firstTab, code, candidate(6))).toEqual({ ok: false, message: SESSION_MESSAGES.signalTooFast });
    // The technician has a budget of their own in the same session.
    expect(await signal(technician, code, { type: "answer", peer: "p1", sdp: "v=0" })).toEqual({ ok: true });
    expect(await storedRows(code)).toBe(5);

    await pause(1_200);
    expect(await signal(secondTab, code, candidate(7))).toEqual({ ok: true });
  });

  it("refuses a signal that would take the session's stored bytes past its cap, and deletes them all at the end", async () => {
    const server = await serverWith({
      session: { messagesPerWindow: 1_000, windowSeconds: 60, maxStoredBytes: 20_000 },
    });
    const code = await connectedSession(server);
    const customer = await socketOn(server, "customer");
    const technician = await socketOn(server, "technician");
    const offer = (peer: string): SignalData => ({ type: "offer", peer, sdp: `v=0\r\n${"a=x\r\n".repeat(1_000)}` });

    expect(await signal(customer, code, offer("p1"))).toEqual({ ok: true });
    expect(await signal(customer, code, offer("p2"))).toEqual({ ok: true });
    expect(await signal(customer, code, offer("p3"))).toEqual({ ok: false, message: SESSION_MESSAGES.signalQuota });
    // What still fits is accepted: the session keeps working.
    expect(await signal(technician, code, { type: "answer", peer: "p2", sdp: "v=0" })).toEqual({ ok: true });
    const bytes = (await database.db.execute(
      sql`select coalesce(sum(octet_length(data)), 0)::integer as bytes from signaling where session_code = ${code}`,
    )) as unknown as { rows: { bytes: number }[] };
    // Two offers of ≈ 7 000 bytes of JSON each and the answer.
    expect(bytes.rows[0]!.bytes).toBeGreaterThan(14_000);
    expect(bytes.rows[0]!.bytes).toBeLessThanOrEqual(20_000);

    await request(server.url).post(`/api/sessions/${code}/disconnect`).set("Cookie", accounts.customer.cookie);
    expect(await storedRows(code)).toBe(0);
  });

  it("keeps signaling out of the write-ahead log: an unlogged table (migration 0007)", async () => {
    const result = (await database.db.execute(
      sql`select relpersistence from pg_class where relname = 'signaling' and relkind = 'r'`,
    )) as unknown as { rows: { relpersistence: string }[] };
    expect(result.rows).toEqual([{ relpersistence: "u" }]);
  });

  it.each(["customer", "technician", "server"] as const)(
    "deletes a session's signaling rows when the %s ends it, and only that session's",
    async (ender) => {
      const server = servers[0]!;
      const callerOf = (role: Role): Caller => ({
        userId: accounts[role].id,
        name: accounts[role].name,
        email: accounts[role].email,
        role: accountRole(accounts[role]),
        authSessionId: `navigateur-${role}`,
      });
      const codes: string[] = [];
      for (const [customer, technician] of [
        ["customer", "technician"],
        ["otherCustomer", "otherTechnician"],
      ] as const) {
        const created = await server.sessions.create(callerOf(customer), {});
        if (!created.ok) throw new Error(created.message);
        expect((await server.sessions.join(callerOf(technician), created.session.code)).ok).toBe(true);
        expect((await server.sessions.relaySignal(callerOf(customer), created.session.code, candidate(1))).ok).toBe(
          true,
        );
        expect((await server.sessions.relaySignal(callerOf(technician), created.session.code, candidate(2))).ok).toBe(
          true,
        );
        codes.push(created.session.code);
      }
      const [ended, other] = codes as [string, string];
      expect(await storedRows(ended)).toBe(2);

      const outcome =
        ender === "server"
          ? await server.sessions.endByServer(ended)
          : await server.sessions.disconnect(callerOf(ender), ended);
      expect(outcome.ok).toBe(true);
      expect(await storedRows(ended)).toBe(0);
      expect(await storedRows(other)).toBe(2);
    },
  );
});
