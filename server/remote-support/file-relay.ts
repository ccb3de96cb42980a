/**
 * Issue 38 §2, files both ways through the server (`file-protocol.ts`), on the Socket.IO server of `realtime.ts`
 * (browsers, `file`) and `device-realtime.ts` (the app, `device:file`):
 *
 * - Who: a technician's browser socket for the session it joined (the relay's `controlState`: the session's
 *   technician, its app paired), the session's current app (its pairing). A transfer names its two ends: the app's
 *   pairing and the technician's browser socket that offered it or accepted it (a technician's other tabs hear the
 *   offer, the first to answer takes it; a resumed tab takes it back with its next message).
 * - Order: offer → answer (accepted from `offset`) → chunks in order, each at the next byte, at most
 *   `FILE_LIMITS.window` chunks ahead of the receiver's last acknowledgement → end (every byte sent) → done. A
 *   chunk out of order or past the window cancels the transfer on both sides. A new answer resumes from the bytes
 *   the receiver has (after a dropped connection).
 * - Memory: nothing is stored; each chunk is relayed as it comes, and no sender may be more than the window ahead,
 *   so at most `window × chunkBytes` per transfer is in flight. Transfers idle for `idleMs` are cancelled.
 * - Limits: `FILE_LIMITS` (size per file, bytes per session, transfers at once), one budget of messages per socket.
 * - Log: one line per transfer when it ends (name hashed, size, direction, outcome), never its content or name.
 *
 * State is per server process: with several processes, a transfer's two ends must reach the same one through the
 * adapter's rooms (they do: every message is relayed through rooms), but the window is checked by the process that
 * handles the sender's messages and learns the acknowledgements from it only when the receiver is on it too.
 */
import { createHash, randomUUID } from "node:crypto";
import type { Logger } from "pino";
import {
  BrowserFileMessage,
  FILE_LIMITS,
  FILE_MESSAGES,
  FileMessage,
  type FileAck,
  type FileDelivery,
  type FileDirection,
} from "#app/remote-support/file-protocol.ts";
import { normalizeSessionCode } from "#app/remote-support/protocol.ts";
import { firstNameOf } from "#app/remote-support/technician-name.ts";
import { can, type Caller } from "#server/access.ts";
import { sharedRefusalLog } from "#server/refusal-log.ts";
import type { ControlState, DeviceIdentity } from "./device-state.ts";
import { TokenBucket } from "./limits.ts";

/**
 * Messages one socket may send, refused or not: a burst, then per second (chunks of 64 KiB: 100 MB/s). The
 * window already bounds what a sender has in flight; this only stops a flood of small messages. At 640 a second
 * (40 MB/s) a transfer on loopback ran into it after a resume (the window sent again at once) and failed at 70 %
 * (`node bench/file-transfer.ts 600`).
 */
const SOCKET_BUDGET = { burst: 400, perSecond: 1_600 } as const;
/** A transfer nobody spoke of for this long is cancelled, ms. */
export const FILE_IDLE_MS = 120_000;

type Transfer = {
  id: string;
  sessionId: string;
  code: string;
  pairingId: string;
  technicianId: string;
  direction: FileDirection;
  size: number;
  nameHash: string;
  /** The technician's browser socket at this transfer's end (null until one answers an app's offer). */
  browserSocketId: string | null;
  accepted: boolean;
  /** Resumed from an earlier byte: chunks the sender sent before it learned so are dropped, not a broken rule. */
  resyncing: boolean;
  /** The offset of the last resume (null: never resumed); chunks sent again from there are not a broken rule. */
  resumedAt: number | null;
  /** The next byte the sender must send. */
  next: number;
  /** The bytes the receiver acknowledged. */
  received: number;
  ended: boolean;
  lastAt: number;
};

/** A browser socket as this relay needs it. */
type BrowserEnd = {
  id: string;
  data: { caller: Caller };
  on(event: "file", listener: (...args: unknown[]) => void): unknown;
};
/** An app socket as this relay needs it. */
type AppEnd = { data: DeviceIdentity; on(event: "device:file", listener: (...args: unknown[]) => void): unknown };

export type FileRelayOptions = {
  /** The relay's cached state of session `code` (`DeviceService.controlState`). */
  controlState(code: string): Promise<ControlState | null>;
  logger: Logger;
  /** Emits `device:file` to the app of `pairingId`. */
  toApp(pairingId: string, delivery: FileDelivery): void;
  /** Emits `file` to one browser socket (by id), or to every tab of technician `technicianId`. */
  toBrowser(target: { socketId: string } | { technicianId: string }, code: string, delivery: FileDelivery): void;
  idleMs?: number;
  now?: () => number;
};

export type FileRelay = {
  onBrowserSocket(socket: BrowserEnd): void;
  onDeviceSocket(socket: AppEnd): void;
  /** Transfers under way (for tests and figures). */
  active(): number;
  close(): void;
};

const refused = (message: string): FileAck => ({ ok: false, message });

/** The relay (see the module comment); one per process. */
export function createFileRelay(options: FileRelayOptions): FileRelay {
  const { logger } = options;
  const now = options.now ?? (() => performance.now());
  const idleMs = options.idleMs ?? FILE_IDLE_MS;
  const transfers = new Map<string, Transfer>();
  /** Bytes offered per session (what `maxSessionBytes` counts), by session id. */
  const sessionBytes = new Map<string, number>();
  const refusals = sharedRefusalLog(logger, "fichiers : messages refusés");

  const activeIn = (sessionId: string) => [...transfers.values()].filter((t) => t.sessionId === sessionId).length;

  /** Ends `transfer`: forgotten, its unsent bytes given back to the session, one log line. */
  function finish(transfer: Transfer, outcome: string): void {
    if (!transfers.delete(transfer.id)) return;
    if (outcome !== "réussi") {
      const left = (sessionBytes.get(transfer.sessionId) ?? 0) - (transfer.size - transfer.received);
      sessionBytes.set(transfer.sessionId, Math.max(0, left));
    }
    logger.info(
      { direction: transfer.direction, size: transfer.size, name: transfer.nameHash, outcome },
      "fichier : transfert terminé",
    );
  }

  /** Sends `delivery` to the end of `transfer` that is not `from`. */
  function forward(transfer: Transfer, from: "browser" | "app", delivery: FileDelivery): void {
    if (from === "browser") return options.toApp(transfer.pairingId, delivery);
    const target = transfer.browserSocketId
      ? { socketId: transfer.browserSocketId }
      : { technicianId: transfer.technicianId };
    options.toBrowser(target, transfer.code, delivery);
  }

  /** Cancels `transfer` on both sides (a broken rule, idleness). */
  function cancelBoth(transfer: Transfer, outcome: string): void {
    const cancel: FileDelivery = { type: "cancel", transferId: transfer.id };
    options.toApp(transfer.pairingId, cancel);
    forward(transfer, "app", cancel);
    finish(transfer, outcome);
  }

  const sweep = setInterval(
    () => {
      const at = now();
      for (const transfer of [...transfers.values()])
        if (at - transfer.lastAt > idleMs) cancelBoth(transfer, "inactif");
    },
    Math.min(idleMs, 10_000),
  );
  sweep.unref();

  /**
   * Handles `message` from one end of session `state` (`side`: who sent it, `technician` for a browser) and
   * answers the acknowledgement. `browserSocketId`: the sending browser socket, null for the app.
   */
  function handle(
    message: FileMessage,
    side: "browser" | "app",
    state: ControlState & { code: string; pairingId: string; technicianId: string },
    sender: { browserSocketId: string | null; technicianName: string | null },
  ): FileAck {
    if (message.type === "request") {
      if (side !== "browser") return refused(FILE_MESSAGES.invalid);
      options.toApp(state.pairingId, message);
      return { ok: true };
    }
    if (message.type === "offer") {
      if (activeIn(state.sessionId) >= FILE_LIMITS.maxActive) return refused(FILE_MESSAGES.tooMany);
      const total = (sessionBytes.get(state.sessionId) ?? 0) + message.size;
      if (total > FILE_LIMITS.maxSessionBytes) return refused(FILE_MESSAGES.sessionFull);
      sessionBytes.set(state.sessionId, total);
      const transfer: Transfer = {
        id: randomUUID(),
        sessionId: state.sessionId,
        code: state.code,
        pairingId: state.pairingId,
        technicianId: state.technicianId,
        direction: side === "browser" ? "to-customer" : "to-technician",
        size: message.size,
        nameHash: createHash("sha256").update(message.name).digest("hex").slice(0, 16),
        browserSocketId: sender.browserSocketId,
        accepted: false,
        resyncing: false,
        resumedAt: null,
        next: 0,
        received: 0,
        ended: false,
        lastAt: now(),
      };
      transfers.set(transfer.id, transfer);
      forward(transfer, side, { ...message, transferId: transfer.id, from: sender.technicianName });
      return { ok: true, transferId: transfer.id };
    }
    const transfer = transfers.get(message.transferId);
    if (!transfer || transfer.sessionId !== state.sessionId || transfer.pairingId !== state.pairingId)
      return refused(FILE_MESSAGES.unknown);
    const senderSide = transfer.direction === "to-customer" ? "browser" : "app";
    const fromSender = side === senderSide;
    // A technician's tab speaking of the transfer is its browser end from now on (the first to answer, a resumed tab).
    if (side === "browser" && sender.browserSocketId) transfer.browserSocketId = sender.browserSocketId;
    transfer.lastAt = now();
    switch (message.type) {
      case "cancel":
        forward(transfer, side, message);
        finish(transfer, fromSender ? "annulé par l'envoyeur" : "annulé par le destinataire");
        return { ok: true };
      case "answer": {
        if (fromSender || message.offset > transfer.size) return refused(FILE_MESSAGES.invalid);
        forward(transfer, side, message);
        if (!message.accept) {
          finish(transfer, "refusé");
          return { ok: true };
        }
        // Accepted, or resumed after a dropped connection from the bytes the receiver has.
        const resyncing = transfer.accepted;
        Object.assign(transfer, {
          accepted: true,
          resyncing,
          resumedAt: resyncing ? message.offset : null,
          next: message.offset,
          received: message.offset,
          ended: false,
        });
        return { ok: true };
      }
      case "chunk": {
        const length = message.data.byteLength;
        const inOrder = fromSender && transfer.accepted && !transfer.ended && message.offset === transfer.next;
        // Bytes already relayed: after a resume the sender sends again from the answer's offset, while its first
        // copy of that chunk, still in flight then, was relayed in order. Acknowledged, not forwarded twice.
        const resent =
          transfer.resumedAt !== null &&
          message.offset >= transfer.resumedAt &&
          message.offset + length <= transfer.next;
        if (fromSender && transfer.accepted && !transfer.ended && resent) return { ok: true };
        // Sent before the sender heard of the resume: dropped, the sender goes on from the answer's offset.
        if (!inOrder && fromSender && transfer.resyncing && message.offset > transfer.next)
          return refused(FILE_MESSAGES.stale);
        transfer.resyncing = transfer.resyncing && !inOrder;
        const fits = message.offset + length <= transfer.size;
        const windowed = transfer.next + length - transfer.received <= FILE_LIMITS.window * FILE_LIMITS.chunkBytes;
        if (!inOrder || !fits || !windowed) {
          refusals(!inOrder ? "hors-ordre" : !fits ? "trop-long" : "fenêtre");
          cancelBoth(transfer, "règle enfreinte");
          return refused(FILE_MESSAGES.outOfOrder);
        }
        transfer.next += length;
        forward(transfer, side, message);
        return { ok: true };
      }
      case "ack":
        if (fromSender) return refused(FILE_MESSAGES.invalid);
        transfer.received = Math.min(Math.max(transfer.received, message.received), transfer.next);
        forward(transfer, side, message);
        return { ok: true };
      case "end":
        if (!fromSender || transfer.next !== transfer.size) return refused(FILE_MESSAGES.invalid);
        transfer.ended = true;
        forward(transfer, side, message);
        return { ok: true };
      case "done":
        if (fromSender || !transfer.ended) return refused(FILE_MESSAGES.invalid);
        forward(transfer, side, message);
        finish(transfer, message.ok ? "réussi" : "échoué");
        return { ok: true };
    }
  }

  /** Wraps a socket's listener: budget, validation, the session's state, one acknowledgement per message. */
  function listener(
    side: "browser" | "app",
    resolve: (
      payload: unknown,
    ) => Promise<
      | { message: FileMessage; state: Parameters<typeof handle>[2]; sender: Parameters<typeof handle>[3] }
      | { refusal: string }
    >,
  ) {
    const budget = new TokenBucket(SOCKET_BUDGET.burst, SOCKET_BUDGET.perSecond);
    let previous: Promise<void> = Promise.resolve();
    return (payload: unknown, ack: unknown) => {
      const reply = (result: FileAck) => {
        if (typeof ack === "function") ack(result);
      };
      if (!budget.take()) {
        refusals(`${side}-débit`);
        return reply(refused(FILE_MESSAGES.failed));
      }
      // In order per socket: a chunk must not overtake the one before it while its state is read.
      previous = previous.then(async () => {
        try {
          const resolved = await resolve(payload);
          if ("refusal" in resolved) {
            refusals(`${side}-refusé`);
            return reply(refused(resolved.refusal));
          }
          reply(handle(resolved.message, side, resolved.state, resolved.sender));
        } catch (error) {
          logger.error({ err: error }, "fichiers : message non relayé");
          reply(refused(FILE_MESSAGES.failed));
        }
      });
    };
  }

  /** The session of `code` when it allows files: its app paired, a technician joined. */
  async function fileState(code: string) {
    const state = await options.controlState(code);
    if (!state?.pairingId || !state.technicianId) return null;
    return { ...state, code, pairingId: state.pairingId, technicianId: state.technicianId };
  }

  return {
    onBrowserSocket(socket) {
      socket.on(
        "file",
        listener("browser", async (payload) => {
          const checked = BrowserFileMessage.safeParse(payload);
          if (!checked.success) return { refusal: checked.error.issues[0]?.message ?? FILE_MESSAGES.invalid };
          const caller = socket.data.caller;
          const state = can(caller, "session:join") ? await fileState(normalizeSessionCode(checked.data.code)) : null;
          if (!state || state.technicianId !== caller.userId) return { refusal: FILE_MESSAGES.notAvailable };
          // Issue 40: the customer is told the technician's first name only.
          const sender = { browserSocketId: socket.id, technicianName: firstNameOf(caller.name) };
          return { message: checked.data.message, state, sender };
        }),
      );
    },
    onDeviceSocket(socket) {
      const identity = { ...socket.data };
      socket.on(
        "device:file",
        listener("app", async (payload) => {
          const checked = FileMessage.safeParse(payload);
          if (!checked.success) return { refusal: checked.error.issues[0]?.message ?? FILE_MESSAGES.invalid };
          const state = await fileState(identity.code);
          // This session's current app only (not one a newer connection replaced).
          if (!state || state.pairingId !== identity.pairingId) return { refusal: FILE_MESSAGES.notAvailable };
          return { message: checked.data, state, sender: { browserSocketId: null, technicianName: null } };
        }),
      );
    },
    active: () => transfers.size,
    close() {
      clearInterval(sweep);
    },
  };
}
