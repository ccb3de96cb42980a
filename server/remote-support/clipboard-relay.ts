/**
 * Issue 27, copy–paste between the technician and the customer's desktop app (`clipboard-protocol.ts`), on the
 * Socket.IO server of `device-realtime.ts`:
 *
 * - `clipboard:paste` from a signed-in browser socket: the sender must be the session's joined technician and
 *   control allowed (the input relay's rule: `ControlState.refusal` null, i.e. consent, toggle, app connected);
 *   then `device:clipboard` to the session's app, which pastes it.
 * - `device:clipboard` from an app socket: the session's own app (its pairing), a technician joined, control
 *   allowed; then `clipboard:text` to that technician's browsers only.
 * - Each side: the text checked by zod (1 character to `CLIPBOARD_MAX_BYTES` bytes of UTF-8: past it the French
 *   `CLIPBOARD_MESSAGES.tooLarge`), a per-socket budget against floods, then `CLIPBOARD_LIMITS` per session and
 *   direction (this process's buckets); the transfer is recorded (`clipboard-to-customer` by the technician,
 *   `clipboard-to-technician` by the customer) before it is relayed, so nothing is relayed unrecorded. The text
 *   is never stored nor logged: refusals log their reason only, one summary line a minute.
 * - Every transfer is acknowledged `ClipboardAck`, in order per socket.
 */
import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Socket } from "socket.io";
import type { ZodError } from "zod";
import {
  CLIPBOARD_LIMITS,
  CLIPBOARD_MESSAGES,
  ClipboardPaste,
  clipboardRefusal,
  DeviceClipboard,
  type ClipboardAck,
} from "#app/remote-support/clipboard-protocol.ts";
import type { DeviceToServerEvents, ServerToDeviceEvents } from "#app/remote-support/device-protocol.ts";
import {
  normalizeSessionCode,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from "#app/remote-support/protocol.ts";
import { can, type Caller } from "#server/access.ts";
import { sharedRefusalLog } from "#server/refusal-log.ts";
import type { AppDatabase } from "#database/connection.ts";
import { sessionEvents, sessions } from "#database/schema.ts";
import type { ControlState, DeviceIdentity } from "./device-state.ts";
import { TokenBucket } from "./limits.ts";
import { APP_ACTOR_ID } from "./session-rules.ts";

type BrowserSocket = Socket<ClientToServerEvents, ServerToClientEvents, object, { caller: Caller }>;
type AppSocket = Socket<DeviceToServerEvents, ServerToDeviceEvents, object, DeviceIdentity>;

export type ClipboardEventKind = "clipboard-to-customer" | "clipboard-to-technician";

/** Clipboard events one socket may send, refused or not: a burst, then per second (each may cost a lookup). */
const SOCKET_BUDGET = { burst: 10, perSecond: 1 } as const;
/** Sessions whose buckets one process keeps at most (past it they start afresh). */
const MAX_TRACKED = 10_000;

/** The record part (spread into `DeviceService`). */
export type ClipboardRecordMethods = {
  /**
   * Records one transfer of session `sessionId`, without the text: `clipboard-to-customer` by the technician
   * `technicianId`, `clipboard-to-technician` by the session's customer (its account, or `APP_ACTOR_ID` for a
   * session the app started). @throws on database failure.
   */
  recordClipboard(sessionId: string, kind: ClipboardEventKind, technicianId: string): Promise<void>;
};

/** `recordClipboard` over `db` (one insert). */
export function createClipboardRecord(db: AppDatabase): ClipboardRecordMethods {
  return {
    async recordClipboard(sessionId, kind, technicianId) {
      const actor =
        kind === "clipboard-to-customer" ? sql`${technicianId}` : sql`coalesce(${sessions.userId}, ${APP_ACTOR_ID})`;
      await db.execute(sql`
        insert into ${sessionEvents} (session_id, actor_id, kind)
        select ${sessions.id}, ${actor}, ${kind} from ${sessions} where ${sessions.id} = ${sessionId}::uuid`);
    },
  };
}

export type ClipboardRelayOptions = {
  devices: ClipboardRecordMethods & {
    /** The relay's cached state of session `code` (`DeviceService.controlState`). */
    controlState(code: string): Promise<ControlState | null>;
  };
  logger: Logger;
  /** Emits `device:clipboard` to the app of `pairingId`. */
  toApp(pairingId: string, clipboard: DeviceClipboard): void;
  /** Emits `clipboard:text` to the browsers of technician `technicianId`. */
  toTechnician(technicianId: string, clipboard: { code: string; text: string }): void;
  /** Per session and direction (default `CLIPBOARD_LIMITS`); tests lower it. */
  limits?: { burst: number; perMinute: number };
};

export type ClipboardRelay = {
  /** Adds `clipboard:paste` to a signed-in browser socket. */
  onBrowserSocket(socket: BrowserSocket): void;
  /** Adds `device:clipboard` to an authenticated app socket. */
  onDeviceSocket(socket: AppSocket): void;
};

const refused = (message: string): ClipboardAck => ({ ok: false, message });

/** The relay (see the module comment); one per process, its session buckets shared by every socket. */
export function createClipboardRelay(options: ClipboardRelayOptions): ClipboardRelay {
  const { devices, logger } = options;
  const limits = options.limits ?? CLIPBOARD_LIMITS;
  const buckets = new Map<string, TokenBucket>();
  const refusals = sharedRefusalLog(logger, "presse-papiers : transferts refusés");

  /** Spends one transfer of `sessionId` in `kind`'s direction. */
  function takeSession(sessionId: string, kind: ClipboardEventKind): boolean {
    const key = `${sessionId}:${kind}`;
    let bucket = buckets.get(key);
    if (!bucket) {
      if (buckets.size >= MAX_TRACKED) buckets.clear();
      bucket = new TokenBucket(limits.burst, limits.perMinute / 60);
      buckets.set(key, bucket);
    }
    return bucket.take();
  }

  /**
   * Checks the socket's budget and the payload, then runs `transfer` after the socket's previous ones, and
   * acknowledges. A failure is logged without the text.
   */
  function handler<T>(
    schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: ZodError } },
    what: string,
    transfer: (data: T) => Promise<ClipboardAck>,
  ) {
    const budget = new TokenBucket(SOCKET_BUDGET.burst, SOCKET_BUDGET.perSecond);
    let previous: Promise<void> = Promise.resolve();
    return (payload: unknown, ack: unknown) => {
      const reply = (result: ClipboardAck) => {
        if (typeof ack === "function") ack(result);
      };
      if (!budget.take()) {
        refusals(`${what}-socket`);
        return reply(refused(CLIPBOARD_MESSAGES.tooMany));
      }
      const checked = schema.safeParse(payload);
      if (!checked.success) {
        refusals(`${what}-invalide`);
        return reply(refused(clipboardRefusal(checked.error)));
      }
      previous = previous.then(() =>
        transfer(checked.data).then(reply, (error: unknown) => {
          logger.error({ err: error }, `presse-papiers : transfert non relayé (${what})`);
          reply(refused(CLIPBOARD_MESSAGES.failed));
        }),
      );
    };
  }

  /** Spends the session's budget, records, relays. */
  async function relay(state: ControlState, kind: ClipboardEventKind, technicianId: string, send: () => void) {
    if (!takeSession(state.sessionId, kind)) {
      refusals(`${kind}-session`);
      return refused(CLIPBOARD_MESSAGES.tooMany);
    }
    await devices.recordClipboard(state.sessionId, kind, technicianId);
    send();
    return { ok: true } as const;
  }

  return {
    onBrowserSocket(socket) {
      const onPaste = handler(ClipboardPaste, "vers-client", async ({ code, text }) => {
        const caller = socket.data.caller;
        if (!can(caller, "session:join")) return refused(CLIPBOARD_MESSAGES.notAllowed);
        const state = await devices.controlState(normalizeSessionCode(code));
        // The session's joined technician only, while control is allowed (consent, toggle, app connected).
        if (!state || state.technicianId !== caller.userId || state.refusal !== null || !state.pairingId) {
          refusals("vers-client-non-autorisé");
          return refused(CLIPBOARD_MESSAGES.notAllowed);
        }
        const pairingId = state.pairingId;
        return relay(state, "clipboard-to-customer", caller.userId, () => options.toApp(pairingId, { text }));
      });
      socket.on("clipboard:paste", onPaste);
    },

    onDeviceSocket(socket) {
      const identity = { ...socket.data };
      const onSend = handler(DeviceClipboard, "vers-technicien", async ({ text }) => {
        const state = await devices.controlState(identity.code);
        // This session's current app only (not a replaced one), a technician there, control allowed.
        if (!state || state.pairingId !== identity.pairingId || !state.technicianId || state.refusal !== null) {
          refusals("vers-technicien-non-autorisé");
          return refused(CLIPBOARD_MESSAGES.notAllowed);
        }
        const technicianId = state.technicianId;
        return relay(state, "clipboard-to-technician", technicianId, () =>
          options.toTechnician(technicianId, { code: identity.code, text }),
        );
      });
      socket.on("device:clipboard", onSend);
    },
  };
}
