import { eq, sql } from "drizzle-orm";
import request from "supertest";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SESSION_MESSAGES, type SessionView, type SignalAck, type SignalData } from "#app/remote-support/protocol.ts";
import { openDatabase } from "#database/connection.ts";
import { signaling, users } from "#database/schema.ts";
import { roleFields } from "#server/access.ts";
import { DATABASE_KINDS, emptyTables, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  connectSocket,
  createAccount,
  createAccounts,
  nextEvent,
  pause,
  record,
  signIn,
  signOut,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type Role,
  type TestAccount,
  type TestSocket,
} from "#tests/support/remote-support.ts";

const REVALIDATE_MS = 300;
/** Long enough for an event that should NOT come to have arrived if it were sent. */
const QUIET_MS = 400;

/** Sends a `signal` and resolves with the server's acknowledgement. */
function signal(socket: TestSocket, code: string, data: unknown): Promise<SignalAck> {
  // `data` is untyped on purpose: the tests also send what a misbehaving client would.
  return new Promise((resolve) => socket.emit("signal", { code, data: data as SignalData }, resolve));
}

describe.each(DATABASE_KINDS)("remote-support realtime on %s", (kind) => {
  let database: TestDatabase;
  let server: RemoteSupportServer;
  let accounts: Record<Role, TestAccount>;
  const opened: TestSocket[] = [];

  const socketOf = async (cookie: string) => {
    const socket = await connectSocket(server.url, cookie);
    opened.push(socket);
    return socket;
  };
  const as = (role: Role, method: "get" | "post", path: string) =>
    request(server.url)[method](path).set("Cookie", accounts[role].cookie);

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    // Default background check (30 s): whatever arrives within a test came from the event itself.
    server = await startRemoteSupportServer(database);
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

  describe("handshake", () => {
    it("refuses a connection without a valid session cookie with « Utilisateur non connecté »", async () => {
      await expect(connectSocket(server.url)).rejects.toThrow("Utilisateur non connecté");
      await expect(connectSocket(server.url, "better-auth.session_token=inventé.signature")).rejects.toThrow(
        "Utilisateur non connecté",
      );
    });

    it("refuses a browser handshake from another site, accepts the site's own origin", async () => {
      await expect(
        connectSocket(server.url, accounts.customer.cookie, { origin: "https://pirate.example" }),
      ).rejects.toThrow();
      const socket = await connectSocket(server.url, accounts.customer.cookie, { origin: server.url });
      opened.push(socket);
      expect(socket.connected).toBe(true);
    });

    it("works over HTTP long-polling too (a browser's first transport), beside the Express routes", async () => {
      const socket = await connectSocket(server.url, accounts.customer.cookie, {}, ["polling"]);
      opened.push(socket);
      const updated = nextEvent(socket, "session:updated");
      await as("customer", "post", "/api/sessions").send({});
      expect((await updated)[0].userId).toBe(accounts.customer.id);
      await expect(connectSocket(server.url, undefined, {}, ["polling"])).rejects.toThrow("Utilisateur non connecté");
    });
  });

  describe("session changes", () => {
    it("push session:updated to the customer and the joined technician, and sessions:changed to every technician", async () => {
      const customer = await socketOf(accounts.customer.cookie);
      const technician = await socketOf(accounts.technician.cookie);
      const otherTechnician = await socketOf(accounts.otherTechnician.cookie);
      const otherCustomer = await socketOf(accounts.otherCustomer.cookie);
      const otherCustomerUpdates = record(otherCustomer, "session:updated");
      const otherCustomerChanges = record(otherCustomer, "sessions:changed");
      const otherTechnicianUpdates = record(otherTechnician, "session:updated");

      const created = nextEvent(customer, "session:updated");
      const technicianNotified = nextEvent(technician, "sessions:changed");
      const createResponse = await as("customer", "post", "/api/sessions").send({});
      const [createdView] = await created;
      expect(createdView).toMatchObject({ code: createResponse.body.session.code, status: "disconnected" });
      await technicianNotified;

      const joined = nextEvent(customer, "session:updated");
      const joinedTechnician = nextEvent(technician, "session:updated");
      const otherDashboard = nextEvent(otherTechnician, "sessions:changed");
      await as("technician", "post", "/api/sessions/join").send({ code: createdView.code.toLowerCase() });
      const [customerView] = await joined;
      expect(customerView).toMatchObject({
        code: createdView.code,
        status: "connected",
        technicianId: accounts.technician.id,
      });
      expect((await joinedTechnician)[0]).toEqual(customerView);
      await otherDashboard;

      const ended = nextEvent(technician, "session:updated");
      await as("customer", "post", `/api/sessions/${createdView.code}/disconnect`);
      expect((await ended)[0]).toMatchObject({ status: "disconnected" });

      await pause(QUIET_MS);
      // Neither the other customer nor the other technician ever sees this session's data.
      expect(otherCustomerUpdates).toEqual([]);
      expect(otherCustomerChanges).toEqual([]);
      expect(otherTechnicianUpdates).toEqual([]);
    });
  });

  describe("signaling", () => {
    let code: string;
    beforeEach(async () => {
      const created = await as("customer", "post", "/api/sessions").send({});
      code = (created.body.session as SessionView).code;
    });

    it("is refused before a technician joined", async () => {
      const customer = await socketOf(accounts.customer.cookie);
      expect(await signal(customer, code, { type: "offer", peer: "p1", sdp: "v=0" })).toEqual({
        ok: false,
        message: SESSION_MESSAGES.notConnected,
      });
    });

    it("is relayed between the two participants only, each message to the other one, and stored", async () => {
      await as("technician", "post", "/api/sessions/join").send({ code });
      const customer = await socketOf(accounts.customer.cookie);
      const technician = await socketOf(accounts.technician.cookie);
      const otherTechnician = await socketOf(accounts.otherTechnician.cookie);
      const customerSignals = record(customer, "signal");
      const otherSignals = record(otherTechnician, "signal");

      const offer = { type: "offer", peer: "p1", sdp: "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n" };
      const received = nextEvent(technician, "signal");
      expect(await signal(customer, code.toLowerCase(), offer)).toEqual({ ok: true });
      expect((await received)[0]).toEqual({ code, data: offer });

      const candidate = {
        type: "candidate",
        peer: "p1",
        candidate: { candidate: "candidate:1 1 udp 1 127.0.0.1 5000 typ host", sdpMid: "0" },
      };
      const answered = nextEvent(customer, "signal");
      expect(await signal(technician, code, candidate)).toEqual({ ok: true });
      expect((await answered)[0]).toEqual({ code, data: candidate });

      await pause(QUIET_MS);
      expect(customerSignals).toHaveLength(1); // only the technician's message, not its own offer back
      expect(otherSignals).toEqual([]);

      const rows = await database.db
        .select()
        .from(signaling)
        .where(eq(signaling.sessionCode, code))
        .orderBy(signaling.createdAt);
      expect(rows.map((row) => [row.senderId, JSON.parse(row.data)])).toEqual([
        [accounts.customer.id, offer],
        [accounts.technician.id, candidate],
      ]);
    });

    it("delivers one sender's messages in the order sent: the offer before the ICE candidates that follow it", async () => {
      await as("technician", "post", "/api/sessions/join").send({ code });
      const customer = await socketOf(accounts.customer.cookie);
      const technician = await socketOf(accounts.technician.cookie);
      const received = record(technician, "signal");
      const messages = [
        { type: "offer", peer: "p1", sdp: `v=0\r\n${"a=x\r\n".repeat(6_000)}` },
        ...Array.from({ length: 20 }, (_, index) => ({
          type: "candidate",
          peer: "p1",
          candidate: {
            candidate: `candidate:${index} 1 udp 1 127.0.0.1 ${5000 + index} typ host`,
            sdpMid: "0",
            sdpMLineIndex: 0,
          },
        })),
      ];
      const acks = messages.map((data) => signal(customer, code, data));
      expect(await Promise.all(acks)).toEqual(messages.map(() => ({ ok: true })));
      await expect.poll(() => received.length).toBe(messages.length);
      expect(received.map(([message]) => message.data)).toEqual(messages);
    });

    it("refuses non-participants, unknown codes and malformed messages, storing nothing", async () => {
      await as("technician", "post", "/api/sessions/join").send({ code });
      const otherTechnician = await socketOf(accounts.otherTechnician.cookie);
      const otherCustomer = await socketOf(accounts.otherCustomer.cookie);
      const technician = await socketOf(accounts.technician.cookie);
      const technicianSignals = record(technician, "signal");

      expect(await signal(otherTechnician, code, { type: "answer", peer: "p1", sdp: "x" })).toEqual({
        ok: false,
        message: SESSION_MESSAGES.notFound,
      });
      expect(await signal(otherCustomer, code, { type: "offer", peer: "p1", sdp: "x" })).toEqual({
        ok: false,
        message: SESSION_MESSAGES.notFound,
      });
      expect(await signal(technician, "AAAAAA", { type: "answer", peer: "p1", sdp: "x" })).toEqual({
        ok: false,
        message: SESSION_MESSAGES.notFound,
      });
      expect(await signal(technician, code, "pas un objet")).toEqual({
        ok: false,
        message: SESSION_MESSAGES.badSignal,
      });
      expect(await signal(technician, code, ["offer"])).toEqual({ ok: false, message: SESSION_MESSAGES.badSignal });
      expect(await signal(technician, code, { type: "bonjour" })).toEqual({
        ok: false,
        message: SESSION_MESSAGES.badSignal,
      });
      expect(await signal(technician, code, { type: "answer", sdp: "x" })).toEqual({
        ok: false,
        message: SESSION_MESSAGES.badSignal,
      });
      expect(await signal(technician, code, { type: "answer", peer: "p1", sdp: "x".repeat(70_000) })).toEqual({
        ok: false,
        message: "Message de signalisation trop volumineux.",
      });
      await pause(QUIET_MS);
      expect(technicianSignals).toEqual([]);
      expect(await database.db.$count(signaling)).toBe(0);
    });

    it("is refused once the session ended", async () => {
      await as("technician", "post", "/api/sessions/join").send({ code });
      await as("technician", "post", `/api/sessions/${code}/disconnect`);
      const customer = await socketOf(accounts.customer.cookie);
      expect(await signal(customer, code, { type: "offer", peer: "p1", sdp: "x" })).toEqual({
        ok: false,
        message: SESSION_MESSAGES.notConnected,
      });
    });

    it("takes each kind from its side only: the customer offers, the technician answers and asks for an offer", async () => {
      await as("technician", "post", "/api/sessions/join").send({ code });
      const customer = await socketOf(accounts.customer.cookie);
      const technician = await socketOf(accounts.technician.cookie);
      const customerSignals = record(customer, "signal");
      const technicianSignals = record(technician, "signal");

      expect(await signal(technician, code, { type: "offer", peer: "p1", sdp: "v=0" })).toEqual({
        ok: false,
        message: SESSION_MESSAGES.wrongSender,
      });
      expect(await signal(customer, code, { type: "answer", peer: "p1", sdp: "v=0" })).toEqual({
        ok: false,
        message: SESSION_MESSAGES.wrongSender,
      });
      expect(await signal(customer, code, { type: "ready" })).toEqual({
        ok: false,
        message: SESSION_MESSAGES.wrongSender,
      });
      await pause(QUIET_MS);
      expect(customerSignals).toEqual([]);
      expect(technicianSignals).toEqual([]);
      expect(await database.db.$count(signaling)).toBe(0);

      expect(await signal(technician, code, { type: "ready" })).toEqual({ ok: true });
      await expect.poll(() => customerSignals.length).toBe(1);
      expect(customerSignals[0]![0]).toEqual({ code, data: { type: "ready" } });
    });
  });

  describe("end of the sign-in session", () => {
    it("sends auth:ended to every tab of a browser that signs out, not to the same account's other browser", async () => {
      const account = await createAccount(server, database, "customer", false, `-sortie-${kind}`);
      const otherBrowser = await signIn(server.url, account.email, account.password);
      const tab1 = await socketOf(account.cookie);
      const tab2 = await socketOf(account.cookie);
      const elsewhere = await socketOf(otherBrowser);
      const elsewhereEnded = record(elsewhere, "auth:ended");

      const ended = Promise.all([nextEvent(tab1, "auth:ended"), nextEvent(tab2, "auth:ended")]);
      const disconnected = new Promise((resolve) => tab1.once("disconnect", resolve));
      await signOut(server.url, account.cookie);
      await ended;
      expect(await disconnected).toBe("io server disconnect");

      await pause(QUIET_MS);
      expect(elsewhereEnded).toEqual([]);
      expect(elsewhere.connected).toBe(true);
    });

    describe("changes made outside the server, seen by the background check", () => {
      let checking: RemoteSupportServer;
      beforeAll(async () => {
        checking = await startRemoteSupportServer(database, { revalidateIntervalMs: REVALIDATE_MS });
      });
      afterAll(async () => {
        await checking?.close();
      });

      it("sends auth:ended when the account is deleted outside the server (npm run user -- delete)", async () => {
        const account = await createAccount(server, database, "customer", false, `-supprime-${kind}`);
        const socket = await connectSocket(checking.url, account.cookie);
        opened.push(socket);
        const ended = nextEvent(socket, "auth:ended", REVALIDATE_MS * 10);
        await database.db.delete(users).where(eq(users.id, account.id));
        await ended;
      });

      it("moves a socket into the technicians' room when the account is promoted", async () => {
        const account = await createAccount(server, database, "customer", false, `-promu-${kind}`);
        const socket = await connectSocket(checking.url, account.cookie);
        opened.push(socket);
        await database.db.update(users).set(roleFields("technician")).where(eq(users.id, account.id));
        await pause(REVALIDATE_MS * 3);
        const changed = nextEvent(socket, "sessions:changed");
        await request(checking.url).post("/api/sessions").set("Cookie", accounts.customer.cookie).send({});
        await changed;
      });
    });
  });
});

describe.runIf(DATABASE_KINDS.includes("postgres"))("two servers on one PostgreSQL", () => {
  let database: TestDatabase;
  let second: TestDatabase;
  let serverA: RemoteSupportServer;
  let serverB: RemoteSupportServer;
  let accounts: Record<Role, TestAccount>;
  const opened: TestSocket[] = [];
  const socketOn = async (server: RemoteSupportServer, cookie: string) => {
    const socket = await connectSocket(server.url, cookie);
    opened.push(socket);
    return socket;
  };

  beforeAll(async () => {
    database = await openTestDatabase("postgres");
    // Server B has its own connection pool, like a second process would.
    const handle = await openDatabase({ databaseUrl: database.url!, dataDir: database.dataDir, poolSize: 5 });
    second = { ...handle, dataDir: database.dataDir, url: database.url, dispose: () => handle.close() };
    serverA = await startRemoteSupportServer(database);
    serverB = await startRemoteSupportServer(second);
    accounts = await createAccounts(serverA, database);
    // The adapters LISTEN asynchronously after start.
    await pause(1_000);
  });
  afterAll(async () => {
    for (const socket of opened) socket.close();
    await serverA?.close();
    await serverB?.close();
    await second?.dispose();
    await database?.dispose();
  });

  it("pushes a join made through server A to dashboards connected to server B, and relays signaling across", async () => {
    const technicianOnB = await socketOn(serverB, accounts.technician.cookie);
    const otherTechnicianOnB = await socketOn(serverB, accounts.otherTechnician.cookie);
    const customerOnA = await socketOn(serverA, accounts.customer.cookie);

    const created = await request(serverA.url).post("/api/sessions").set("Cookie", accounts.customer.cookie).send({});
    const code = created.body.session.code as string;

    const pushed = nextEvent(technicianOnB, "session:updated");
    const dashboard = nextEvent(otherTechnicianOnB, "sessions:changed");
    const joined = await request(serverA.url)
      .post("/api/sessions/join")
      .set("Cookie", accounts.technician.cookie)
      .send({ code });
    expect(joined.status).toBe(200);
    expect((await pushed)[0]).toMatchObject({ code, status: "connected", technicianId: accounts.technician.id });
    await dashboard;

    // An offer larger than NOTIFY's 8000 bytes travels through socket_io_attachments.
    const offer = { type: "offer" as const, peer: "p1", sdp: `v=0\r\n${"a=candidate:x\r\n".repeat(1_500)}` };
    const received = nextEvent(technicianOnB, "signal");
    expect(await new Promise((resolve) => customerOnA.emit("signal", { code, data: offer }, resolve))).toEqual({
      ok: true,
    });
    expect((await received)[0]).toEqual({ code, data: offer });

    const answered = nextEvent(customerOnA, "signal");
    const answer = { type: "answer" as const, peer: "p1", sdp: "v=0" };
    expect(await new Promise((resolve) => technicianOnB.emit("signal", { code, data: answer }, resolve))).toEqual({
      ok: true,
    });
    expect((await answered)[0]).toEqual({ code, data: answer });
  });

  it("ends the sockets on server B at once when the browser signs out through server A", async () => {
    const account = await createAccount(serverA, database, "otherCustomer", false, "-deux-serveurs");
    const socketOnB = await socketOn(serverB, account.cookie);
    const ended = nextEvent(socketOnB, "auth:ended", 2_000);
    await signOut(serverA.url, account.cookie);
    await ended;
  });

  it("keeps the attachments table the adapter needs", async () => {
    const result = (await database.db.execute(sql`select to_regclass('socket_io_attachments') as name`)) as unknown as {
      rows: { name: string | null }[];
    };
    expect(result.rows[0]!.name).toBe("socket_io_attachments");
  });
});
