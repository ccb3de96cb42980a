/**
 * Issue 38 §1, the session chat over Socket.IO for every session (`chat-protocol.ts`), on the Socket.IO server of
 * `realtime.ts` (browsers) and `device-realtime.ts` (the desktop app):
 *
 * - `chat:send` from a signed-in browser: checked by zod, within the socket's budget, then stored by the session
 *   record (`recordEvent`, kind `chat`: a participant of a connected session, within its event budget), which
 *   announces the line; acknowledged with the line (`ChatAck`) or the record's French refusal.
 * - `device:chat` from an app socket: the session's current app only, stored as the session's customer side
 *   (`recordAppChat`), announced the same way.
 * - Each announced line (`SessionServiceEvent` `chat`, also from `POST /api/sessions/:code/events`) is pushed as
 *   `session:chat` to the session's customer account and technician (every tab, the sender's others too), and a
 *   technician's line as `device:chat` to the session's app. Emitted through the adapter: other processes' sockets
 *   hear it too.
 * - The text is stored with the session (the report shows it) and never logged: refusals log their reason only,
 *   one summary line a minute.
 */
import type { Logger } from "pino";
import type { Socket } from "socket.io";
import { ZodError } from "zod";
import {
  CHAT_MESSAGES,
  ChatSend,
  DeviceChatSend,
  type ChatAck,
  type ChatLine,
  type SessionChatPush,
} from "#app/remote-support/chat-protocol.ts";
import type { DeviceToServerEvents, ServerToDeviceEvents } from "#app/remote-support/device-protocol.ts";
import {
  normalizeSessionCode,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from "#app/remote-support/protocol.ts";
import { firstNameOf } from "#app/remote-support/technician-name.ts";
import type { Caller } from "#server/access.ts";
import { sharedRefusalLog } from "#server/refusal-log.ts";
import type { ControlState, DeviceIdentity } from "./device-state.ts";
import { TokenBucket } from "./limits.ts";
import type { SessionRecord } from "./session-record.ts";
import type { SessionServiceEvent } from "./session-rules.ts";

type BrowserSocket = Socket<ClientToServerEvents, ServerToClientEvents, object, { caller: Caller }>;
type AppSocket = Socket<DeviceToServerEvents, ServerToDeviceEvents, object, DeviceIdentity>;

/** Chat lines one browser socket may send, refused or not: a burst, then per second (each costs a lookup). */
const SOCKET_BUDGET = { burst: 10, perSecond: 2 } as const;

export type ChatRelayOptions = {
  sessions: Pick<SessionRecord, "recordEvent" | "recordAppChat"> & {
    subscribe(listener: (event: SessionServiceEvent) => void): () => void;
  };
  /** The relay's cached state of session `code` (`DeviceService.controlState`); absent without the app link. */
  controlState?: (code: string) => Promise<ControlState | null>;
  logger: Logger;
  /** Emits `session:chat` to the browsers of these accounts. */
  toBrowsers(userIds: string[], push: SessionChatPush): void;
  /** Emits `device:chat` to the app of `pairingId`. */
  toApp?: (pairingId: string, line: ChatLine) => void;
};

export type ChatRelay = {
  /** Adds `chat:send` to a signed-in browser socket. */
  onBrowserSocket(socket: BrowserSocket): void;
  /** Adds `device:chat` to an authenticated app socket. */
  onDeviceSocket(socket: AppSocket): void;
  /** Stops listening to the session service. */
  close(): void;
};

const refused = (message: string): ChatAck => ({ ok: false, message });

/** The relay (see the module comment); one per process. */
export function createChatRelay(options: ChatRelayOptions): ChatRelay {
  const { sessions, logger } = options;
  const refusals = sharedRefusalLog(logger, "messages de session refusés");

  const unsubscribe = sessions.subscribe((event) => {
    if (event.type !== "chat") return;
    const { session, line } = event;
    const userIds = [session.userId, session.technicianId].filter((id) => id !== null);
    if (userIds.length > 0) options.toBrowsers(userIds, { code: session.code, line });
    if (line.from !== "technician" || !options.controlState || !options.toApp) return;
    const toApp = options.toApp;
    options
      .controlState(session.code)
      .then((state) => {
        if (state?.pairingId) toApp(state.pairingId, line);
      })
      .catch((error: unknown) => logger.error({ err: error }, "message de session non relayé au logiciel"));
  });

  /** Acknowledges `ack` when it is a function (a client may send none); never throws. */
  const replier = (ack: unknown) => (result: ChatAck) => {
    if (typeof ack === "function") ack(result);
  };
  const invalid = (error: ZodError) => refused(error.issues[0]?.message ?? CHAT_MESSAGES.invalid);

  return {
    onBrowserSocket(socket) {
      const budget = new TokenBucket(SOCKET_BUDGET.burst, SOCKET_BUDGET.perSecond);
      socket.on("chat:send", (payload: unknown, ack: unknown) => {
        const reply = replier(ack);
        if (!budget.take()) {
          refusals("socket");
          return reply(refused(CHAT_MESSAGES.tooMany));
        }
        const checked = ChatSend.safeParse(payload);
        if (!checked.success) {
          refusals("invalide");
          return reply(invalid(checked.error));
        }
        const { code, text } = checked.data;
        sessions
          .recordEvent(socket.data.caller, normalizeSessionCode(code), { kind: "chat", text })
          .then((result) => {
            if (!result.ok) {
              refusals(result.reason);
              return reply(refused(result.message));
            }
            const { event } = result;
            const from = event.actor === "technician" ? "technician" : "customer";
            // Issue 40: the technician's first name, as the customer's copy of the line says it.
            const name = from === "technician" ? firstNameOf(socket.data.caller.name) : null;
            reply({ ok: true, line: { id: event.id, from, name, text: event.text ?? text, at: event.at } });
          })
          .catch(() => reply(refused(CHAT_MESSAGES.failed)));
      });
    },

    onDeviceSocket(socket) {
      const identity = { ...socket.data };
      socket.on("device:chat", (payload: unknown, ack: unknown) => {
        const reply = replier(ack);
        const checked = DeviceChatSend.safeParse(payload);
        if (!checked.success) {
          refusals("logiciel-invalide");
          return reply(invalid(checked.error));
        }
        const text = checked.data.text;
        void (async () => {
          // This session's current app only (not one a newer connection replaced).
          const state = await options.controlState?.(identity.code);
          if (!state || state.pairingId !== identity.pairingId) {
            refusals("logiciel-non-autorisé");
            return reply(refused(CHAT_MESSAGES.notConnected));
          }
          const result = await sessions.recordAppChat(identity.sessionId, text);
          if (!result.ok) {
            refusals(result.reason);
            return reply(refused(result.message));
          }
          reply({ ok: true, line: result.line });
        })().catch(() => reply(refused(CHAT_MESSAGES.failed)));
      });
    },

    close: unsubscribe,
  };
}
