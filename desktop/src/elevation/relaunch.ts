/**
 * « Relancer en administrateur » inside the app (issue 36 §4), on the link's socket as the clipboard transfer is:
 *
 * 1. The server's `device:elevate` (the technician asked): `state` becomes `asked`; every interface offers it
 *    (key A, a button, a dialog), with `ELEVATION_TEXTS`.
 * 2. `accept()`: a resume ticket from the server (`device:resume-ticket`), written to a private file
 *    (`resume-file.ts`), then `Elevation.relaunch` of this program with `--server`, the forced `--interface`
 *    if any and `--reprendre <file>`: Windows shows one UAC prompt (`state` `relaunching`). Meanwhile the session
 *    goes on here (the call runs off the JavaScript thread), and the picture says the secure desktop is shown.
 * 3. Refused (`ERROR_CANCELLED`) or failed: the file is deleted, the server told (`device:elevation`, which voids
 *    the ticket and tells the technician), the customer told; the session goes on unelevated.
 * 4. Started: the server told; this process waits for `device:replaced` (the new one redeemed the ticket) and
 *    then `onReplaced`: the app exits without `device:leave`, so nothing ends. If the new process exits first,
 *    or has not taken over within `takeoverMs` (the ticket's lifetime and a margin), the relaunch counts as
 *    failed and the session goes on here.
 * `decline()` (a dialog's « Refuser ») tells the server `declined`.
 */
import {
  RESUME_TICKET_TTL_S,
  type ElevationOutcome,
  type ResumeTicketAck,
} from "#app/remote-support/elevation-protocol.ts";
import type { DeviceConnection } from "../connection.ts";
import { ELEVATION_TEXTS } from "../views/texts.ts";
import type { Elevation, RelaunchOutcome } from "./elevation.ts";
import { removeResumeFile, RESUME_FLAG, writeResumeFile } from "./resume-file.ts";

/** How long the server may take to answer the ticket request, ms. */
const TICKET_TIMEOUT_MS = 10_000;
/** How often the started process is checked, ms. */
const POLL_MS = 1_000;

export type ElevationFlowOptions = {
  elevation: Elevation;
  /** This program's command without arguments (`programCommand`), then the fixed ones (`--server …`). */
  command: readonly string[];
  /** The session the ticket is for (`DevicePairResponse.sessionCode`). */
  sessionCode: string;
  /** A French note for the customer (the app's notices). */
  notice(message: string): void;
  /** `state` changed: redraw. */
  onChange(): void;
  /** The relaunched process took over: exit without leaving. */
  onReplaced(): void;
  /** Where the resume file goes (default the system's temporary folder; tests pass their own). */
  temp?: string;
  /** How long the started process may take to take over, ms (default the ticket's lifetime + 10 s). */
  takeoverMs?: number;
  pollMs?: number;
};

/** One session's elevation requests (see the module comment). Create it, then `start()`; `close()` at exit. */
export class ElevationFlow {
  /** `asked`: offered to the customer; `relaunching`: the ticket and the UAC prompt; null otherwise. */
  state: "asked" | "relaunching" | null = null;
  readonly #link: DeviceConnection;
  readonly #options: ElevationFlowOptions;
  #watch: ReturnType<typeof setInterval> | undefined;
  #started: Extract<RelaunchOutcome, { kind: "started" }> | undefined;
  #closed = false;

  constructor(link: DeviceConnection, options: ElevationFlowOptions) {
    this.#link = link;
    this.#options = options;
  }

  /** Listens to the technician's requests and to the replacement. */
  start(): void {
    const socket = this.#link.socket;
    socket.on("device:elevate", () => {
      // Already elevated (an old server may still ask), or a request already in hand: nothing new to offer.
      if (this.#options.elevation.elevated !== false || this.state !== null || this.#started || this.#closed) return;
      this.#set("asked");
      this.#options.notice(ELEVATION_TEXTS.asked);
    });
    socket.on("device:replaced", () => {
      if (this.#closed) return;
      this.close();
      this.#options.onReplaced();
    });
  }

  /** The customer declined (a dialog's « Refuser »). */
  decline(): void {
    if (this.state !== "asked") return;
    this.#set(null);
    this.#report("declined");
    this.#options.notice(ELEVATION_TEXTS.declined);
  }

  /** The customer accepted: ticket, file, relaunch (see the module comment). Resolves once the outcome is known. */
  async accept(): Promise<void> {
    if (this.state !== "asked") return;
    this.#set("relaunching");
    const socket = this.#link.socket;
    let ack: ResumeTicketAck;
    try {
      ack = await socket.timeout(TICKET_TIMEOUT_MS).emitWithAck("device:resume-ticket");
    } catch {
      ack = { ok: false, message: ELEVATION_TEXTS.failed };
    }
    if (this.#closed) return;
    if (!ack.ok) return this.#give("failed", `${ELEVATION_TEXTS.failed} (${ack.message})`);
    let file: string;
    try {
      file = writeResumeFile({ ticket: ack.ticket, sessionCode: this.#options.sessionCode }, this.#options.temp);
    } catch (error) {
      return this.#give("failed", `${ELEVATION_TEXTS.failed} (${error instanceof Error ? error.message : error})`);
    }
    const outcome = await this.#options.elevation.relaunch([...this.#options.command, RESUME_FLAG, file]);
    if (outcome.kind !== "started") {
      removeResumeFile(file);
      if (outcome.kind === "cancelled") return this.#give("cancelled", ELEVATION_TEXTS.cancelled);
      return this.#give("failed", `${ELEVATION_TEXTS.failed} (${outcome.reason})`);
    }
    if (this.#closed) return outcome.release();
    this.#started = outcome;
    this.#set(null);
    this.#report("started");
    this.#options.notice(ELEVATION_TEXTS.started);
    const deadline = performance.now() + (this.#options.takeoverMs ?? (RESUME_TICKET_TTL_S + 10) * 1000);
    this.#watch = setInterval(() => {
      if (outcome.running() && performance.now() < deadline) return;
      // Gone (or stuck) before taking over: the session goes on here; its file must not outlive it.
      this.#stopWatching();
      removeResumeFile(file);
      this.#give("failed", ELEVATION_TEXTS.exited);
    }, this.#options.pollMs ?? POLL_MS);
    this.#watch.unref?.();
  }

  /** Stops watching a started process and releases its handle; nothing is reported any more. */
  close(): void {
    this.#closed = true;
    this.#stopWatching();
  }

  #stopWatching(): void {
    if (this.#watch) clearInterval(this.#watch);
    this.#watch = undefined;
    this.#started?.release();
    this.#started = undefined;
  }

  /** The request is over without a relaunch: the server and the customer told. */
  #give(outcome: ElevationOutcome, message: string): void {
    this.#set(null);
    this.#report(outcome);
    this.#options.notice(message);
  }

  #report(outcome: ElevationOutcome): void {
    if (this.#link.socket.connected) this.#link.socket.emit("device:elevation", { outcome });
  }

  #set(state: ElevationFlow["state"]): void {
    this.state = state;
    this.#options.onChange();
  }
}
