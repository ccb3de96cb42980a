/**
 * The in-session chat's state (issue 6; moved out of `ui/session-chat.tsx`
 * by issue 14): messages travel over the data channel and the sender also
 * has the server keep them in the session's record
 * (`POST /api/sessions/:code/events`), so the report shows the conversation
 * and a reloaded page gets it back.
 */
import { useCallback, useEffect, useState } from "react";
import type { ControlMessage } from "#app/remote-support/protocol.ts";
import { getSessionEvents, postSessionEvent } from "./api";

export type ChatLine = { id: string; mine: boolean; text: string; at: string };
type Side = "customer" | "technician";

export type SessionChatState = {
  /** Earlier lines (from the server) then live ones, oldest first. */
  lines: ChatLine[];
  /** To be called with each incoming `chat` message of the data channel. */
  receive: (text: string) => void;
  /** Sends one message; false when it could not leave (no session, channel not open). */
  say: (text: string) => boolean;
};

/**
 * The chat of session `code` (null: none) as seen by `side`. `send` puts a
 * message on the data channel and answers false when it is not open.
 */
export function useSessionChat(
  code: string | null,
  side: Side,
  send: (message: ControlMessage) => boolean,
): SessionChatState {
  const [lines, setLines] = useState<ChatLine[]>([]);

  useEffect(() => {
    setLines([]);
    if (!code) return;
    let cancelled = false;
    void getSessionEvents(code).then((result) => {
      if (cancelled || !result.ok) return;
      const earlier = result.data.events
        .filter((event) => event.kind === "chat" && event.text)
        .map((event) => ({ id: event.id, mine: event.actor === side, text: event.text ?? "", at: event.at }));
      setLines((live) => [...earlier, ...live]);
    });
    return () => {
      cancelled = true;
    };
  }, [code, side]);

  const receive = useCallback((text: string) => {
    setLines((current) => [
      ...current,
      { id: `recu-${Date.now()}-${current.length}`, mine: false, text, at: new Date().toISOString() },
    ]);
  }, []);

  const say = useCallback(
    (text: string): boolean => {
      if (!code || !send({ type: "chat", text })) return false;
      setLines((current) => [
        ...current,
        { id: `envoye-${Date.now()}-${current.length}`, mine: true, text, at: new Date().toISOString() },
      ]);
      void postSessionEvent(code, { kind: "chat", text }).then((result) => {
        if (!result.ok) console.error("Erreur lors de l'enregistrement du message", result.message);
      });
      return true;
    },
    [code, send],
  );

  return { lines, receive, say };
}
