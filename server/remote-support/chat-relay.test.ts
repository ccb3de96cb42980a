/**
 * Issue 38 §1, the session chat over Socket.IO (`chat-relay.ts`) on both databases: a line from the customer's
 * browser, the technician's browser or the session's desktop app reaches the other side (every tab of it), is
 * stored with the session as every chat line is, and is refused in French outside a connected session, to a
 * stranger, past the budget or when it is not text; no log line carries the text.
 */
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CHAT_MESSAGES, type ChatAck, type SessionChatPush } from "#app/remote-support/chat-protocol.ts";
import { SESSION_MESSAGES, type SessionEventView } from "#app/remote-support/protocol.ts";
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

const TEXT = "Bonjour, je vois votre écran — 12 € « ok » ?";
/** Long enough to tell a stray push from none: the relay answers in a few ms on loopback. */
const QUIET_MS = 300;

const say = (socket: TestSocket, code: string, text: unknown) =>
  new Promise<ChatAck>((resolve) => socket.emit("chat:send", { code, text } as never, resolve));
const appSays = (app: DeviceClient, text: unknown) =>
  new Promise<ChatAck>((resolve) => app.emit("device:chat", { text } as never, resolve));

describe.each(DATABASE_KINDS)("session chat relay on %s", (kind) => {
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
  const chatLines = async (code: string) =>
    ((await as("customer", "get", `/api/sessions/${code}/events`)).body.events as SessionEventView[])
      .filter((event) => event.kind === "chat")
      .map(({ text, actor }) => ({ text, actor }));

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const logger = pino(
      { level: "info" },
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

  it("carries a site session's lines both ways, to every tab of each side, and stores them", async () => {
    const code = await openSession(as);
    const customer = await browser("customer");
    const customerOtherTab = await browser("customer");
    const technician = await browser("technician");
    const toTechnician = nextEvent(technician, "session:chat");
    const toOtherTab = nextEvent(customerOtherTab, "session:chat");

    const ack = await say(customer, code.toLowerCase(), `  ${TEXT}  `);
    expect(ack).toMatchObject({ ok: true, line: { from: "customer", name: null, text: TEXT } });
    const [pushed] = (await toTechnician) as [SessionChatPush];
    expect(pushed).toEqual({ code, line: (ack as { line: unknown }).line });
    expect(((await toOtherTab) as [SessionChatPush])[0].line.text).toBe(TEXT);

    const toCustomer = nextEvent(customer, "session:chat");
    const answer = await say(technician, code, "Je prends la main.");
    expect(answer).toMatchObject({
      ok: true,
      // Issue 40: the customer is told the first name of « Camille Tech » only.
      line: { from: "technician", name: "Camille", text: "Je prends la main." },
    });
    expect(((await toCustomer) as [SessionChatPush])[0].line.name).toBe("Camille");

    expect(await chatLines(code)).toEqual([
      { text: TEXT, actor: "customer" },
      { text: "Je prends la main.", actor: "technician" },
    ]);
    expect(logLines.join("")).not.toContain("Je prends la main");
    expect(logLines.join("")).not.toContain("je vois votre écran");
  });

  it("a line posted over HTTP (a page before its scripts) is pushed the same way", async () => {
    const code = await openSession(as);
    const technician = await browser("technician");
    const heard = nextEvent(technician, "session:chat");
    const posted = await as("customer", "post", `/api/sessions/${code}/events`).send({ kind: "chat", text: TEXT });
    expect(posted.status).toBe(201);
    expect(((await heard) as [SessionChatPush])[0]).toMatchObject({ code, line: { from: "customer", text: TEXT } });
  });

  it("refuses a stranger, a session without technician, an empty or oversized line, and a non-text payload", async () => {
    const code = await openSession(as);
    const stranger = await browser("otherCustomer");
    const technician = await browser("technician");
    const heard = record(technician, "session:chat");
    // A stranger learns nothing of the session: the same answer as an unknown code.
    expect(await say(stranger, code, TEXT)).toEqual({ ok: false, message: SESSION_MESSAGES.notFound });
    expect(await say(technician, code, "   ")).toEqual({ ok: false, message: "Le message est vide." });
    expect(await say(technician, code, "a".repeat(1001))).toEqual({
      ok: false,
      message: "Le message dépasse 1000 caractères.",
    });
    expect(await say(technician, code, { html: "<b>" })).toMatchObject({ ok: false });
    expect(await say(technician, code, "nul\u0000")).toMatchObject({ ok: false });

    // No technician yet: nobody to write to.
    const waiting = await openSession(as, "otherCustomer", null);
    expect(await say(stranger, waiting, TEXT)).toEqual({ ok: false, message: SESSION_MESSAGES.notConnected });
    await pause(QUIET_MS);
    expect(heard).toEqual([]);
    expect(await chatLines(code)).toEqual([]);
  });

  it("a flood from one socket is refused past its budget, in French, and stores at most the budget", async () => {
    const code = await openSession(as);
    const customer = await browser("customer");
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => say(customer, code, `message ${i}`)));
    const refused = answers.filter((answer) => !answer.ok);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) expect(answer).toMatchObject({ ok: false, message: expect.stringMatching(/\S/) });
    expect((await chatLines(code)).length).toBe(answers.length - refused.length);
    expect(answers.some((answer) => !answer.ok && answer.message === CHAT_MESSAGES.tooMany)).toBe(true);
  });

  it("the session's app writes as the customer and hears the technician, never its own lines", async () => {
    const code = await openSession(as);
    const app = await connectDevice(server.url, await pairDevice(server, as, code));
    opened.push(app);
    const technician = await browser("technician");
    const appHeard = recordDevice(app, "device:chat");

    const toTechnician = nextEvent(technician, "session:chat");
    const ack = await appSays(app, TEXT);
    expect(ack).toMatchObject({ ok: true, line: { from: "customer", text: TEXT } });
    expect(((await toTechnician) as [SessionChatPush])[0]).toMatchObject({ code, line: { from: "customer" } });

    const toApp = nextDeviceEvent(app, "device:chat");
    await say(technician, code, "Redémarrez, s'il vous plaît.");
    expect((await toApp)[0]).toMatchObject({
      from: "technician",
      name: "Camille",
      text: "Redémarrez, s'il vous plaît.",
    });
    await pause(QUIET_MS);
    expect(appHeard.map(([line]) => line.text)).toEqual(["Redémarrez, s'il vous plaît."]);
    expect(await appSays(app, "")).toEqual({ ok: false, message: "Le message est vide." });
    expect(await chatLines(code)).toEqual([
      { text: TEXT, actor: "customer" },
      { text: "Redémarrez, s'il vous plaît.", actor: "technician" },
    ]);
    expect(logLines.join("")).not.toContain("Redémarrez");
  });
});
