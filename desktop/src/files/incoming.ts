/**
 * Issue 38 §2 « Files both ways, with consent »: a file the technician sends to the customer's computer. Offered,
 * it waits for the customer (`asking`); accepted, its partial file `<Downloads>/<name>.partiel` is created
 * (`file-io.ts`: only `safeFileName(name)` is used) before the `answer` from byte 0; each `chunk` is written at its
 * offset, in order behind the writes before it, hashed and acknowledged (`ack`); at `end` the hash is compared and
 * the file takes its final name (a new one if taken), then `done`. A dropped link keeps the partial file; once the
 * link is back the transfer answers again from the bytes written. Cancelled or failed, the partial file is removed.
 */
import path from "node:path";
import type { FileMessage } from "#app/remote-support/file-protocol.ts";
import { FILE_IO_MESSAGES, PartialFile } from "./file-io.ts";
import { reason, Transfer, type TransferHost } from "./transfer.ts";

/** A file received (see the module comment). */
export class IncomingTransfer extends Transfer {
  readonly direction = "to-customer" as const;
  /** Who sends it (the technician's name), null when unknown. */
  readonly from: string | null;
  #file: PartialFile | null = null;
  /** Disk work in order: writes, the end, the removal. */
  #queue: Promise<void> = Promise.resolve();

  constructor(host: TransferHost, id: string, name: string, size: number, from: string | null) {
    super(host, id, name, size, "asking");
    this.from = from;
  }

  /** The customer accepted: the partial file is created in `folder`, then the answer is sent from byte 0. */
  async accept(folder: Promise<string>): Promise<void> {
    if (this.state !== "asking") return;
    this.state = "running";
    this.host.changed();
    let file: PartialFile;
    try {
      file = await PartialFile.create(await folder, this.name);
    } catch (error) {
      void this.host.emit({ type: "answer", transferId: this.id, accept: false, offset: 0 });
      return this.settle("failed", reason(error, FILE_IO_MESSAGES.write));
    }
    // Cancelled while the file was created; paused (the link dropped), the answer waits for the link.
    if (this.over) return void file.discard();
    this.#file = file;
    this.state = "running";
    const ack = await this.host.emit({ type: "answer", transferId: this.id, accept: true, offset: 0 });
    if (!ack.ok) this.settle("failed", ack.message);
  }

  /** The customer refused: `answer` with `accept: false`; nothing is written. */
  decline(): void {
    if (this.state !== "asking") return;
    void this.host.emit({ type: "answer", transferId: this.id, accept: false, offset: 0 });
    this.settle("declined", "");
  }

  receive(message: FileMessage): void {
    if (message.type !== "chunk" && message.type !== "end") return;
    this.#queue = this.#queue.then(() => (message.type === "chunk" ? this.#write(message) : this.#end(message.sha256)));
  }

  pause(): void {
    if (this.state !== "running") return;
    this.state = "paused";
    this.meter.reset();
  }

  /** Answers again from the bytes written (once the writes under way are done): the sender resumes there. */
  resume(): void {
    this.#queue = this.#queue.then(async () => {
      if (this.state !== "paused" || !this.#file) return;
      const offset = this.#file.written;
      const ack = await this.host.emit({ type: "answer", transferId: this.id, accept: true, offset });
      if (!ack.ok) return this.fail(ack.message);
      if (this.state === "paused") this.state = "running";
      this.host.changed();
    });
  }

  idle(): Promise<void> {
    return this.#queue;
  }

  protected release(): void {
    const file = this.#file;
    this.#file = null;
    if (file) this.#queue = this.#queue.then(() => file.discard());
  }

  async #write(message: Extract<FileMessage, { type: "chunk" }>): Promise<void> {
    const file = this.#file;
    if (!file || (this.state !== "running" && this.state !== "paused")) return;
    // Paused (the link dropped), a chunk not at the next byte is one the sender will send again.
    if (this.state === "paused" && message.offset !== file.written) return;
    const data = message.data instanceof Uint8Array ? message.data : new Uint8Array(message.data);
    try {
      await file.write(message.offset, data, this.size);
    } catch (error) {
      return this.fail(reason(error, FILE_IO_MESSAGES.write));
    }
    this.done = file.written;
    this.meter.sample(this.done);
    void this.host.emit({ type: "ack", transferId: this.id, received: this.done });
    this.host.changed();
  }

  async #end(sha256: string): Promise<void> {
    const file = this.#file;
    if (!file || this.state !== "running") return;
    this.state = "checking";
    this.host.changed();
    try {
      const saved = await file.finish(this.size, sha256);
      this.#file = null;
      this.savedAs = path.basename(saved);
      void this.host.emit({ type: "done", transferId: this.id, ok: true });
      this.settle("done", "");
    } catch (error) {
      const why = reason(error, FILE_IO_MESSAGES.write);
      void this.host.emit({ type: "done", transferId: this.id, ok: false, message: why });
      this.settle("failed", why);
    }
  }
}
