/**
 * Issue 38 §2, the technician's side of file transfers with the customer's desktop app (`file-protocol.ts`),
 * framework-free (`use-file-transfers.ts` wraps it for React):
 *
 * - `send(file)`: offers a `File` (picked or dropped) to the session's app, waits for the customer's answer, then
 *   reads it slice by slice (`FILE_LIMITS.chunkBytes`) and sends each at most `FILE_LIMITS.window` chunks ahead of
 *   the app's acknowledgements, hashing as it goes (SHA-256, `@noble/hashes`, incremental: the file is never whole
 *   in memory); `end` carries the hash; the app's `done` says whether it arrived whole. A new answer from the app
 *   (it reconnected) resumes from the byte it has.
 * - An offer from the app (the customer sends a file) waits for `accept(id)` or `decline(id)`; accepted, the chunks
 *   are kept as small `Blob`s (the browser may keep them on disk), acknowledged, hashed; at `end` the hash is
 *   checked and the file handed to `onReceived` (a download), else `done` false and the parts dropped.
 * - `cancel(id)` on either side; `request()` asks the customer to pick a file to send.
 * - Each transfer's view (`TransferView`): bytes done, speed (bytes/s over the last seconds) and time left (s).
 */
import { sha256 } from "@noble/hashes/sha2";
import { bytesToHex } from "@noble/hashes/utils";
import {
  FILE_LIMITS,
  FILE_MESSAGES,
  type FileAck,
  type FileDelivery,
  type FileMessage,
} from "#app/remote-support/file-protocol.ts";
import type { RealtimeSocket } from "./session-events";

/** What the panel shows of one transfer. Bytes, bytes/s, s. */
export type TransferView = {
  id: string;
  direction: "to-customer" | "to-technician";
  name: string;
  size: number;
  done: number;
  state: "offered" | "waiting" | "running" | "checking" | "done" | "declined" | "cancelled" | "failed";
  /** French: why it failed or was cancelled, else "". */
  message: string;
  bytesPerSecond: number | null;
  secondsLeft: number | null;
};

type Hasher = ReturnType<typeof sha256.create>;
type Outgoing = TransferView & { file: File; next: number; acked: number; hasher: Hasher; hashed: number };
type Incoming = TransferView & { parts: Blob[]; hasher: Hasher };

/** How long a message waits for the server's acknowledgement, ms. */
const ACK_TIMEOUT_MS = 15_000;
/** The speed is measured over this window, ms. */
const SPEED_WINDOW_MS = 3_000;

export type FileTransfersOptions = {
  socket: RealtimeSocket;
  code: string;
  /** Something changed (redraw). */
  onChange(): void;
  /** A file from the customer arrived whole (hash checked): offer it as a download. */
  onReceived(name: string, file: Blob): void;
  now?: () => number;
};

/** The transfers of one session (see the module comment). `destroy()` when the view goes. */
export class FileTransfers {
  readonly #options: FileTransfersOptions;
  readonly #transfers = new Map<string, Outgoing | Incoming>();
  readonly #samples = new Map<string, { at: number; done: number }[]>();
  readonly #now: () => number;
  readonly #listener = (delivery: { code: string; message: FileDelivery }) => {
    if (delivery.code === this.#options.code) void this.#receive(delivery.message);
  };
  /** Whether the app was connected at its last `session:device` (null: not heard yet). */
  #appConnected: boolean | null = null;
  /**
   * The app came back after its connection dropped: a file it was sending resumes from the bytes received here (the
   * receiver restarts a transfer, `file-protocol.ts`).
   */
  readonly #deviceListener = (device: { code: string; connected: boolean }) => {
    if (device.code !== this.#options.code) return;
    const back = this.#appConnected === false && device.connected;
    this.#appConnected = device.connected;
    if (!back) return;
    for (const transfer of this.#transfers.values())
      if (!("file" in transfer) && transfer.state === "running")
        void this.#emit({ type: "answer", transferId: transfer.id, accept: true, offset: transfer.done });
  };

  constructor(options: FileTransfersOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => performance.now());
    options.socket.on("file", this.#listener);
    options.socket.on("session:device", this.#deviceListener);
  }

  /** Every transfer of this view, oldest first. */
  views(): TransferView[] {
    return [...this.#transfers.values()].map(({ id, direction, name, size, done, state, message }) => {
      const speed = this.#speed(id);
      const left = speed && state === "running" ? Math.ceil((size - done) / speed) : null;
      return { id, direction, name, size, done, state, message, bytesPerSecond: speed, secondsLeft: left };
    });
  }

  /** Offers `file` to the customer's computer; resolves with the server's refusal (French) or null. */
  async send(file: File): Promise<string | null> {
    const ack = await this.#emit({ type: "offer", name: file.name, size: file.size });
    if (!ack.ok) return ack.message;
    if (!ack.transferId) return FILE_MESSAGES.failed;
    const transfer: Outgoing = {
      ...this.#view(ack.transferId, "to-customer", file.name, file.size, "waiting"),
      file,
      next: 0,
      acked: 0,
      hasher: sha256.create(),
      hashed: 0,
    };
    this.#transfers.set(transfer.id, transfer);
    this.#options.onChange();
    return null;
  }

  /** Accepts the customer's file `id`: its chunks start coming. */
  accept(id: string): void {
    const transfer = this.#transfers.get(id);
    if (!transfer || transfer.state !== "offered") return;
    transfer.state = "running";
    void this.#emit({ type: "answer", transferId: id, accept: true, offset: 0 }).then((ack) => {
      if (!ack.ok) this.#fail(transfer, ack.message);
    });
    this.#options.onChange();
  }

  /** Declines the customer's file `id`. */
  decline(id: string): void {
    const transfer = this.#transfers.get(id);
    if (!transfer || transfer.state !== "offered") return;
    void this.#emit({ type: "answer", transferId: id, accept: false, offset: 0 });
    this.#settle(transfer, "declined", "");
  }

  /** Stops transfer `id` on both sides (the app removes its partial file). */
  cancel(id: string): void {
    const transfer = this.#transfers.get(id);
    if (!transfer || !["offered", "waiting", "running", "checking"].includes(transfer.state)) return;
    void this.#emit({ type: "cancel", transferId: id });
    this.#settle(transfer, "cancelled", FILE_MESSAGES.cancelled);
  }

  /** Asks the customer to pick a file and send it; resolves with the server's refusal (French) or null. */
  async request(): Promise<string | null> {
    const ack = await this.#emit({ type: "request" });
    return ack.ok ? null : ack.message;
  }

  /** Forgets transfer `id` once it is over (the panel's « Effacer »). */
  dismiss(id: string): void {
    const transfer = this.#transfers.get(id);
    if (transfer && ["done", "declined", "cancelled", "failed"].includes(transfer.state)) {
      this.#transfers.delete(id);
      this.#options.onChange();
    }
  }

  destroy(): void {
    this.#options.socket.off("file", this.#listener);
    this.#options.socket.off("session:device", this.#deviceListener);
    for (const transfer of this.#transfers.values())
      if (["offered", "waiting", "running"].includes(transfer.state))
        void this.#emit({ type: "cancel", transferId: transfer.id });
    this.#transfers.clear();
  }

  #view(id: string, direction: TransferView["direction"], name: string, size: number, state: TransferView["state"]) {
    return { id, direction, name, size, done: 0, state, message: "", bytesPerSecond: null, secondsLeft: null };
  }

  #emit(message: FileMessage): Promise<FileAck> {
    return new Promise((resolve) => {
      this.#options.socket
        .timeout(ACK_TIMEOUT_MS)
        .emit("file", { code: this.#options.code, message }, (error: Error | null, ack: FileAck) =>
          resolve(error ? { ok: false, message: FILE_MESSAGES.failed } : ack),
        );
    });
  }

  async #receive(message: FileDelivery): Promise<void> {
    if (message.type === "offer") {
      const incoming: Incoming = {
        ...this.#view(message.transferId, "to-technician", message.name, message.size, "offered"),
        parts: [],
        hasher: sha256.create(),
      };
      this.#transfers.set(incoming.id, incoming);
      return this.#options.onChange();
    }
    if (message.type === "request") return;
    const transfer = this.#transfers.get(message.transferId);
    if (!transfer) return;
    if ("file" in transfer) return this.#onSenderMessage(transfer, message);
    return this.#onReceiverMessage(transfer, message);
  }

  /** The app answered, acknowledged, checked or cancelled our file. */
  async #onSenderMessage(transfer: Outgoing, message: FileDelivery): Promise<void> {
    switch (message.type) {
      case "answer":
        if (!message.accept) return this.#settle(transfer, "declined", FILE_MESSAGES.declined);
        // Accepted, or resumed from the bytes the app has after its connection dropped.
        Object.assign(transfer, { state: "running", next: message.offset, acked: message.offset });
        transfer.done = message.offset;
        this.#options.onChange();
        return this.#pump(transfer);
      case "ack":
        transfer.acked = Math.max(transfer.acked, message.received);
        transfer.done = transfer.acked;
        this.#sample(transfer);
        this.#options.onChange();
        return this.#pump(transfer);
      case "done":
        return message.ok
          ? this.#settle(transfer, "done", "")
          : this.#settle(transfer, "failed", message.message ?? FILE_MESSAGES.failed);
      case "cancel":
        return this.#settle(transfer, "cancelled", FILE_MESSAGES.cancelled);
    }
  }

  #pumping = new Set<string>();
  /** Transfers whose pump was asked for while it ran (a resume, an ack): it runs again once done. */
  #again = new Set<string>();
  /** Sends chunks while the window allows; then `end` once every byte is acknowledged. */
  async #pump(transfer: Outgoing): Promise<void> {
    if (this.#pumping.has(transfer.id)) return void this.#again.add(transfer.id);
    this.#pumping.add(transfer.id);
    try {
      while (
        transfer.state === "running" &&
        transfer.next < transfer.size &&
        transfer.next - transfer.acked < FILE_LIMITS.window * FILE_LIMITS.chunkBytes
      ) {
        const offset = transfer.next;
        const data = new Uint8Array(
          await transfer.file.slice(offset, Math.min(offset + FILE_LIMITS.chunkBytes, transfer.size)).arrayBuffer(),
        );
        if (transfer.state !== "running" || transfer.next !== offset) return;
        // In order, once per byte: a resume from an earlier byte is hashed again at the end.
        if (offset === transfer.hashed) {
          transfer.hasher.update(data);
          transfer.hashed += data.byteLength;
        }
        transfer.next += data.byteLength;
        const ack = await this.#emit({ type: "chunk", transferId: transfer.id, offset, data });
        // Refused because the app resumed from an earlier byte meanwhile: the loop goes on from there.
        if (!ack.ok && transfer.next === offset + data.byteLength) return this.#fail(transfer, ack.message);
      }
      if (transfer.state === "running" && transfer.next === transfer.size && transfer.acked === transfer.size) {
        transfer.state = "checking";
        this.#options.onChange();
        const ack = await this.#emit({ type: "end", transferId: transfer.id, sha256: await this.#digest(transfer) });
        if (!ack.ok) this.#fail(transfer, ack.message);
      }
    } finally {
      this.#pumping.delete(transfer.id);
      if (this.#again.delete(transfer.id)) void this.#pump(transfer);
    }
  }

  /** The whole file's SHA-256 (hex), reading it again only when a resume broke the running hash. */
  async #digest(transfer: Outgoing): Promise<string> {
    if (transfer.hashed === transfer.size) return bytesToHex(transfer.hasher.digest());
    const hasher = sha256.create();
    for (let offset = 0; offset < transfer.size; offset += 4 * FILE_LIMITS.chunkBytes)
      hasher.update(
        new Uint8Array(await transfer.file.slice(offset, offset + 4 * FILE_LIMITS.chunkBytes).arrayBuffer()),
      );
    return bytesToHex(hasher.digest());
  }

  /** The app sent a chunk, its end or a cancel of the customer's file. */
  async #onReceiverMessage(transfer: Incoming, message: FileDelivery): Promise<void> {
    if (message.type === "cancel") return this.#settle(transfer, "cancelled", FILE_MESSAGES.cancelled);
    if (transfer.state !== "running") return;
    if (message.type === "chunk") {
      if (message.offset !== transfer.done) return this.#fail(transfer, FILE_MESSAGES.outOfOrder);
      const data = new Uint8Array(message.data);
      transfer.hasher.update(data);
      transfer.parts.push(new Blob([data]));
      transfer.done += data.byteLength;
      this.#sample(transfer);
      this.#options.onChange();
      void this.#emit({ type: "ack", transferId: transfer.id, received: transfer.done });
      return;
    }
    if (message.type === "end") {
      const whole = transfer.done === transfer.size && bytesToHex(transfer.hasher.digest()) === message.sha256;
      void this.#emit({
        type: "done",
        transferId: transfer.id,
        ok: whole,
        ...(whole ? {} : { message: FILE_MESSAGES.hashMismatch }),
      });
      if (!whole) return this.#fail(transfer, FILE_MESSAGES.hashMismatch);
      this.#options.onReceived(transfer.name, new Blob(transfer.parts));
      this.#settle(transfer, "done", "");
    }
  }

  #fail(transfer: Outgoing | Incoming, message: string): void {
    if (["done", "cancelled", "failed", "declined"].includes(transfer.state)) return;
    void this.#emit({ type: "cancel", transferId: transfer.id });
    this.#settle(transfer, "failed", message);
  }

  #settle(transfer: Outgoing | Incoming, state: TransferView["state"], message: string): void {
    transfer.state = state;
    transfer.message = message;
    if ("parts" in transfer) transfer.parts = [];
    this.#samples.delete(transfer.id);
    this.#options.onChange();
  }

  #sample(transfer: TransferView): void {
    const at = this.#now();
    const samples = (this.#samples.get(transfer.id) ?? []).filter((sample) => at - sample.at <= SPEED_WINDOW_MS);
    samples.push({ at, done: transfer.done });
    this.#samples.set(transfer.id, samples);
  }

  /** Bytes/s over the last `SPEED_WINDOW_MS`, null before two samples. */
  #speed(id: string): number | null {
    const samples = this.#samples.get(id);
    if (!samples || samples.length < 2) return null;
    const first = samples[0]!;
    const last = samples.at(-1)!;
    return last.at > first.at ? ((last.done - first.done) * 1000) / (last.at - first.at) : null;
  }
}
