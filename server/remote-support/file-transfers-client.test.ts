/**
 * Issue 38 §2, the technician's side (`file-transfers.ts`) against the real server on PGlite, the customer's app
 * played by a device socket: a file sent whole (hash checked by the app), a file received whole (handed over as a
 * download), a declined file, and a resumed send after the app's connection dropped.
 */
import { createHash } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FILE_LIMITS, FILE_MESSAGES, type FileAck, type FileDelivery } from "#app/remote-support/file-protocol.ts";
import { emptyTables, openTestDatabase, type TestDatabase } from "#tests/support/databases.ts";
import {
  connectSocket,
  createAccounts,
  pause,
  startRemoteSupportServer,
  type RemoteSupportServer,
  type Role,
  type TestAccount,
} from "#tests/support/remote-support.ts";
import { asAccount, connectDevice, openSession, pairDevice, type DeviceClient } from "./device-testing.ts";
import { FileTransfers, type TransferView } from "#app/remote-support/client/file-transfers.ts";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";

const CHUNK = FILE_LIMITS.chunkBytes;
const bytesOf = (length: number) => Uint8Array.from({ length }, (_, i) => (i * 7) % 256);
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const toApp = (app: DeviceClient, message: unknown) =>
  new Promise<FileAck>((resolve) => app.emit("device:file", message as never, resolve));
const onApp = (app: DeviceClient, listener: (delivery: FileDelivery) => void) =>
  (app as unknown as { on(event: string, listener: (delivery: FileDelivery) => void): void }).on(
    "device:file",
    listener,
  );

/** An app that accepts every file from `offset`, writes and acknowledges each chunk, and checks the hash. */
function receivingApp(app: DeviceClient, written: Uint8Array[], startAt = () => 0) {
  onApp(app, (delivery) => {
    if (delivery.type === "offer")
      void toApp(app, { type: "answer", transferId: delivery.transferId, accept: true, offset: startAt() });
    if (delivery.type === "chunk") {
      written.push(new Uint8Array(delivery.data as ArrayBuffer));
      const received = delivery.offset + delivery.data.byteLength;
      void toApp(app, { type: "ack", transferId: delivery.transferId, received });
    }
    if (delivery.type === "end") {
      const whole = Buffer.concat(written);
      void toApp(app, { type: "done", transferId: delivery.transferId, ok: sha256(whole) === delivery.sha256 });
    }
  });
}

describe("FileTransfers, the technician's side of files (issue 38 §2)", () => {
  let database: TestDatabase;
  let server: RemoteSupportServer;
  let accounts: Record<Role, TestAccount>;
  let as: ReturnType<typeof asAccount>;
  const closing: { close(): unknown }[] = [];

  async function setUp(received: { name: string; file: Blob }[] = []) {
    const code = await openSession(as);
    const token = await pairDevice(server, as, code);
    const app = await connectDevice(server.url, token);
    const socket = await connectSocket(server.url, accounts.technician.cookie);
    closing.push(app, socket);
    const views: TransferView[][] = [];
    const transfers: FileTransfers = new FileTransfers({
      socket: socket as unknown as RealtimeSocket,
      code,
      onChange: () => views.push(transfers.views()),
      onReceived: (name, file) => received.push({ name, file }),
    });
    closing.push({ close: () => transfers.destroy() });
    return { code, token, app, transfers, views };
  }

  beforeAll(async () => {
    database = await openTestDatabase("pglite");
    server = await startRemoteSupportServer(database);
    accounts = await createAccounts(server, database);
    as = asAccount(server, accounts);
  });
  beforeEach(async () => {
    await emptyTables(database.db);
  });
  afterEach(() => {
    for (const item of closing.splice(0)) item.close();
  });
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
  });

  it("sends a picked file whole, the app's hash check saying done, with progress on the way", async () => {
    const { app, transfers, views } = await setUp();
    const written: Uint8Array[] = [];
    receivingApp(app, written);
    const bytes = bytesOf(5 * CHUNK + 99);
    expect(await transfers.send(new File([bytes], "pilote.zip"))).toBeNull();
    await expect.poll(() => transfers.views()[0]?.state).toBe("done");
    expect(Buffer.concat(written).equals(Buffer.from(bytes))).toBe(true);
    const progress = views
      .flat()
      .filter((view) => view.state === "running")
      .map((view) => view.done);
    expect(progress.some((done) => done > 0 && done < bytes.length)).toBe(true);
    expect(transfers.views()[0]).toMatchObject({ name: "pilote.zip", size: bytes.length, done: bytes.length });
  });

  it("receives the customer's file once accepted, and hands it over whole", async () => {
    const received: { name: string; file: Blob }[] = [];
    const { app, transfers } = await setUp(received);
    const bytes = bytesOf(3 * CHUNK + 5);
    const offer = (await toApp(app, { type: "offer", name: "journal.txt", size: bytes.length })) as {
      transferId: string;
    };
    await expect.poll(() => transfers.views()[0]?.state).toBe("offered");
    let acked = 0;
    onApp(app, (delivery) => {
      if (delivery.type === "ack") acked = delivery.received;
    });
    transfers.accept(offer.transferId);
    for (let offset = 0; offset < bytes.length; offset += CHUNK) {
      await expect.poll(() => offset - acked < FILE_LIMITS.window * CHUNK).toBe(true);
      const data = bytes.subarray(offset, offset + CHUNK);
      expect(await toApp(app, { type: "chunk", transferId: offer.transferId, offset, data })).toEqual({ ok: true });
    }
    await toApp(app, { type: "end", transferId: offer.transferId, sha256: sha256(bytes) });
    await expect.poll(() => received.length).toBe(1);
    expect(received[0]!.name).toBe("journal.txt");
    expect(Buffer.from(await received[0]!.file.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    expect(transfers.views()[0]?.state).toBe("done");
  });

  it("says when the customer declines", async () => {
    const { app, transfers } = await setUp();
    onApp(app, (delivery) => {
      if (delivery.type === "offer")
        void toApp(app, { type: "answer", transferId: delivery.transferId, accept: false, offset: 0 });
    });
    await transfers.send(new File([bytesOf(10)], "a.txt"));
    await expect.poll(() => transfers.views()[0]).toMatchObject({ state: "declined", message: FILE_MESSAGES.declined });
  });

  it("resumes from the bytes the app has after its connection dropped", async () => {
    const { token, app, transfers } = await setUp();
    const bytes = bytesOf(6 * CHUNK);
    // The first app writes 2 chunks, then its connection drops.
    const first: Uint8Array[] = [];
    let transferId = "";
    onApp(app, (delivery) => {
      if (delivery.type === "offer") {
        transferId = delivery.transferId;
        void toApp(app, { type: "answer", transferId, accept: true, offset: 0 });
      }
      if (delivery.type === "chunk" && first.length < 2) first.push(new Uint8Array(delivery.data as ArrayBuffer));
    });
    await transfers.send(new File([bytes], "gros.bin"));
    await expect.poll(() => first.length).toBe(2);
    app.close();
    const back = await connectDevice(server.url, token);
    closing.push(back);
    const rest: Uint8Array[] = [...first];
    receivingApp(back, rest);
    await toApp(back, { type: "answer", transferId, accept: true, offset: 2 * CHUNK });
    await expect.poll(() => transfers.views()[0]?.state).toBe("done");
    expect(Buffer.concat(rest).equals(Buffer.from(bytes))).toBe(true);
  });

  it("a file the app was sending resumes from the bytes received here once the app is back", async () => {
    const received: { name: string; file: Blob }[] = [];
    const { token, app, transfers } = await setUp(received);
    const bytes = bytesOf(4 * CHUNK);
    const offer = (await toApp(app, { type: "offer", name: "rapport.log", size: bytes.length })) as {
      transferId: string;
    };
    await expect.poll(() => transfers.views()[0]?.state).toBe("offered");
    transfers.accept(offer.transferId);
    for (let offset = 0; offset < 2 * CHUNK; offset += CHUNK)
      await toApp(app, {
        type: "chunk",
        transferId: offer.transferId,
        offset,
        data: bytes.subarray(offset, offset + CHUNK),
      });
    await expect.poll(() => transfers.views()[0]?.done).toBe(2 * CHUNK);
    app.close();
    await pause(300);
    const back = await connectDevice(server.url, token);
    closing.push(back);
    // The page answers again from what it has; the app goes on from there.
    const answer = new Promise<FileDelivery>((resolve) =>
      onApp(back, (delivery) => {
        if (delivery.type === "answer") resolve(delivery);
      }),
    );
    expect(await answer).toMatchObject({ accept: true, offset: 2 * CHUNK });
    for (let offset = 2 * CHUNK; offset < bytes.length; offset += CHUNK)
      await toApp(back, {
        type: "chunk",
        transferId: offer.transferId,
        offset,
        data: bytes.subarray(offset, offset + CHUNK),
      });
    await toApp(back, { type: "end", transferId: offer.transferId, sha256: sha256(bytes) });
    await expect.poll(() => received.length).toBe(1);
    expect(Buffer.from(await received[0]!.file.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
  });
});
