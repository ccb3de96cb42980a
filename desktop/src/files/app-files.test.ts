/**
 * Issue 38 §2 « Files both ways, with consent », the whole app in the terminal against the fake server (stdin a
 * pipe: a line at a time): a technician's file asks the « fichiers » permission, then the file; O and N answer
 * them (not a restart's); the technician's request says to press F; F and a typed path send a file, which goes
 * within the window and ends « Envoyé au technicien ». Nothing is written to the Downloads folder here.
 */
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FILE_LIMITS, type FileMessage } from "#app/remote-support/file-protocol.ts";
import { recordingInjector } from "../../test/fakes.ts";
import { type FakeServer, STATE, startFakeServer } from "../../test/fake-server.ts";
import { type AppDeps, runApp } from "../app.ts";

let server: FakeServer;
let folder: string;
beforeEach(async () => {
  server = await startFakeServer();
  folder = mkdtempSync(path.join(os.tmpdir(), "envoi-"));
});
afterEach(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

async function start() {
  const out: string[] = [];
  const stdout = Object.assign(new PassThrough(), { isTTY: true });
  stdout.on("data", (chunk: Buffer) => out.push(chunk.toString()));
  const stdin = new PassThrough();
  const deps: AppDeps = {
    args: [],
    defaultServer: server.url,
    stdin,
    stdout,
    stderr: { write: (text: string) => out.push(text) },
    createInjector: async () => recordingInjector().injector,
    signals: new EventEmitter() as unknown as AppDeps["signals"],
    platform: "linux",
    columns: () => 160,
  };
  const exit = runApp(deps);
  const screen = () => (out.join("").split("\x1b[H\x1b[2J").at(-1) ?? "").replace(/\s+/g, " ");
  await server.waitFor(() => out.join("").includes("Votre prénom"));
  stdin.write("Marie\n");
  await server.waitFor(() => server.statuses.length === 1);
  return { exit, stdin, screen, socket: server.socket()! };
}

const heard = <T extends FileMessage["type"]>(type: T) =>
  server.files.filter((message) => message.type === type) as Extract<FileMessage, { type: T }>[];

describe("files in the terminal", () => {
  it("asks the permission and the file with O/N, says how to answer a request, sends a typed path", async () => {
    const app = await start();
    app.socket.emit("device:state", STATE);
    await server.waitFor(() => app.screen().includes("F : envoyer un fichier au technicien"));

    const transferId = randomUUID();
    app.socket.emit("device:file", { type: "offer", transferId, name: "facture.pdf", size: 1_200_000, from: "Julien" });
    await server.waitFor(() => app.screen().includes("? Autoriser l'échange de fichiers avec le technicien ?"));
    app.stdin.write("o\n");
    await server.waitFor(() =>
      app.screen().includes("? Julien veut vous envoyer « facture.pdf » (1,2 Mo). Accepter ?"),
    );
    app.stdin.write("n\n");
    expect(await server.waitFor(() => heard("answer")[0])).toEqual({
      type: "answer",
      transferId,
      accept: false,
      offset: 0,
    });
    await server.waitFor(() => !app.screen().includes("Accepter ?"));

    app.socket.emit("device:file", { type: "request" });
    await server.waitFor(() => app.screen().includes("Le technicien vous demande un fichier : appuyez sur F"));

    const bytes = Uint8Array.from({ length: 3 * FILE_LIMITS.chunkBytes + 9 }, (_, i) => i % 256);
    const file = path.join(folder, "journal de bord.txt");
    writeFileSync(file, bytes);
    const sentId = randomUUID();
    server.fileAnswer = (message) => (message.type === "offer" ? { ok: true, transferId: sentId } : { ok: true });
    app.stdin.write("f\n");
    await server.waitFor(() => app.screen().includes("Chemin du fichier à envoyer"));
    app.stdin.write(`"${file}"\n`);
    expect(await server.waitFor(() => heard("offer")[0])).toEqual({
      type: "offer",
      name: "journal de bord.txt",
      size: bytes.length,
    });
    await server.waitFor(() => app.screen().includes("en attente de la réponse du technicien"));
    app.socket.emit("device:file", { type: "answer", transferId: sentId, accept: true, offset: 0 });
    const chunks = await server.waitFor(() => heard("chunk").length === 4 && heard("chunk"));
    app.socket.emit("device:file", { type: "ack", transferId: sentId, received: bytes.length });
    const end = await server.waitFor(() => heard("end")[0]);
    expect(Buffer.concat(chunks.map((chunk) => Buffer.from(chunk.data as Uint8Array))).equals(Buffer.from(bytes))).toBe(
      true,
    );
    app.socket.emit("device:file", { type: "done", transferId: sentId, ok: true });
    await server.waitFor(() => app.screen().includes("Envoyé au technicien : journal de bord.txt"));
    expect(end.transferId).toBe(sentId);
    app.stdin.write("\u0003\n");
    expect(await app.exit).toBe(0);
  });
});
