/**
 * Issue 38 §2 « Files both ways, with consent »: a file the customer sends to the technician. Offered (the server
 * gave its `transferId`), it waits for the technician's `answer`; accepted, slices of `FILE_LIMITS.chunkBytes` are
 * read one at a time (`file-io.ts`) and sent, never more than `FILE_LIMITS.window` chunks ahead of the technician's
 * `ack`; once every byte is acknowledged, `end` carries the SHA-256, and the technician's `done` says whether it
 * arrived whole. A new `answer` resumes from its offset. After a dropped link the technician must answer again
 * within `RESUME_WAIT_MS`, else the transfer stops (the protocol lets only the receiver resume).
 */
import { FILE_LIMITS, FILE_MESSAGES, type FileMessage } from "#app/remote-support/file-protocol.ts";
import { FILE_IO_MESSAGES, type SourceFile } from "./file-io.ts";
import { FILE_TEXTS } from "./file-texts.ts";
import { reason, Transfer, type TransferHost } from "./transfer.ts";

/** How long a file being sent waits, after the link came back, for the technician to answer again, ms. */
export const RESUME_WAIT_MS = 30_000;
/** Bytes a sender may have unacknowledged. */
const WINDOW_BYTES = FILE_LIMITS.window * FILE_LIMITS.chunkBytes;

/** A file sent (see the module comment). */
export class OutgoingTransfer extends Transfer {
  readonly direction = "to-technician" as const;
  readonly #source: SourceFile;
  readonly #resumeWaitMs: number;
  /** The next byte to send, and the bytes the technician acknowledged. */
  #next = 0;
  #acked = 0;
  #pumping = false;
  #timer: ReturnType<typeof setTimeout> | null = null;

  constructor(host: TransferHost, id: string, source: SourceFile, resumeWaitMs = RESUME_WAIT_MS) {
    super(host, id, source.name, source.size, "waiting");
    this.#source = source;
    this.#resumeWaitMs = resumeWaitMs;
  }

  receive(message: FileMessage): void {
    if (message.type === "answer") {
      if (!message.accept) return this.settle("declined", FILE_TEXTS.declinedByTechnician);
      if (!this.active) return;
      // Accepted, or resumed from the bytes the technician has.
      this.#clearTimer();
      this.state = "running";
      this.#next = this.#acked = this.done = Math.min(message.offset, this.size);
      this.meter.reset();
      this.host.changed();
      return void this.#pump();
    }
    if (message.type === "ack") {
      this.#acked = Math.min(Math.max(this.#acked, message.received), this.#next);
      this.done = this.#acked;
      this.meter.sample(this.done);
      this.host.changed();
      return void this.#pump();
    }
    if (message.type === "done" && this.state === "checking")
      this.settle(message.ok ? "done" : "failed", message.ok ? "" : (message.message ?? FILE_MESSAGES.failed));
  }

  pause(): void {
    // Checking (`end` sent), the technician's `done` still comes: Socket.IO sends what waited once the link is back.
    if (this.state !== "running") return;
    this.state = "paused";
    this.meter.reset();
  }

  /** Waits `RESUME_WAIT_MS` for the technician's new answer, then stops. */
  resume(): void {
    if (this.state !== "paused") return;
    this.#clearTimer();
    this.#timer = setTimeout(() => {
      if (this.state === "paused") this.fail(FILE_TEXTS.interrupted);
    }, this.#resumeWaitMs);
    this.#timer.unref?.();
  }

  idle(): Promise<void> {
    return this.#source.close();
  }

  protected release(): void {
    this.#clearTimer();
    void this.#source.close();
  }

  #clearTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** Sends chunks while the window allows; then `end` once every byte is acknowledged. */
  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      while (
        this.state === "running" &&
        this.host.connected() &&
        this.#next < this.size &&
        this.#next - this.#acked < WINDOW_BYTES
      ) {
        const offset = this.#next;
        const data = await this.#source.slice(offset);
        if (this.state !== "running" || this.#next !== offset) return;
        this.#next += data.byteLength;
        void this.host.emit({ type: "chunk", transferId: this.id, offset, data }).then((ack) => {
          if (!ack.ok && this.state === "running") this.fail(ack.message);
        });
      }
      if (this.state === "running" && this.#next === this.size && this.#acked === this.size) {
        this.state = "checking";
        this.host.changed();
        const ack = await this.host.emit({ type: "end", transferId: this.id, sha256: await this.#source.digest() });
        if (!ack.ok && this.state === "checking") this.fail(ack.message);
      }
    } catch (error) {
      this.fail(reason(error, FILE_IO_MESSAGES.unreadable));
    } finally {
      this.#pumping = false;
    }
  }
}
