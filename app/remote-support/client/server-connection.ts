/**
 * What a screen shows of its link to the server (issue 13 §4): the tab's
 * Socket.IO connection may drop (server restarting for a deploy, network
 * lost) and comes back by itself (`connectRealtime`); meanwhile the screens
 * say so politely, and once back they re-read their session, which the
 * server may have ended in between (`endedByServer`).
 */
import { useEffect, useState } from "react";
import { getSessionEvents } from "./api";
import type { RealtimeSocket } from "./session-events";

/**
 * - `connected`: up (or not yet tried: nothing to say);
 * - `lost`: down, reconnecting; `restarting` when the server announced it;
 * - `restored`: back after a loss (for `RESTORED_NOTICE_MS`, then `connected`).
 */
export type ServerLink = "connected" | "lost" | "restarting" | "restored";

/** How long "Connexion au serveur rétablie." stays, ms. */
export const RESTORED_NOTICE_MS = 5_000;

/** The sentence for each state (empty when there is nothing to say). */
export const SERVER_LINK_TEXT: Record<ServerLink, string> = {
  connected: "",
  lost: "Connexion au serveur perdue, reconnexion…",
  restarting: "Le serveur redémarre, reconnexion…",
  restored: "Connexion au serveur rétablie.",
};

/** Shown when the session a screen was showing was ended by the server (both sides away too long). */
export const SERVER_ENDED_TEXT =
  "La session a été terminée par le serveur : le client et le technicien étaient tous deux déconnectés depuis trop longtemps.";

/** The state of `socket`'s link to the server, updated live. */
export function useServerLink(socket: RealtimeSocket | null): ServerLink {
  const [link, setLink] = useState<ServerLink>("connected");
  useEffect(() => {
    setLink("connected");
    if (!socket) return;
    let restoredTimer: ReturnType<typeof setTimeout> | undefined;
    let down = false;
    const onRestarting = () => {
      down = true;
      setLink("restarting");
    };
    const onDisconnect = () => {
      clearTimeout(restoredTimer);
      down = true;
      // "Restarting" was said just before the close: keep the more precise sentence.
      setLink((current) => (current === "restarting" ? current : "lost"));
    };
    const onConnectError = () => {
      // Only once a connection was lost: a first connection still under way is not news.
      if (down) setLink((current) => (current === "restarting" ? current : "lost"));
    };
    const onConnect = () => {
      if (!down) return;
      down = false;
      setLink("restored");
      clearTimeout(restoredTimer);
      restoredTimer = setTimeout(() => setLink("connected"), RESTORED_NOTICE_MS);
    };
    socket.on("server:restarting", onRestarting);
    socket.on("disconnect", onDisconnect);
    socket.on("connect_error", onConnectError);
    socket.on("connect", onConnect);
    return () => {
      clearTimeout(restoredTimer);
      socket.off("server:restarting", onRestarting);
      socket.off("disconnect", onDisconnect);
      socket.off("connect_error", onConnectError);
      socket.off("connect", onConnect);
    };
  }, [socket]);
  return link;
}

/** Whether the link is up (signaling and pushes flow). */
export const isServerLinkUp = (link: ServerLink) => link === "connected" || link === "restored";

/**
 * Whether session `code` was ended by the server (its last `ended` event has
 * no actor). False when the record cannot be read.
 */
export async function endedByServer(code: string): Promise<boolean> {
  const result = await getSessionEvents(code);
  if (!result.ok) return false;
  const ended = result.data.events.findLast((event) => event.kind === "ended");
  return ended !== undefined && ended.actor === null;
}
