/**
 * Issue 27, copy–paste through the server (`clipboard-relay.ts`) on both databases: text reaches the app only
 * from the session's joined technician, and the technician only from the session's app, only while control is
 * allowed (consent and toggle); 64 KB of UTF-8 at most; a few per minute per session; each transfer a line of
 * the session's record without the text, which no log line carries either.
 */
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  CLIPBOARD_LIMITS,
  CLIPBOARD_MAX_BYTES,
  CLIPBOARD_MESSAGES,
  type ClipboardAck,
} from "#app/remote-support/clipboard-protocol.ts";
import type { SessionEventView } from "#app/remote-support/protocol.ts";
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

const TEXT = "Œuvre « test » — 123 €";
/** Long enough to tell a stray relay from none: the relay answers in a few ms on loopback. */
const QUIET_MS = 300;

const paste = (socket: TestSocket, code: string, text: unknown) =>
  new Promise<ClipboardAck>((resolve) => socket.emit("clipboard:paste", { code, text } as never, resolve));
const send = (app: DeviceClient, text: unknown) =>
  new Promise<ClipboardAck>((resolve) => app.emit("device:clipboard", { text } as never, resolve));

describe.each(DATABASE_KINDS)("clipboard relay on %s", (kind) => {
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
  const controlActive = async (code: string) =>
    (await as("technician", "get", `/api/sessions/${code}/device`)).body.device.controlActive as boolean;

  /** A session joined by the technician, its app paired and connected, a whole screen shared; no consent, toggle off. */
  async function pairedSession() {
    const code = await openSession(as);
    const app = await connectDevice(server.url, await pairDevice(server, as, code));
    opened.push(app);
    await as("customer", "post", `/api/sessions/${code}/surface`).send({
      displaySurface: "monitor",
      width: 1280,
      height: 720,
    });
    return { code, app, technician: await browser("technician") };
  }
  async function allowControl(code: string) {
    await as("customer", "post", `/api/sessions/${code}/consent`).send({ allowed: true });
    await as("technician", "post", `/api/sessions/${code}/events`).send({ kind: "control-on" });
    await expect.poll(() => controlActive(code)).toBe(true);
  }
  const clipboardKinds = async (code: string) =>
    ((await as("customer", "get", `/api/sessions/${code}/events`)).body.events as SessionEventView[])
      .filter((event) => event.kind.startsWith("clipboard-"))
      .map(({ kind, text, actor }) => ({ kind, text, actor }));

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

  it("carries the text both ways while control is allowed, recording each transfer without the text", async () => {
    const { code, app, technician } = await pairedSession();
    await allowControl(code);

    const toApp = nextDeviceEvent(app, "device:clipboard");
    expect(await paste(technician, code, TEXT)).toEqual({ ok: true });
    expect((await toApp)[0]).toEqual({ text: TEXT });

    const toTechnician = nextEvent(technician, "clipboard:text");
    const customer = await browser("customer");
    const customerHeard = record(customer, "clipboard:text");
    expect(await send(app, `${TEXT}\n`)).toEqual({ ok: true });
    expect((await toTechnician)[0]).toEqual({ code, text: `${TEXT}\n` });
    await pause(QUIET_MS);
    expect(customerHeard).toEqual([]);

    expect(await clipboardKinds(code)).toEqual([
      { kind: "clipboard-to-customer", text: null, actor: "technician" },
      { kind: "clipboard-to-technician", text: null, actor: "customer" },
    ]);
    expect(logLines.join("")).not.toContain("Œuvre");
  });

  it("refuses both ways before control is allowed, after it is withdrawn, and from anyone else", async () => {
    const { code, app, technician } = await pairedSession();
    const appHeard = recordDevice(app, "device:clipboard");
    const technicianHeard = record(technician, "clipboard:text");
    const notAllowed = { ok: false, message: CLIPBOARD_MESSAGES.notAllowed };

    // Nothing allowed yet; then consent without the toggle; then the toggle without consent.
    expect(await paste(technician, code, TEXT)).toEqual(notAllowed);
    expect(await send(app, TEXT)).toEqual(notAllowed);
    await as("customer", "post", `/api/sessions/${code}/consent`).send({ allowed: true });
    expect(await paste(technician, code, TEXT)).toEqual(notAllowed);
    expect(await send(app, TEXT)).toEqual(notAllowed);
    await as("customer", "post", `/api/sessions/${code}/consent`).send({ allowed: false });
    await as("technician", "post", `/api/sessions/${code}/events`).send({ kind: "control-on" });
    expect(await paste(technician, code, TEXT)).toEqual(notAllowed);
    expect(await send(app, TEXT)).toEqual(notAllowed);

    // Allowed: the customer and another technician still may not paste into this computer.
    await allowControl(code);
    expect(await paste(await browser("customer"), code, TEXT)).toEqual(notAllowed);
    expect(await paste(await browser("otherTechnician"), code, TEXT)).toEqual(notAllowed);

    // Withdrawn in the app: refused again.
    app.emit("device:consent", { allowed: false });
    await expect.poll(() => controlActive(code)).toBe(false);
    expect(await paste(technician, code, TEXT)).toEqual(notAllowed);
    expect(await send(app, TEXT)).toEqual(notAllowed);

    await pause(QUIET_MS);
    expect(appHeard).toEqual([]);
    expect(technicianHeard).toEqual([]);
    expect(await clipboardKinds(code)).toEqual([]);
  });

  it("another session's app never gets the text, nor can it send to this session's technician", async () => {
    const first = await pairedSession();
    await allowControl(first.code);
    const otherCode = await openSession(as, "otherCustomer", null);
    const otherApp = await connectDevice(server.url, await pairDevice(server, as, otherCode, "otherCustomer"));
    opened.push(otherApp);
    const otherHeard = recordDevice(otherApp, "device:clipboard");
    const technicianHeard = record(first.technician, "clipboard:text");

    expect(await paste(first.technician, otherCode, TEXT)).toEqual({
      ok: false,
      message: CLIPBOARD_MESSAGES.notAllowed,
    });
    expect(await send(otherApp, TEXT)).toEqual({ ok: false, message: CLIPBOARD_MESSAGES.notAllowed });
    await pause(QUIET_MS);
    expect(otherHeard).toEqual([]);
    expect(technicianHeard).toEqual([]);
  });

  it("takes exactly 64 KB of UTF-8 and refuses one byte more, empty text or something else than text", async () => {
    const { code, app, technician } = await pairedSession();
    await allowControl(code);
    // "€" is 3 bytes: 21 845 of them and one "a" make 65 536 bytes.
    const largest = `${"€".repeat((CLIPBOARD_MAX_BYTES - 1) / 3)}a`;
    const received = nextDeviceEvent(app, "device:clipboard");
    expect(await paste(technician, code, largest)).toEqual({ ok: true });
    expect((await received)[0].text).toBe(largest);

    const appHeard = recordDevice(app, "device:clipboard");
    const tooLarge = { ok: false, message: "Le texte dépasse 64 Ko : il n'a pas été envoyé." };
    expect(await paste(technician, code, `${largest}b`)).toEqual(tooLarge);
    expect(await send(app, `${largest}b`)).toEqual(tooLarge);
    expect(await paste(technician, code, "")).toEqual({ ok: false, message: CLIPBOARD_MESSAGES.empty });
    expect(await send(app, { image: "png" })).toEqual({ ok: false, message: CLIPBOARD_MESSAGES.notText });
    await pause(QUIET_MS);
    expect(appHeard).toEqual([]);
    expect(await clipboardKinds(code)).toHaveLength(1);
  });

  it("lets a few transfers a minute through per session and direction", async () => {
    const { code, app, technician } = await pairedSession();
    await allowControl(code);
    const answers: ClipboardAck[] = [];
    for (let index = 0; index <= CLIPBOARD_LIMITS.burst; index++) answers.push(await paste(technician, code, TEXT));
    expect(answers.slice(0, -1).every((answer) => answer.ok)).toBe(true);
    expect(answers.at(-1)).toEqual({ ok: false, message: CLIPBOARD_MESSAGES.tooMany });
    // The other direction has its own budget.
    expect(await send(app, TEXT)).toEqual({ ok: true });
    expect(await clipboardKinds(code)).toHaveLength(CLIPBOARD_LIMITS.burst + 1);
  });
});
