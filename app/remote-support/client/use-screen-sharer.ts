/**
 * The customer's side of the peer connection as a React hook (issue 6, spec
 * §4 "Peer connection": the sharing side creates the offer; split out of
 * `ui/screen-share.tsx` by issue 14). The connection itself is
 * `ScreenSharer` (`peer.ts`, no React); this hook keeps one per captured
 * stream, and follows what the technician does over the data channel (input
 * toggle, pointer, clicks and keys, chat). After the server connection comes
 * back (issue 13 §4) a link that is not up is offered again: a `ready` the
 * technician sent meanwhile is lost. The capture (`getDisplayMedia`) stays
 * with the screen, which owns its consent and errors.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { ControlMessage } from "#app/remote-support/control-channel.ts";
import { postSessionEvent } from "./api";
import { ScreenSharer, sessionIceServers, socketSignaling, type PeerState } from "./peer";
import { describeControl } from "./remote-input";
import type { RealtimeSocket } from "./session-events";

/** The technician's pointer over the shared picture: fractions 0–1, and whether a button is down. */
export type RemotePointer = { x: number; y: number; pressed: boolean };

export type ScreenSharerState = {
  /** The captured screen while sharing, else null. */
  stream: MediaStream | null;
  peerState: PeerState;
  channelOpen: boolean;
  /** Whether the technician's input toggle is on. */
  controlOn: boolean;
  pointer: RemotePointer | null;
  /** The technician's last clicks and keys in words, newest first (at most 6). */
  actions: { id: number; text: string }[];
  /** Shares `captured` (the session's record notes it). */
  start: (captured: MediaStream) => void;
  /** Stops sharing: the connection closes, the capture stops, the record notes it. */
  stop: () => void;
};

function recordEvent(code: string, kind: "sharing-started" | "sharing-stopped") {
  void postSessionEvent(code, { kind }).then((result) => {
    if (!result.ok) console.error("Erreur lors de l'enregistrement de l'événement", result.message);
  });
}

/**
 * Screen sharing for session `code`, signaling over `socket`. `connected`:
 * whether a technician has joined; the offer waits for them.
 */
export function useScreenSharer(code: string, connected: boolean, socket: RealtimeSocket | null): ScreenSharerState {
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [peerState, setPeerState] = useState<PeerState>("waiting");
  const [channelOpen, setChannelOpen] = useState(false);
  const [controlOn, setControlOn] = useState(false);
  const [pointer, setPointer] = useState<RemotePointer | null>(null);
  const [actions, setActions] = useState<{ id: number; text: string }[]>([]);
  const sharerRef = useRef<ScreenSharer | null>(null);
  const connectedRef = useRef(connected);
  connectedRef.current = connected;
  const peerStateRef = useRef(peerState);
  peerStateRef.current = peerState;

  const onControl = useCallback((message: ControlMessage) => {
    switch (message.type) {
      case "chat":
        // Issue 38 §1: the chat travels over the server (`use-session-chat.ts`), never this channel any more.
        return;
      case "control":
        setControlOn(message.enabled);
        if (!message.enabled) setPointer((current) => (current ? { ...current, pressed: false } : null));
        return;
      case "mousemove":
        setPointer((current) => ({ x: message.x, y: message.y, pressed: current?.pressed ?? false }));
        return;
      default: {
        const text = describeControl(message);
        if (message.type === "mousedown" || message.type === "mouseup") {
          setPointer((current) => (current ? { ...current, pressed: message.type === "mousedown" } : current));
        }
        if (text) setActions((current) => [{ id: (current[0]?.id ?? 0) + 1, text }, ...current].slice(0, 6));
      }
    }
  }, []);

  // The capture stops with its user (session ended, sign-out, page left).
  useEffect(() => {
    return () => {
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, [stream]);

  // One sharer per captured stream: it answers the technician's `ready` with an offer, and offers at once if they are already there.
  useEffect(() => {
    if (!stream || !socket) return;
    let cancelled = false;
    let sharer: ScreenSharer | null = null;
    void sessionIceServers(code).then((iceServers) => {
      if (cancelled) return;
      sharer = new ScreenSharer({
        stream,
        signaling: socketSignaling(socket, code),
        iceServers,
        onStateChange: setPeerState,
        onChannelChange: (open) => {
          setChannelOpen(open);
          if (!open) {
            setControlOn(false);
            setPointer(null);
          }
        },
        onControl,
      });
      sharerRef.current = sharer;
      if (connectedRef.current) sharer.connect();
    });
    const onReconnect = () => {
      if (sharer && sharerRef.current === sharer && connectedRef.current && peerStateRef.current !== "connected")
        sharer.connect();
    };
    socket.on("connect", onReconnect);
    return () => {
      cancelled = true;
      socket.off("connect", onReconnect);
      sharer?.close();
      sharerRef.current = null;
    };
  }, [stream, socket, code, onControl]);

  const start = useCallback(
    (captured: MediaStream) => {
      setStream(captured);
      recordEvent(code, "sharing-started");
    },
    [code],
  );

  const stop = useCallback(() => {
    recordEvent(code, "sharing-stopped");
    sharerRef.current?.close();
    setStream((current) => {
      for (const track of current?.getTracks() ?? []) track.stop();
      return null;
    });
  }, [code]);

  return { stream, peerState, channelOpen, controlOn, pointer, actions, start, stop };
}
