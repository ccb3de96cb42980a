/**
 * Issue 27 across server processes (PostgreSQL and its Socket.IO adapter):
 * a customer's page on server B, an app on server A, one technician on
 * each. Both dashboards get the whole queue, whoever's process saw the
 * change; the customers are told their places wherever they are connected;
 * « Prendre en charge » raced from A and B at once: one wins, the other is
 * told in French, and the entry leaves both dashboards.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DeviceSessionResponse } from "#app/remote-support/device-protocol.ts";
import { QUEUE_MESSAGES } from "#app/remote-support/queue.ts";
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
import { asAccount, PAIR_FIELDS, startAppSession, type DeviceClient } from "./device-testing.ts";
import { connectWaitingApp, placeOf, queueShowing } from "./queue-testing.ts";

describe.skipIf(!DATABASE_KINDS.includes("postgres"))("the waiting queue across two server processes", () => {
  let database: TestDatabase;
  let serverA: RemoteSupportServer;
  let serverB: RemoteSupportServer;
  let accounts: Record<Role, TestAccount>;
  const opened: (TestSocket | DeviceClient)[] = [];
  const browser = async (server: RemoteSupportServer, role: Role) => {
    const socket = await connectSocket(server.url, accounts[role].cookie);
    opened.push(socket);
    return socket;
  };

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

  it("pushes every change to both dashboards and each customer, and settles a race between A and B", async () => {
    const onA = asAccount(serverA, accounts);
    const onB = asAccount(serverB, accounts);
    const camille = await browser(serverA, "technician");
    const hugo = await browser(serverB, "otherTechnician");

    // Léa's session is created through A, her page is open on B: A's dashboard learns it from B's push.
    const lea = (await onA("customer", "post", "/api/sessions").send({})).body.session.code as string;
    const seen = Promise.all([camille, hugo].map((tech) => queueShowing(tech, ["Léa Martin"])));
    const leaPage = await browser(serverB, "customer");
    await seen;

    const both = Promise.all([camille, hugo].map((tech) => queueShowing(tech, ["Léa Martin", "Marie"])));
    const leaTold = placeOf(leaPage, lea, { place: 1, total: 2, estimatedMinutes: 10 });
    const created = await startAppSession(serverA, { ...PAIR_FIELDS, customerName: "Marie" });
    const { deviceToken, sessionCode: marie } = created.body as DeviceSessionResponse;
    const app = await connectWaitingApp(serverA.url, deviceToken);
    opened.push(app.app);
    await both;
    await leaTold;
    await app.place({ place: 2, total: 2, estimatedMinutes: 15 });

    // Both technicians click « Prendre en charge » on Léa at once, one through each process.
    const after = Promise.all([camille, hugo].map((tech) => queueShowing(tech, ["Marie"])));
    const answers = await Promise.all([
      onA("technician", "post", `/api/sessions/${lea}/claim`),
      onB("otherTechnician", "post", `/api/sessions/${lea}/claim`),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body).toEqual({ message: QUEUE_MESSAGES.taken });
    await after;
    await app.place({ place: 1, total: 1, estimatedMinutes: 10 });
    expect((await onB("otherTechnician", "get", "/api/sessions/queue")).body.entries).toMatchObject([
      { code: marie, origin: "app" },
    ]);
  });
});
