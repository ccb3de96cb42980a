/**
 * The `signal` relay of one signed-in browser socket (issue 6, spec §4 "Peer connection"; moved out of
 * `realtime.ts` by issue 38): an offer, answer or ICE candidate is checked against the socket's budget on arrival
 * (issue 13 §3: `SocketSignalBudget`, messages and bytes per second, at most `maxPending` waiting; past it refused at
 * once, never queued), then validated, relayed by the session service (`relaySignal`: the two participants of a
 * connected session only, stored in `signaling`) and delivered to the other participant, one message at a time per
 * socket. Acknowledged `{ ok: true }` or `{ ok: false, message }` (French).
 */
import type { Logger } from "pino";
import type { Socket } from "socket.io";
import { SESSION_MESSAGES, SignalMessage, type SignalAck } from "#app/remote-support/protocol.ts";
import type { Caller } from "#server/access.ts";
import { TokenBucket, type SocketSignalBudget } from "./limits.ts";
import type { SessionService } from "./sessions.ts";

export type SignalSocketOptions = {
  sessions: Pick<SessionService, "relaySignal">;
  logger: Logger;
  budget: SocketSignalBudget;
  /** Whether the socket's sign-in session still holds (re-checked when old); false: the socket was ended. */
  revalidate(): Promise<boolean>;
  /** Delivers `message` to the browsers of account `recipientId`, in order. */
  deliver(recipientId: string, message: { code: string; data: unknown }): Promise<void>;
};

/** Adds the `signal` handler to `socket` (see the module comment). */
export function handleSignalSocket(
  socket: Pick<Socket, "on"> & { data: { caller: Caller } },
  options: SignalSocketOptions,
): void {
  const relay = async (message: unknown, reply: (result: SignalAck) => void) => {
    if (!(await options.revalidate())) return;
    const checked = SignalMessage.safeParse(message, { error: () => SESSION_MESSAGES.badSignal });
    if (!checked.success)
      return reply({ ok: false, message: checked.error.issues[0]?.message ?? SESSION_MESSAGES.badSignal });
    const { code, data } = checked.data;
    const result = await options.sessions.relaySignal(socket.data.caller, code, data);
    if (!result.ok) return reply({ ok: false, message: result.message });
    await options.deliver(result.recipientId, { code, data });
    reply({ ok: true });
  };
  // Issue 13 §3: checked on arrival, so a flood costs neither the database nor memory in the queue below.
  const { budget, logger } = options;
  const messageBucket = new TokenBucket(budget.burstMessages, budget.messagesPerSecond);
  const byteBucket = new TokenBucket(budget.burstBytes, budget.bytesPerSecond);
  let pending = 0;
  let refused = 0;
  let refusalLoggedAt = 0;
  const withinBudget = (message: unknown): boolean => {
    if (pending < budget.maxPending && messageBucket.take() && byteBucket.take(JSON.stringify(message)?.length ?? 0))
      return true;
    // One line per connection and 10 s at most: a flood must not turn into a flood of logs.
    refused += 1;
    if (Date.now() - refusalLoggedAt >= 10_000) {
      logger.warn(
        { userId: socket.data.caller.userId, refused },
        "Socket.IO : signalisation refusée (budget de la connexion)",
      );
      refusalLoggedAt = Date.now();
      refused = 0;
    }
    return false;
  };
  // One message at a time per socket: an offer must not be overtaken by the ICE candidates sent right after it.
  let previous: Promise<void> = Promise.resolve();
  socket.on("signal", (message, ack) => {
    const reply = (result: SignalAck) => {
      if (typeof ack === "function") ack(result);
    };
    if (!withinBudget(message)) return reply({ ok: false, message: SESSION_MESSAGES.signalTooFast });
    pending += 1;
    previous = previous.then(() =>
      relay(message, reply)
        .catch((error: unknown) => {
          logger.error({ err: error }, "Socket.IO : message de signalisation non relayé");
          reply({ ok: false, message: SESSION_MESSAGES.failed });
        })
        .finally(() => {
          pending -= 1;
        }),
    );
  });
}
