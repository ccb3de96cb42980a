/**
 * The in-session chat's state (issue 6; moved out of `ui/session-chat.tsx` by issue 14). Issue 38 §1: lines travel
 * over the server's Socket.IO link for every session, site or app (`chat-protocol.ts`): `chat:send` with an
 * acknowledgement carrying the stored line, `session:chat` pushes from the other side (and from this account's
 * other tabs). The conversation so far is read once from the session's record
 * (`GET /api/sessions/:code/events`), so a reloaded page gets it back.
 */
import { useCallback, useEffect, useState } from "react";
import type { ChatAck, ChatLine as WireLine, SessionChatPush } from "#app/remote-support/chat-protocol.ts";
import { CHAT_MESSAGES } from "#app/remote-support/chat-protocol.ts";
import { getSessionEvents } from "./api";
import type { RealtimeSocket } from "./session-events";

/** One line as the panel shows it; `pending` while the server has not acknowledged it yet. */
export type ChatLine = { id: string; mine: boolean; text: string; at: string; pending?: boolean };
type Side = "customer" | "technician";

export type SessionChatState = {
  /** Earlier lines (from the server) then live ones, oldest first. */
  lines: ChatLine[];
  /** Sends one message; false when it cannot leave now (no session, server connection lost). */
  say: (text: string) => boolean;
  /** The server's last refusal (French), "" when the last message went. */
  error: string;
};

/** How long a message waits for the server's acknowledgement before it is said lost, ms. */
const ACK_TIMEOUT_MS = 10_000;

const shown = (line: WireLine, side: Side): ChatLine => ({
  id: line.id,
  mine: line.from === side,
  text: line.text,
  at: line.at,
});

/** Adds a stored line once: it may come both as this tab's acknowledgement and as a push to the account's tabs. */
function merge(lines: ChatLine[], line: ChatLine, replacing?: string): ChatLine[] {
  if (lines.some((current) => current.id === line.id)) return lines.filter((current) => current.id !== replacing);
  const at = lines.findIndex((current) =>
    replacing ? current.id === replacing : current.pending && current.mine && current.text === line.text,
  );
  if (at === -1) return [...lines, line];
  return lines.map((current, index) => (index === at ? line : current));
}

/** The chat of session `code` (null: none) as seen by `side`, over `socket` (null: not connected yet). */
export function useSessionChat(code: string | null, side: Side, socket: RealtimeSocket | null): SessionChatState {
  const [lines, setLines] = useState<ChatLine[]>([]);
  const [error, setError] = useState("");

  useEffect(() => {
    setLines([]);
    setError("");
    if (!code) return;
    let cancelled = false;
    void getSessionEvents(code).then((result) => {
      if (cancelled || !result.ok) return;
      const earlier = result.data.events
        .filter((event) => event.kind === "chat" && event.text)
        .map((event) => ({ id: event.id, mine: event.actor === side, text: event.text ?? "", at: event.at }));
      setLines((live) => [...earlier.filter((line) => !live.some((kept) => kept.id === line.id)), ...live]);
    });
    return () => {
      cancelled = true;
    };
  }, [code, side]);

  useEffect(() => {
    if (!code || !socket) return;
    const onLine = (push: SessionChatPush) => {
      if (push.code === code) setLines((current) => merge(current, shown(push.line, side)));
    };
    socket.on("session:chat", onLine);
    return () => void socket.off("session:chat", onLine);
  }, [code, side, socket]);

  const say = useCallback(
    (text: string): boolean => {
      if (!code || !socket?.connected) return false;
      const localId = `envoi-${crypto.randomUUID()}`;
      setError("");
      setLines((current) => [
        ...current,
        { id: localId, mine: true, text, at: new Date().toISOString(), pending: true },
      ]);
      const settle = (result: ChatAck) => {
        if (result.ok) return setLines((current) => merge(current, shown(result.line, side), localId));
        setLines((current) => current.filter((line) => line.id !== localId));
        setError(result.message);
      };
      socket
        .timeout(ACK_TIMEOUT_MS)
        .emit("chat:send", { code, text }, (timedOut: Error | null, result: ChatAck) =>
          settle(timedOut ? { ok: false, message: CHAT_MESSAGES.failed } : result),
        );
      return true;
    },
    [code, side, socket],
  );

  return { lines, say, error };
}
