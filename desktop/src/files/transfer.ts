/**
 * Issue 38 §2 « Files both ways, with consent »: what a file received (`incoming.ts`) and a file sent
 * (`outgoing.ts`) share — their state as the views show it (`TransferModel`), the speed measured over the last
 * seconds, how they end (`settle`: once, then what they hold is released) — and what they need of the app's link
 * (`TransferHost`, given by `transfers.ts`).
 */
import { FILE_MESSAGES, type FileAck, type FileMessage } from "#app/remote-support/file-protocol.ts";
import { FILE_IO_MESSAGES } from "./file-io.ts";
import type { TransferModel, TransferState } from "./file-texts.ts";
import { SpeedMeter } from "./speed.ts";

/** What a transfer needs of the app's link. */
export type TransferHost = {
  /** Sends `message` on `device:file`; resolves with the server's acknowledgement (a failure when none came). */
  emit(message: FileMessage): Promise<FileAck>;
  /** Sends `message` only while the link is up (a cancel must not wait in Socket.IO's buffer). */
  tell(message: FileMessage): void;
  /** Whether the link is up now. */
  connected(): boolean;
  /** Something the views show changed. */
  changed(): void;
  /** A clock in ms (tests give theirs). */
  now?: () => number;
};

const KNOWN_MESSAGES = new Set<string>([...Object.values(FILE_MESSAGES), ...Object.values(FILE_IO_MESSAGES)]);

/** An error's message when it is one of the app's French sentences, else `fallback`. */
export function reason(error: unknown, fallback: string): string {
  return error instanceof Error && KNOWN_MESSAGES.has(error.message) ? error.message : fallback;
}

/** One transfer, either way (see the module comment). */
export abstract class Transfer {
  abstract readonly direction: TransferModel["direction"];
  readonly id: string;
  readonly name: string;
  readonly size: number;
  state: TransferState;
  /** Bytes done: written here (receiving), acknowledged by the technician (sending). */
  done = 0;
  /** French: why it failed or was cancelled. */
  message = "";
  savedAs: string | null = null;
  protected readonly host: TransferHost;
  protected readonly meter: SpeedMeter;

  constructor(host: TransferHost, id: string, name: string, size: number, state: TransferState) {
    this.host = host;
    this.id = id;
    this.name = name;
    this.size = size;
    this.state = state;
    this.meter = new SpeedMeter(host.now);
  }

  /** Still under way (waiting for an answer, running, paused, checking). */
  get active(): boolean {
    return ["waiting", "running", "paused", "checking"].includes(this.state);
  }

  /** Over (done, declined, cancelled, failed). */
  get over(): boolean {
    return !this.active && this.state !== "asking";
  }

  /** What the views show; speed and time left only while running. */
  view(): TransferModel {
    const running = this.state === "running";
    return {
      id: this.id,
      direction: this.direction,
      name: this.name,
      size: this.size,
      done: this.done,
      state: this.state,
      message: this.message,
      savedAs: this.savedAs,
      bytesPerSecond: running ? this.meter.bytesPerSecond() : null,
      secondsLeft: running ? this.meter.secondsLeft(this.size, this.done) : null,
    };
  }

  /** The customer's « Annuler »: the other side is told, the transfer ends. */
  cancel(): void {
    if (!this.active) return;
    this.host.tell({ type: "cancel", transferId: this.id });
    this.settle("cancelled", FILE_MESSAGES.cancelled);
  }

  /** Stops on both sides with `message` (a broken rule, a disk error, a refused message). */
  fail(message: string): void {
    if (this.over) return;
    this.host.tell({ type: "cancel", transferId: this.id });
    this.settle("failed", message);
  }

  /** Ends as `state` with `message`, once; what it holds is released (a partial file removed, a file closed). */
  settle(state: TransferState, message: string): void {
    if (this.over) return;
    this.state = state;
    this.message = message;
    this.meter.reset();
    this.release();
    this.host.changed();
  }

  /** A message of the other side about this transfer (`cancel` is handled by `transfers.ts`). */
  abstract receive(message: FileMessage): void;
  /** The link dropped. */
  abstract pause(): void;
  /** The link is back. */
  abstract resume(): void;
  /** Resolves once every disk operation under way is over. */
  abstract idle(): Promise<void>;
  /** Frees what the transfer holds, once it is over. */
  protected abstract release(): void;
}
