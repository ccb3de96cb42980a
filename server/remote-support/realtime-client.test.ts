/**
 * Issue 13 §4: the tab's connection (`connectRealtime`) comes back by itself
 * after every kind of loss except the end of the sign-in, against the real
 * Socket.IO server of `server/remote-support/realtime.ts`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  createAccounts,
  pause,
  signIn,
  signOut,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type Role,
  type TestAccount,
} from "#tests/support/remote-support.ts";
import { userRoom } from "./realtime.ts";
import { connectRealtime, type RealtimeSocket } from "#app/remote-support/client/session-events.ts";

/** Long enough for a retry (at most 1.25 s, then the backoff) to have happened if one were made. */
const QUIET_MS = 3_000;

const nextConnect = (socket: RealtimeSocket) => new Promise<void>((resolve) => socket.once("connect", () => resolve()));

describe("connectRealtime", () => {
  let database: TestDatabase;
  let server: RemoteSupportServer;
  let accounts: Record<Role, TestAccount>;
  const opened: RealtimeSocket[] = [];
  const open = (cookie: string) => {
    const socket = connectRealtime({ url: server.url, cookie });
    opened.push(socket);
    return socket;
  };

  beforeAll(async () => {
    database = await openTestDatabase("pglite");
    server = await startRemoteSupportServer(database);
    accounts = await createAccounts(server, database);
  });
  afterEach(() => {
    for (const socket of opened.splice(0)) socket.disconnect();
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });

  it("reconnects by itself after a server-side disconnect that the client library would take as final", async () => {
    const socket = open(accounts.customer.cookie);
    await nextConnect(socket);
    const reason = new Promise<string>((resolve) => socket.once("disconnect", resolve));
    const back = nextConnect(socket);
    server.realtime.io.in(userRoom(accounts.customer.id)).disconnectSockets(true);
    expect(await reason).toBe("io server disconnect");
    await back;
    expect(socket.connected).toBe(true);
  });

  it("stays out once the sign-in ended (auth:ended), and never reopens after the page closed it", async () => {
    const cookie = await signIn(server.url, accounts.technician.email, accounts.technician.password);
    const ended = open(cookie);
    const closed = open(accounts.customer.cookie);
    await Promise.all([nextConnect(ended), nextConnect(closed)]);
    let reconnections = 0;
    for (const socket of [ended, closed]) socket.on("connect", () => (reconnections += 1));
    const told = new Promise<void>((resolve) => ended.once("auth:ended", () => resolve()));
    await signOut(server.url, cookie);
    await told;
    closed.disconnect();
    await pause(QUIET_MS);
    expect(reconnections).toBe(0);
    expect(ended.connected).toBe(false);
  });

  it("treats a handshake refused for want of a sign-in as the end of the sign-in", async () => {
    const socket = connectRealtime({ url: server.url, cookie: "better-auth.session_token=inventé.signature" });
    opened.push(socket);
    await new Promise<void>((resolve) => socket.once("auth:ended", () => resolve()));
    expect(socket.connected).toBe(false);
  });
});
