/**
 * Issue 38 §2, files through the server (`file-relay.ts`) on both databases: a file each way between the joined
 * technician's browser and the session's app, chunk by chunk within the window, checked by its hash at the end; a
 * declined file, one too large, a stranger, a chunk out of order or past the window, and a transfer resumed after
 * the app's connection dropped. The log names a transfer by a hash of its name, never its content.
 */
import { createHash } from "node:crypto";
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  FILE_LIMITS,
  FILE_MESSAGES,
  type FileAck,
  type FileDelivery,
  type FileMessage,
} from "#app/remote-support/file-protocol.ts";
import { DATABASE_KINDS, emptyTables, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  connectSocket,
  createAccounts,
  pause,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type Role,
  type TestAccount,
  type TestSocket,
} from "#tests/support/remote-support.ts";
import { asAccount, connectDevice, openSession, pairDevice, type DeviceClient } from "./device-testing.ts";

const CHUNK = FILE_LIMITS.chunkBytes;
/** A file of `chunks` chunks and a bit, each byte its offset modulo 251. */
const fileOf = (chunks: number) => Uint8Array.from({ length: chunks * CHUNK + 123 }, (_, i) => i % 251);
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

type Delivery = { code: string; message: FileDelivery };

const fromBrowser = (socket: TestSocket, code: string, message: unknown) =>
  new Promise<FileAck>((resolve) => socket.emit("file", { code, message } as never, resolve));
const fromApp = (app: DeviceClient, message: unknown) =>
  new Promise<FileAck>((resolve) => app.emit("device:file", message as never, resolve));

/** Everything `socket` hears on `file` (a browser) or `device:file` (the app), as deliveries. */
function hear(socket: TestSocket | DeviceClient, event: "file" | "device:file"): FileDelivery[] {
  const heard: FileDelivery[] = [];
  (socket as unknown as { on(event: string, listener: (value: unknown) => void): void }).on(event, (value) =>
    heard.push(event === "file" ? (value as Delivery).message : (value as FileDelivery)),
  );
  return heard;
}
const waitFor = async <T extends FileDelivery["type"]>(heard: FileDelivery[], type: T, at = 0) => {
  await expect.poll(() => heard.filter((message) => message.type === type).length).toBeGreaterThan(at);
  return heard.filter((message) => message.type === type)[at] as Extract<FileDelivery, { type: T }>;
};

describe.each(DATABASE_KINDS)("file relay on %s", (kind) => {
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
  /** A site session joined by the technician, its app paired and connected. */
  async function pairedSession() {
    const code = await openSession(as);
    const token = await pairDevice(server, as, code);
    const app = await connectDevice(server.url, token);
    opened.push(app);
    return { code, token, app, technician: await browser("technician") };
  }

  /** Sends `bytes` from `send` in order, never more than the window ahead of `acked()`. */
  async function sendChunks(
    send: (message: FileMessage) => Promise<FileAck>,
    transferId: string,
    bytes: Uint8Array,
    from: number,
    acked: () => number,
  ) {
    for (let offset = from; offset < bytes.length; offset += CHUNK) {
      await expect.poll(() => offset - acked() < FILE_LIMITS.window * CHUNK).toBe(true);
      const data = bytes.subarray(offset, Math.min(offset + CHUNK, bytes.length));
      expect(await send({ type: "chunk", transferId, offset, data })).toEqual({ ok: true });
    }
  }

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

  it("a file from the technician to the app: offered with a bare name, accepted, sent within the window, checked", async () => {
    const { code, app, technician } = await pairedSession();
    const appHeard = hear(app, "device:file");
    const techHeard = hear(technician, "file");
    const bytes = fileOf(20);

    const offered = await fromBrowser(technician, code, {
      type: "offer",
      name: "../../secret/facture.pdf",
      size: bytes.length,
    });
    expect(offered).toMatchObject({ ok: true, transferId: expect.any(String) });
    const transferId = (offered as { transferId: string }).transferId;
    expect(await waitFor(appHeard, "offer")).toEqual({
      type: "offer",
      transferId,
      name: "facture.pdf",
      size: bytes.length,
      from: "Camille", // Issue 40: the first name of « Camille Tech » only.
    });

    expect(await fromApp(app, { type: "answer", transferId, accept: true, offset: 0 })).toEqual({ ok: true });
    expect(await waitFor(techHeard, "answer")).toMatchObject({ accept: true, offset: 0 });

    // The app writes what comes and acknowledges every chunk.
    const received: Uint8Array[] = [];
    let acked = 0;
    (app as unknown as { on(event: string, listener: (value: FileDelivery) => void): void }).on(
      "device:file",
      (message) => {
        if (message.type !== "chunk") return;
        received.push(new Uint8Array(message.data as ArrayBuffer));
        void fromApp(app, { type: "ack", transferId, received: message.offset + message.data.byteLength });
      },
    );
    const techAcks = () =>
      Math.max(0, ...techHeard.filter((m) => m.type === "ack").map((m) => (m as { received: number }).received));
    await sendChunks(
      (message) => fromBrowser(technician, code, message),
      transferId,
      bytes,
      0,
      () => (acked = techAcks()),
    );
    expect(await fromBrowser(technician, code, { type: "end", transferId, sha256: sha256(bytes) })).toEqual({
      ok: true,
    });
    const end = await waitFor(appHeard, "end");
    const whole = Buffer.concat(received);
    expect(whole.equals(Buffer.from(bytes))).toBe(true);
    expect(end.sha256).toBe(sha256(whole));
    expect(await fromApp(app, { type: "done", transferId, ok: true })).toEqual({ ok: true });
    expect(await waitFor(techHeard, "done")).toMatchObject({ ok: true });
    expect(acked).toBeGreaterThan(0);

    const log = logLines.join("");
    expect(log).toContain("fichier : transfert terminé");
    expect(log).toContain("réussi");
    expect(log).not.toContain("facture");
  });

  it("a file from the app to the technician, the tab that answers taking it", async () => {
    const { code, app, technician } = await pairedSession();
    const otherTab = await browser("technician");
    const techHeard = hear(technician, "file");
    const otherHeard = hear(otherTab, "file");
    const appHeard = hear(app, "device:file");
    const bytes = fileOf(3);
    const offered = (await fromApp(app, { type: "offer", name: "journal.txt", size: bytes.length })) as {
      transferId: string;
    };
    const offer = await waitFor(techHeard, "offer");
    expect(offer).toMatchObject({ name: "journal.txt", from: null });
    await waitFor(otherHeard, "offer");
    expect(
      await fromBrowser(technician, code, { type: "answer", transferId: offered.transferId, accept: true, offset: 0 }),
    ).toEqual({ ok: true });
    await waitFor(appHeard, "answer");
    const send = (message: FileMessage) => fromApp(app, message);
    await sendChunks(send, offered.transferId, bytes, 0, () => bytes.length);
    await send({ type: "end", transferId: offered.transferId, sha256: sha256(bytes) });
    await waitFor(techHeard, "end");
    await pause(200);
    // Only the tab that accepted gets the content.
    expect(techHeard.filter((m) => m.type === "chunk")).toHaveLength(4);
    expect(otherHeard.filter((m) => m.type === "chunk")).toHaveLength(0);
  });

  it("refuses a stranger, a file too large, a declined file, and cancels on a chunk out of order", async () => {
    const { code, app, technician } = await pairedSession();
    const customer = await browser("customer");
    expect(await fromBrowser(customer, code, { type: "offer", name: "a.txt", size: 10 })).toEqual({
      ok: false,
      message: FILE_MESSAGES.notAvailable,
    });
    expect(
      await fromBrowser(technician, code, { type: "offer", name: "a.iso", size: FILE_LIMITS.maxFileBytes + 1 }),
    ).toEqual({ ok: false, message: FILE_MESSAGES.tooLarge });
    expect(await fromBrowser(technician, code, { type: "offer", name: "..", size: 10 })).toEqual({
      ok: false,
      message: FILE_MESSAGES.badName,
    });

    const techHeard = hear(technician, "file");
    const appHeard = hear(app, "device:file");
    const declined = (await fromBrowser(technician, code, { type: "offer", name: "a.txt", size: 10 })) as {
      transferId: string;
    };
    await fromApp(app, { type: "answer", transferId: declined.transferId, accept: false, offset: 0 });
    expect(await waitFor(techHeard, "answer")).toMatchObject({ accept: false });
    expect(
      await fromBrowser(technician, code, {
        type: "chunk",
        transferId: declined.transferId,
        offset: 0,
        data: new Uint8Array(10),
      }),
    ).toEqual({ ok: false, message: FILE_MESSAGES.unknown });

    const bytes = fileOf(2);
    const offered = (await fromBrowser(technician, code, { type: "offer", name: "b.bin", size: bytes.length })) as {
      transferId: string;
    };
    await fromApp(app, { type: "answer", transferId: offered.transferId, accept: true, offset: 0 });
    const skipped = {
      type: "chunk",
      transferId: offered.transferId,
      offset: CHUNK,
      data: bytes.subarray(CHUNK, 2 * CHUNK),
    };
    expect(await fromBrowser(technician, code, skipped)).toEqual({ ok: false, message: FILE_MESSAGES.outOfOrder });
    await waitFor(appHeard, "cancel");
    await waitFor(techHeard, "cancel");
    expect(logLines.join("")).toContain("règle enfreinte");
  });

  it("a sender past the window is cancelled: nothing piles up in the server", async () => {
    const { code, app, technician } = await pairedSession();
    const appHeard = hear(app, "device:file");
    const bytes = fileOf(FILE_LIMITS.window + 2);
    const offered = (await fromBrowser(technician, code, { type: "offer", name: "gros.bin", size: bytes.length })) as {
      transferId: string;
    };
    await fromApp(app, { type: "answer", transferId: offered.transferId, accept: true, offset: 0 });
    const answers: FileAck[] = [];
    for (let offset = 0; offset < (FILE_LIMITS.window + 1) * CHUNK; offset += CHUNK)
      answers.push(
        await fromBrowser(technician, code, {
          type: "chunk",
          transferId: offered.transferId,
          offset,
          data: bytes.subarray(offset, offset + CHUNK),
        }),
      );
    expect(answers.slice(0, FILE_LIMITS.window).every((answer) => answer.ok)).toBe(true);
    expect(answers.at(-1)).toEqual({ ok: false, message: FILE_MESSAGES.outOfOrder });
    await waitFor(appHeard, "cancel");
    expect(appHeard.filter((m) => m.type === "chunk")).toHaveLength(FILE_LIMITS.window);
  });

  it("resumes after the app's connection dropped, from the bytes it has, and the file arrives whole", async () => {
    const { code, token, app, technician } = await pairedSession();
    const techHeard = hear(technician, "file");
    const bytes = fileOf(6);
    const offered = (await fromBrowser(technician, code, {
      type: "offer",
      name: "pilote.zip",
      size: bytes.length,
    })) as {
      transferId: string;
    };
    const transferId = offered.transferId;
    await fromApp(app, { type: "answer", transferId, accept: true, offset: 0 });
    const send = (message: FileMessage) => fromBrowser(technician, code, message);
    for (let offset = 0; offset < 3 * CHUNK; offset += CHUNK)
      await send({ type: "chunk", transferId, offset, data: bytes.subarray(offset, offset + CHUNK) });
    await pause(100);
    app.close();

    // The app comes back with what it wrote (3 chunks) and answers again from there.
    const back = await connectDevice(server.url, token);
    opened.push(back);
    const backHeard = hear(back, "device:file");
    expect(await fromApp(back, { type: "answer", transferId, accept: true, offset: 3 * CHUNK })).toEqual({ ok: true });
    expect(await waitFor(techHeard, "answer", 1)).toMatchObject({ offset: 3 * CHUNK });
    await sendChunks(send, transferId, bytes, 3 * CHUNK, () => bytes.length);
    await send({ type: "end", transferId, sha256: sha256(bytes) });
    await waitFor(backHeard, "end");
    const resumed = backHeard.filter((m) => m.type === "chunk") as Extract<FileDelivery, { type: "chunk" }>[];
    expect(resumed[0]?.offset).toBe(3 * CHUNK);
    expect(resumed.reduce((sum, m) => sum + m.data.byteLength, 3 * CHUNK)).toBe(bytes.length);
  });

  it("a chunk sent again after a resume, its first copy relayed meanwhile, is not a broken rule", async () => {
    const { code, token, app, technician } = await pairedSession();
    const bytes = fileOf(5);
    const { transferId } = (await fromBrowser(technician, code, {
      type: "offer",
      name: "x.bin",
      size: bytes.length,
    })) as {
      transferId: string;
    };
    await fromApp(app, { type: "answer", transferId, accept: true, offset: 0 });
    const send = (message: FileMessage) => fromBrowser(technician, code, message);
    const chunk = (offset: number) => ({
      type: "chunk" as const,
      transferId,
      offset,
      data: bytes.subarray(offset, offset + CHUNK),
    });
    for (let offset = 0; offset < 2 * CHUNK; offset += CHUNK) await send(chunk(offset));
    await pause(100);
    app.close();
    const back = await connectDevice(server.url, token);
    opened.push(back);
    const backHeard = hear(back, "device:file");
    // The app had one chunk; the browser's next chunk was in flight and arrives just after the resume.
    await fromApp(back, { type: "answer", transferId, accept: true, offset: CHUNK });
    expect(await send(chunk(CHUNK))).toEqual({ ok: true });
    // The browser, told of the resume, sends again from there: the same bytes, acknowledged, not relayed twice.
    expect(await send(chunk(CHUNK))).toEqual({ ok: true });
    await sendChunks(send, transferId, bytes, 2 * CHUNK, () => bytes.length);
    expect(await send({ type: "end", transferId, sha256: sha256(bytes) })).toEqual({ ok: true });
    await waitFor(backHeard, "end");
    const offsets = backHeard.filter((m) => m.type === "chunk").map((m) => (m as { offset: number }).offset);
    const expected: number[] = [];
    for (let offset = CHUNK; offset < bytes.length; offset += CHUNK) expected.push(offset);
    expect(offsets).toEqual(expected);
    expect(backHeard.some((m) => m.type === "cancel")).toBe(false);
  });
});
