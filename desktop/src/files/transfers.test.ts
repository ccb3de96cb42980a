/**
 * Issue 38 §2 « Files both ways, with consent », the app's transfers against the fake server over a real Socket.IO
 * link, a temporary folder standing for Downloads: a file received whole after the « fichiers » permission and
 * the customer's « Accepter », named safely (a « ../ » name stays inside), given a new name when one exists; a hash
 * mismatch and a cancel remove the partial file; a declined offer writes nothing; a dropped link resumes from the
 * bytes written; a file sent to the technician never runs more than the window ahead of the acknowledgements.
 */
import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FILE_LIMITS, FILE_MESSAGES, type FileDelivery, type FileMessage } from "#app/remote-support/file-protocol.ts";
import { type FakeServer, STATE, startFakeServer, TOKEN } from "../../test/fake-server.ts";
import { defaultSocketFactory, type DeviceSocket } from "../connection.ts";
import { questionText, transferLine } from "./file-texts.ts";
import { FileTransfers } from "./transfers.ts";

const CHUNK = FILE_LIMITS.chunkBytes;
const WINDOW = FILE_LIMITS.window * CHUNK;
const fileOf = (length: number) => Uint8Array.from({ length }, (_, i) => (i * 7) % 251);
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

let server: FakeServer;
let socket: DeviceSocket;
let root: string;
let downloads: string;
const started: FileTransfers[] = [];

beforeEach(async () => {
  server = await startFakeServer();
  socket = defaultSocketFactory(server.url)(TOKEN);
  await server.waitFor(() => socket.connected && server.socket());
  root = mkdtempSync(path.join(os.tmpdir(), "fichiers-"));
  downloads = path.join(root, "Téléchargements");
});
afterEach(async () => {
  for (const files of started.splice(0)) await files.close();
  socket.close();
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

/** The app's transfers on the test's link; `choose`: the chooser's answer. */
function transfers(choose: (() => Promise<string | null | undefined>) | null = null) {
  const link = {
    socket,
    state: STATE,
    get phase() {
      return socket.connected ? "connected" : "reconnecting";
    },
  };
  const notices: string[] = [];
  const opened: string[] = [];
  const files = new FileTransfers(link, {
    folder: async () => downloads,
    choose,
    openFolder: (folder) => opened.push(folder),
    onChange: () => {},
    notice: (message) => notices.push(message),
    resumeWaitMs: 2_000,
  });
  files.start();
  started.push(files);
  return { files, notices, opened };
}

/** The technician (through the server) says `delivery` to the app. */
const technician = (delivery: FileDelivery) => server.socket()!.emit("device:file", delivery);
const heard = <T extends FileMessage["type"]>(type: T, id?: string) =>
  server.files.filter((m) => m.type === type && (!id || ("transferId" in m && m.transferId === id))) as Extract<
    FileMessage,
    { type: T }
  >[];
const acked = (id: string) => Math.max(0, ...heard("ack", id).map((ack) => ack.received));

/** Offers `bytes` as `name` and answers the customer's questions (`permission` first when `askPermission`). */
async function offer(files: FileTransfers, name: string, bytes: Uint8Array, accept = true, askPermission = true) {
  const transferId = randomUUID();
  technician({ type: "offer", transferId, name, size: bytes.length, from: "Jean" });
  if (askPermission) {
    const permission = await server.waitFor(() => files.model.question ?? undefined);
    expect(questionText(permission)).toBe("Autoriser l'échange de fichiers avec le technicien ?");
    expect(files.answer(true)).toBe(true);
  }
  await server.waitFor(() => files.model.question?.kind === "offer");
  expect(files.answer(accept)).toBe(true);
  expect(files.answer(true)).toBe(false);
  const answer = await server.waitFor(() => heard("answer", transferId)[0]);
  return { transferId, answer };
}

/** Sends `bytes` from `from` in chunks, never more than the window ahead of the app's acknowledgements. */
async function sendChunks(transferId: string, bytes: Uint8Array, from = 0, until = bytes.length) {
  for (let offset = from; offset < until; offset += CHUNK) {
    await server.waitFor(() => offset - acked(transferId) < WINDOW);
    technician({
      type: "chunk",
      transferId,
      offset,
      data: bytes.subarray(offset, Math.min(offset + CHUNK, bytes.length)),
    });
  }
  await server.waitFor(() => acked(transferId) >= Math.min(until, bytes.length));
}

describe("a file from the technician", () => {
  it("asks the permission, then the file; saved whole in Downloads under its bare name", async () => {
    const { files, opened } = transfers();
    const bytes = fileOf(5 * CHUNK + 123);
    const transferId = randomUUID();
    technician({ type: "offer", transferId, name: "../../secret/facture.pdf", size: bytes.length, from: "Jean" });
    await server.waitFor(() => files.model.question?.kind === "permission");
    files.answer(true);
    const question = await server.waitFor(() => files.model.question?.kind === "offer" && files.model.question);
    expect(questionText(question)).toBe("Jean veut vous envoyer « facture.pdf » (327,8 Ko). Accepter ?");
    files.answer(true);
    expect(await server.waitFor(() => heard("answer", transferId)[0])).toEqual({
      type: "answer",
      transferId,
      accept: true,
      offset: 0,
    });
    await sendChunks(transferId, bytes);
    technician({ type: "end", transferId, sha256: sha256(bytes) });
    expect(await server.waitFor(() => heard("done", transferId)[0])).toEqual({ type: "done", transferId, ok: true });

    expect(readdirSync(downloads)).toEqual(["facture.pdf"]);
    expect(readdirSync(root)).toEqual(["Téléchargements"]);
    expect(Buffer.from(readFileSync(path.join(downloads, "facture.pdf"))).equals(Buffer.from(bytes))).toBe(true);
    const [saved] = files.model.transfers;
    expect(transferLine(saved!, files.model.folderName)).toBe("Enregistré dans Téléchargements : facture.pdf");
    files.openFolder();
    await server.waitFor(() => opened.length === 1);
    expect(opened).toEqual([downloads]);

    // The permission is asked once per session.
    const second = await offer(files, "notes.txt", fileOf(10), true, false);
    expect(second.answer).toMatchObject({ accept: true });
  });

  it("gives a new name when the file exists, and leaves the existing one alone", async () => {
    mkdirSync(downloads);
    writeFileSync(path.join(downloads, "facture.pdf"), "ancienne");
    const { files } = transfers();
    const bytes = fileOf(1000);
    const { transferId } = await offer(files, "facture.pdf", bytes);
    await sendChunks(transferId, bytes);
    technician({ type: "end", transferId, sha256: sha256(bytes) });
    await server.waitFor(() => heard("done", transferId)[0]);
    expect(readdirSync(downloads).sort()).toEqual(["facture (1).pdf", "facture.pdf"]);
    expect(readFileSync(path.join(downloads, "facture.pdf"), "utf8")).toBe("ancienne");
    expect(files.model.transfers[0]!.savedAs).toBe("facture (1).pdf");
  });

  it("removes the partial file on a hash mismatch and says so", async () => {
    const { files } = transfers();
    const bytes = fileOf(2 * CHUNK + 5);
    const { transferId } = await offer(files, "pilote.zip", bytes);
    await sendChunks(transferId, bytes);
    expect(readdirSync(downloads)).toEqual(["pilote.zip.partiel"]);
    technician({ type: "end", transferId, sha256: "0".repeat(64) });
    expect(await server.waitFor(() => heard("done", transferId)[0])).toEqual({
      type: "done",
      transferId,
      ok: false,
      message: FILE_MESSAGES.hashMismatch,
    });
    await server.waitFor(() => readdirSync(downloads).length === 0);
    expect(files.model.transfers[0]).toMatchObject({ state: "failed", message: FILE_MESSAGES.hashMismatch });
  });

  it("removes the partial file when the technician cancels", async () => {
    const { files } = transfers();
    const bytes = fileOf(6 * CHUNK);
    const { transferId } = await offer(files, "gros.iso", bytes);
    await sendChunks(transferId, bytes, 0, 3 * CHUNK);
    expect(readdirSync(downloads)).toEqual(["gros.iso.partiel"]);
    technician({ type: "cancel", transferId });
    await server.waitFor(() => readdirSync(downloads).length === 0);
    expect(files.model.transfers[0]).toMatchObject({ state: "cancelled" });

    // The customer's « Annuler » (X): the technician is told, the partial file goes too.
    const again = await offer(files, "gros.iso", bytes, true, false);
    await sendChunks(again.transferId, bytes, 0, 2 * CHUNK);
    expect(readdirSync(downloads)).toEqual(["gros.iso.partiel"]);
    files.cancel();
    expect(await server.waitFor(() => heard("cancel", again.transferId)[0])).toEqual({
      type: "cancel",
      transferId: again.transferId,
    });
    await server.waitFor(() => readdirSync(downloads).length === 0);
  });

  it("writes nothing for a declined file, nor when the permission is refused", async () => {
    const { files } = transfers();
    const { answer } = await offer(files, "facture.pdf", fileOf(100), false);
    expect(answer).toMatchObject({ accept: false, offset: 0 });
    expect(existsSync(downloads)).toBe(false);

    const refused = transfers().files;
    const transferId = randomUUID();
    technician({ type: "offer", transferId, name: "a.txt", size: 3, from: null });
    await server.waitFor(() => refused.model.question?.kind === "permission");
    refused.answer(false);
    // Every `answer` the fake heard for this transfer: the refusal, once.
    expect(await server.waitFor(() => heard("answer", transferId)[0])).toMatchObject({ accept: false });
    expect(refused.model.question).toBeNull();
    expect(existsSync(downloads)).toBe(false);
  });

  it("resumes after the link dropped, from the bytes written, and the file arrives whole", async () => {
    const { files } = transfers();
    const bytes = fileOf(6 * CHUNK + 77);
    const { transferId } = await offer(files, "journal.log", bytes);
    await sendChunks(transferId, bytes, 0, 3 * CHUNK);
    server.socket()!.conn.close();
    await server.waitFor(() => files.model.transfers[0]?.state === "paused");
    expect(readdirSync(downloads)).toEqual(["journal.log.partiel"]);
    // Back: the app answers again from what it wrote.
    const resumed = await server.waitFor(() => heard("answer", transferId)[1], 10_000);
    expect(resumed).toEqual({ type: "answer", transferId, accept: true, offset: 3 * CHUNK });
    await sendChunks(transferId, bytes, 3 * CHUNK);
    technician({ type: "end", transferId, sha256: sha256(bytes) });
    expect(await server.waitFor(() => heard("done", transferId)[0])).toMatchObject({ ok: true });
    expect(Buffer.from(readFileSync(path.join(downloads, "journal.log"))).equals(Buffer.from(bytes))).toBe(true);
  });
});

describe("a file to the technician", () => {
  it("offers it, sends it within the window of acknowledgements, ends with its hash", async () => {
    const source = path.join(root, "capture écran.png");
    const bytes = fileOf(20 * CHUNK + 5);
    writeFileSync(source, bytes);
    const { files, notices } = transfers(async () => source);
    await files.send();
    const offered = heard("offer")[0]!;
    expect(offered).toEqual({ type: "offer", name: "capture écran.png", size: bytes.length });
    const transferId = (await server.waitFor(() => files.model.transfers[0]))!.id;
    expect(files.model.transfers[0]).toMatchObject({ state: "waiting", direction: "to-technician" });

    technician({ type: "answer", transferId, accept: true, offset: 0 });
    let received = 0;
    while (received < bytes.length) {
      await server.waitFor(() => heard("chunk", transferId).length > 0 && true);
      // Give the app time to overrun the window if it would.
      await new Promise((resolve) => setTimeout(resolve, 30));
      const chunks = heard("chunk", transferId);
      const sent = chunks.reduce((sum, chunk) => sum + chunk.data.byteLength, 0);
      expect(sent - received).toBeLessThanOrEqual(WINDOW);
      if (sent > received) {
        received = sent;
        technician({ type: "ack", transferId, received });
      }
    }
    const whole = Buffer.concat(heard("chunk", transferId).map((chunk) => Buffer.from(chunk.data as Uint8Array)));
    expect(whole.equals(Buffer.from(bytes))).toBe(true);
    const end = await server.waitFor(() => heard("end", transferId)[0]);
    expect(end.sha256).toBe(sha256(bytes));
    technician({ type: "done", transferId, ok: true });
    await server.waitFor(() => files.model.transfers[0]?.state === "done");
    expect(transferLine(files.model.transfers[0]!, "Téléchargements")).toBe("Envoyé au technicien : capture écran.png");
    expect(notices).toEqual([]);
  });

  it("says why a file cannot be sent, and shows the path field when there is no chooser", async () => {
    const { files, notices } = transfers(async () => undefined);
    await files.send();
    expect(files.model.pathField).toBe(true);
    await files.send(path.join(root, "absent.txt"));
    expect(notices.at(-1)).toBe("Ce fichier ne peut pas être lu.");
    expect(heard("offer")).toEqual([]);
  });
});
