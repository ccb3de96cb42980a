/**
 * Issue 38 §2 « Files both ways, with consent », the app's side of `file-protocol.ts`, over the `/device` link of
 * `connection.ts` (one event, `device:file`, each way; every message acknowledged):
 *
 * - Consent: a file offered by the technician asks the customer, the first time of the session, the « fichiers »
 *   permission (« Autoriser l'échange de fichiers avec le technicien ? »), then each file « Jean veut vous envoyer
 *   « facture.pdf » (1,2 Mo). Accepter ? » (`model.question`, answered by `answer`). The permission refused, every
 *   file waiting is refused and the next one asks again. The technician's `request` asks the permission too, then
 *   opens the chooser (in the terminal, the customer is told to press F). A file the customer sends is their own
 *   choice: it gives the permission.
 * - Receiving: `incoming.ts` (the partial file in Downloads, written, hashed, acknowledged, checked, named).
 * - Sending: `send(path)` (the window's chooser or path field, the terminal's typed path) opens the file, offers it
 *   and hands it to `outgoing.ts` (the window of acknowledgements, the hash, `done`).
 * - A dropped link pauses every transfer; once it is back, received files answer again from the bytes written.
 * Memory is bounded: at most the window in flight, one chunk read at a time, files never held whole, only the last
 * few finished transfers remembered.
 */
import os from "node:os";
import { FILE_MESSAGES, FileMessage, type FileAck } from "#app/remote-support/file-protocol.ts";
import type { DeviceState } from "#app/remote-support/device-protocol.ts";
import type { DeviceSocket } from "../connection.ts";
import { folderLabel } from "./downloads.ts";
import { FILE_IO_MESSAGES, SourceFile } from "./file-io.ts";
import { FILE_TEXTS, type FileQuestion, type FilesModel } from "./file-texts.ts";
import { IncomingTransfer } from "./incoming.ts";
import { OutgoingTransfer } from "./outgoing.ts";
import { reason, type Transfer, type TransferHost } from "./transfer.ts";

/** How long a message waits for the server's acknowledgement, ms. */
export const FILE_ACK_TIMEOUT_MS = 15_000;
/** Finished transfers the views keep showing. */
const FINISHED_SHOWN = 3;

/** What the transfers need of the app's link (`DeviceConnection`). */
export type FileLink = {
  readonly socket: Pick<DeviceSocket, "on" | "off" | "timeout" | "connected">;
  readonly state: DeviceState | null;
  readonly phase: string;
};

export type FileTransfersOptions = {
  /** The Downloads folder (`downloads.ts`), asked once, at the first file accepted. */
  folder(): Promise<string>;
  /**
   * Opens a file chooser: the path picked, null when the customer cancelled, undefined when no chooser can open
   * here. Null option: none in this interface (the terminal: the customer types the path).
   */
  choose: (() => Promise<string | null | undefined>) | null;
  /** Shows `folder` in the file manager (xdg-open, explorer, open). */
  openFolder(folder: string): void;
  /** Something changed (redraw). */
  onChange(): void;
  /** A French note for the customer. */
  notice(message: string): void;
  now?: () => number;
  ackTimeoutMs?: number;
  /** `outgoing.ts`'s `RESUME_WAIT_MS` (tests shorten it). */
  resumeWaitMs?: number;
};

/**
 * A typed or pasted path as the customer means it: surrounding quotes removed (a file manager's copy), `~/`
 * expanded to `home`, a `file://` address decoded.
 */
export function typedPath(text: string, home: string): string {
  let file = text.trim().replace(/^(["'])(.*)\1$/, "$2");
  if (file.startsWith("file://")) {
    try {
      file = decodeURIComponent(new URL(file).pathname);
    } catch {
      // Not an address after all: as typed.
    }
  }
  if (file === "~" || file.startsWith("~/")) file = home + file.slice(1);
  return file;
}

/** One link's file transfers (see the module comment). `start()` once, `close()` at the end. */
export class FileTransfers {
  readonly #link: FileLink;
  readonly #options: FileTransfersOptions;
  readonly #transfers = new Map<string, Transfer>();
  readonly #host: TransferHost;
  #questions: FileQuestion[] = [];
  #permission = false;
  #permissionAsks = 0;
  /** The technician's `request` waits for the permission. */
  #requestWaiting = false;
  #requested = false;
  #pathField = false;
  #choosing = false;
  #folder: Promise<string> | null = null;
  #folderName: string | null = null;
  #closed = false;
  readonly #listener = (payload: unknown) => this.#receive(payload);
  readonly #onConnect = () => this.#each((transfer) => transfer.resume());
  readonly #onDisconnect = () => this.#each((transfer) => transfer.pause());

  constructor(link: FileLink, options: FileTransfersOptions) {
    this.#link = link;
    this.#options = options;
    const emit = (message: FileMessage) =>
      new Promise<FileAck>((resolve) =>
        link.socket
          .timeout(options.ackTimeoutMs ?? FILE_ACK_TIMEOUT_MS)
          .emit("device:file", message, (error: Error | null, ack: FileAck) =>
            resolve(error || !ack ? { ok: false, message: FILE_MESSAGES.failed } : ack),
          ),
      );
    this.#host = {
      emit,
      tell: (message) => void (link.socket.connected && emit(message)),
      connected: () => link.socket.connected,
      changed: () => this.#changed(),
      now: options.now,
    };
  }

  /** Whether the customer can send a file now: a technician joined and the link is up. */
  get available(): boolean {
    return !this.#closed && this.#link.phase === "connected" && Boolean(this.#link.state?.technicianName);
  }

  /** What the views show (a fresh object). */
  get model(): FilesModel {
    const shown = [...this.#transfers.values()].filter((transfer) => transfer.state !== "asking");
    const list = [...shown.filter((t) => t.active), ...shown.filter((t) => t.over).slice(-FINISHED_SHOWN)];
    return {
      question: this.#questions[0] ?? null,
      transfers: list.map((transfer) => transfer.view()),
      available: this.available,
      folderName: this.#folderName ?? "Téléchargements",
      pathField: this.#pathField,
      requested: this.#requested,
    };
  }

  /** Starts listening to `device:file` and to the link's drops and returns. */
  start(): void {
    this.#link.socket.on("device:file", this.#listener);
    this.#link.socket.on("connect", this.#onConnect);
    this.#link.socket.on("disconnect", this.#onDisconnect);
  }

  /**
   * The customer's answer to the question shown (`model.question`): the permission, or a file offered.
   * @returns false when no question was waiting (the key meant something else).
   */
  answer(accept: boolean): boolean {
    const question = this.#questions.shift();
    if (!question) return false;
    if (question.kind === "offer") {
      const transfer = this.#transfers.get(question.id);
      if (transfer instanceof IncomingTransfer) {
        if (accept) void transfer.accept(this.#downloads());
        else transfer.decline();
      }
    } else if (accept) {
      this.#permission = true;
      if (this.#requestWaiting) this.#onRequest();
    } else {
      // No permission: every file waiting is refused, the request dropped; the next file asks again.
      for (const waiting of this.#questions) {
        const transfer = this.#transfers.get(waiting.id);
        if (transfer instanceof IncomingTransfer) transfer.decline();
      }
      this.#questions = [];
      this.#requestWaiting = false;
    }
    this.#changed();
    return true;
  }

  /**
   * Sends the file at `file` (a path typed or picked) to the technician; without one, opens the chooser (or, with
   * none, asks for a path). Says in French, through `notice`, why a file cannot be sent. Never rejects.
   */
  async send(file?: string): Promise<void> {
    if (!this.available) return this.#options.notice(FILE_TEXTS.unavailable);
    let chosen = file?.trim() ? typedPath(file, os.homedir()) : null;
    if (!chosen) {
      if (!this.#options.choose) return this.#showPathField();
      if (this.#choosing) return;
      this.#choosing = true;
      const picked = await this.#options.choose().finally(() => (this.#choosing = false));
      if (picked === undefined) return this.#showPathField(FILE_TEXTS.noChooser);
      if (!picked) return;
      chosen = picked;
    }
    // The customer's own choice: files may be exchanged from now on.
    this.#permission = true;
    let source: SourceFile;
    try {
      source = await SourceFile.open(chosen);
    } catch (error) {
      return this.#options.notice(reason(error, FILE_IO_MESSAGES.unreadable));
    }
    const ack = await this.#host.emit({ type: "offer", name: source.name, size: source.size });
    if (!ack.ok || !ack.transferId) {
      await source.close();
      return this.#options.notice(ack.ok ? FILE_MESSAGES.failed : ack.message);
    }
    this.#requested = false;
    this.#pathField = false;
    const transfer = new OutgoingTransfer(this.#host, ack.transferId, source, this.#options.resumeWaitMs);
    this.#transfers.set(transfer.id, transfer);
    this.#changed();
  }

  /** Stops transfer `id` (default: the first under way) on both sides; a partial file is removed. */
  cancel(id?: string): void {
    const transfer = id ? this.#transfers.get(id) : [...this.#transfers.values()].find((t) => t.active);
    transfer?.cancel();
  }

  /** Shows the Downloads folder in the file manager (once a file was received there). */
  openFolder(): void {
    void this.#folder?.then((folder) => this.#options.openFolder(folder)).catch(() => {});
  }

  /** Stops listening; transfers under way are cancelled and their partial files removed. */
  async close(): Promise<void> {
    this.#each((transfer) => transfer.cancel());
    this.#closed = true;
    this.#link.socket.off("device:file", this.#listener);
    this.#link.socket.off("connect", this.#onConnect);
    this.#link.socket.off("disconnect", this.#onDisconnect);
    await Promise.all([...this.#transfers.values()].map((transfer) => transfer.idle()));
  }

  #each(act: (transfer: Transfer) => void): void {
    for (const transfer of this.#transfers.values()) act(transfer);
    this.#changed();
  }

  /** The Downloads folder, looked up once. */
  #downloads(): Promise<string> {
    this.#folder ??= this.#options.folder().then((folder) => {
      this.#folderName = folderLabel(folder);
      return folder;
    });
    return this.#folder;
  }

  /** Redraws; only the last few finished transfers are kept (bounded memory over a long session). */
  #changed(): void {
    const over = [...this.#transfers.values()].filter((transfer) => transfer.over);
    for (const old of over.slice(0, -FINISHED_SHOWN)) this.#transfers.delete(old.id);
    if (!this.#closed) this.#options.onChange();
  }

  #showPathField(message?: string): void {
    this.#pathField = true;
    if (message) this.#options.notice(message);
    this.#changed();
  }

  #receive(payload: unknown): void {
    // The server checked every message; the app checks again, being what writes to the disk.
    const checked = FileMessage.safeParse(payload);
    if (!checked.success || this.#closed) return;
    const message = checked.data;
    if (message.type === "request") return this.#onRequest();
    if (message.type === "offer") return this.#onOffer(message, payload as Record<string, unknown>);
    const transfer = this.#transfers.get(message.transferId);
    if (!transfer) return;
    if (message.type !== "cancel") return transfer.receive(message);
    this.#questions = this.#questions.filter((question) => question.id !== transfer.id);
    transfer.settle("cancelled", FILE_MESSAGES.cancelled);
  }

  #onOffer(message: Extract<FileMessage, { type: "offer" }>, delivery: Record<string, unknown>): void {
    const id = typeof delivery.transferId === "string" ? delivery.transferId.slice(0, 64) : null;
    if (!id || this.#transfers.has(id)) return;
    const from = typeof delivery.from === "string" ? delivery.from.slice(0, 80) : null;
    this.#transfers.set(id, new IncomingTransfer(this.#host, id, message.name, message.size, from));
    this.#askPermission();
    this.#questions.push({ kind: "offer", id, from, name: message.name, size: message.size });
    this.#changed();
  }

  /** Queues the « fichiers » permission's question, unless given or already waiting. */
  #askPermission(): void {
    if (this.#permission || this.#questions.some((question) => question.kind === "permission")) return;
    this.#permissionAsks += 1;
    this.#questions.unshift({ kind: "permission", id: `permission-${this.#permissionAsks}` });
  }

  /** The technician asks for a file: the chooser opens (after the permission), or the terminal says how. */
  #onRequest(): void {
    this.#requestWaiting = false;
    if (!this.#permission) {
      this.#requestWaiting = true;
      this.#askPermission();
      return this.#changed();
    }
    this.#requested = true;
    this.#changed();
    if (this.#options.choose) void this.send();
  }
}
