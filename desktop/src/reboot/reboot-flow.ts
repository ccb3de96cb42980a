/**
 * Issue 38 §3, « Reboot and reconnect », inside the app, on the link's socket as the relaunch as administrator is
 * (`elevation/relaunch.ts`):
 *
 * 1. The server's `device:reboot` (the technician asked): `state` becomes `asked`; every interface offers it
 *    (keys O / N, two buttons, a question), with `REBOOT_TEXTS`.
 * 2. `accept()`: a 15-minute resume ticket (`device:reboot-ticket`), written to a private file in a folder that
 *    survives a restart (`rebootResumeFolder`: `/tmp` does not on Linux), then this program registered to start
 *    once at the next sign-in with `--server`, the forced `--interface` if any and `--reprendre <file>`
 *    (`Autostart`), then `device:reboot-report` `restarting`, then the system asked to restart.
 * 3. Anything failing on the way (no ticket, no file, no entry, the restart refused) removes the entry and the
 *    file, reports `failed` (the server voids the ticket and tells the technician) and tells the customer; the
 *    session goes on. So does a restart that has not happened `stuckMs` after being asked (a program refused to
 *    close): undone and reported `failed`.
 * 4. While `restarting` (`leaving()`), the app's exit (the system stopping it) must not `device:leave`: the
 *    session waits for it. The entry and the file stay for the next sign-in, unless the session ends meanwhile
 *    (`device:ended`): then both are removed at once.
 * `decline()` tells the server `declined`. The resumed process removes the entry itself at start
 * (`removeRebootEntry`), whatever becomes of its ticket.
 */
import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import type { ResumeTicketAck } from "#app/remote-support/elevation-protocol.ts";
import type { RebootOutcome } from "#app/remote-support/reboot-protocol.ts";
import type { DeviceConnection } from "../connection.ts";
import { removeResumeFile, RESUME_FLAG, writeResumeFile } from "../elevation/resume-file.ts";
import type { Autostart } from "./autostart.ts";
import { REBOOT_TEXTS, type RebootState } from "./reboot-texts.ts";

/** How long the server may take to answer the ticket request, ms. */
const TICKET_TIMEOUT_MS = 10_000;
/** A restart asked and still not happening after this long is given up, ms. */
export const REBOOT_STUCK_MS = 3 * 60_000;

/**
 * The folder of the reboot's resume file (created 0700 if missing): one that a restart keeps and only this user
 * reads. Linux `$XDG_STATE_HOME/atelier-assistance` (`~/.local/state/…`), macOS
 * `~/Library/Application Support/atelier-assistance`, Windows `%LOCALAPPDATA%\atelier-assistance`.
 * @throws on a file system error.
 */
export function rebootResumeFolder(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home = homedir(),
): string {
  const base =
    platform === "win32"
      ? (env.LOCALAPPDATA ?? path.join(home, "AppData", "Local"))
      : platform === "darwin"
        ? path.join(home, "Library", "Application Support")
        : env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME)
          ? env.XDG_STATE_HOME
          : path.join(home, ".local", "state");
  const folder = path.join(base, "atelier-assistance");
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  return folder;
}

export type RebootFlowOptions = {
  autostart: Autostart;
  /** Asks the system to restart (`restart.ts`'s `restartSystem`; tests pass a fake). @throws in French. */
  restart(): Promise<void>;
  /** This program's command without arguments (`programCommand`), then the fixed ones (`--server …`). */
  command: readonly string[];
  /** The session the ticket is for (`DevicePairResponse.sessionCode`). */
  sessionCode: string;
  /** Where the resume file goes (`rebootResumeFolder()`; tests pass their own). */
  folder: () => string;
  /** A French note for the customer (the app's notices). */
  notice(message: string): void;
  /** `state` changed: redraw. */
  onChange(): void;
  /** A restart asked but not happening is given up after this long, ms (default `REBOOT_STUCK_MS`). */
  stuckMs?: number;
};

/** One session's restart requests (see the module comment). Create it, then `start()`; `close()` at exit. */
export class RebootFlow {
  state: RebootState = null;
  readonly #link: DeviceConnection;
  readonly #options: RebootFlowOptions;
  /** The resume file written for the restart under way. */
  #file: string | null = null;
  #stuck: ReturnType<typeof setTimeout> | undefined;
  #undoing: Promise<void> = Promise.resolve();
  #ended = false;
  /** The app is exiting (`close()`): nothing more may be registered. */
  #closed = false;

  constructor(link: DeviceConnection, options: RebootFlowOptions) {
    this.#link = link;
    this.#options = options;
  }

  /** Listens to the technician's requests and to the session's end. */
  start(): void {
    const socket = this.#link.socket;
    socket.on("device:reboot", () => {
      if (this.state !== null || this.#ended) return;
      this.#set("asked");
      this.#options.notice(REBOOT_TEXTS.asked);
    });
    socket.on("device:ended", () => {
      this.#ended = true;
      // The session is over: nothing may bring the app back after a restart.
      if (this.state !== null) this.#undoing = this.#undo(null, null);
    });
  }

  /** Whether the app is going away for the restart (its exit must not end the session). */
  leaving(): boolean {
    return this.state === "restarting" && !this.#ended;
  }

  /** The customer declined. */
  decline(): void {
    if (this.state !== "asked") return;
    this.#set(null);
    this.#report("declined");
    this.#options.notice(REBOOT_TEXTS.declined);
  }

  /** The customer accepted: ticket, file, entry, restart (see the module comment). Resolves once asked or undone. */
  async accept(): Promise<void> {
    if (this.state !== "asked") return;
    this.#set("preparing");
    let ack: ResumeTicketAck;
    try {
      ack = await this.#link.socket.timeout(TICKET_TIMEOUT_MS).emitWithAck("device:reboot-ticket");
    } catch {
      ack = { ok: false, message: REBOOT_TEXTS.failed };
    }
    if (this.#ended || this.#closed) return this.#set(null);
    if (!ack.ok) return this.#undo("failed", `${REBOOT_TEXTS.failed} (${ack.message})`);
    try {
      this.#file = writeResumeFile(
        { ticket: ack.ticket, sessionCode: this.#options.sessionCode },
        this.#options.folder(),
      );
      await this.#options.autostart.register([...this.#options.command, RESUME_FLAG, this.#file]);
    } catch (error) {
      return this.#undo("failed", `${REBOOT_TEXTS.failed} (${error instanceof Error ? error.message : error})`);
    }
    if (this.#ended || this.#closed) return this.#undo(null, null);
    this.#report("restarting");
    this.#set("restarting");
    this.#options.notice(REBOOT_TEXTS.restarting);
    try {
      await this.#options.restart();
    } catch (error) {
      return this.#undo("failed", error instanceof Error ? error.message : REBOOT_TEXTS.failed);
    }
    // Asked: the system stops this process soon. Still here much later: something kept the computer running.
    this.#stuck = setTimeout(() => {
      if (this.state === "restarting") this.#undoing = this.#undo("failed", REBOOT_TEXTS.stuck);
    }, this.#options.stuckMs ?? REBOOT_STUCK_MS);
    this.#stuck.unref?.();
  }

  /**
   * At the app's exit: waits for an undo under way. The entry stays only while a restart is under way for a
   * session still open (the system is stopping the app); never throws.
   */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#stuck) clearTimeout(this.#stuck);
    await this.#undoing;
    if (this.state !== null && this.state !== "restarting") await this.#undo(null, null);
  }

  /** Removes the entry and the file; reports `outcome` and tells the customer `message` when given. */
  async #undo(outcome: RebootOutcome | null, message: string | null): Promise<void> {
    if (this.#stuck) clearTimeout(this.#stuck);
    await this.#options.autostart.remove();
    if (this.#file) removeResumeFile(this.#file);
    this.#file = null;
    this.#set(null);
    if (outcome) this.#report(outcome);
    if (message) this.#options.notice(message);
  }

  #report(outcome: RebootOutcome): void {
    if (this.#link.socket.connected) this.#link.socket.emit("device:reboot-report", { outcome });
  }

  #set(state: RebootState): void {
    this.state = state;
    this.#options.onChange();
  }
}

/**
 * At the start of a process resumed with `--reprendre`: removes the restart's entry at once, so that nothing stays
 * registered whatever becomes of the ticket (used, expired, refused). Never throws.
 */
export async function removeRebootEntry(autostart: Autostart): Promise<void> {
  await autostart.remove();
}
