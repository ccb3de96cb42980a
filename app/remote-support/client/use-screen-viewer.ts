/**
 * The technician's side of the peer connection as a React hook (issue 6,
 * spec §4 "Peer connection", §7 "Peer-to-peer"; moved out of
 * `ui/remote-view.tsx` by issue 14). The connection itself is
 * `ScreenViewer` (`peer.ts`, no React); this hook keeps one for the joined
 * session while the dashboard is mounted, whether the remote view is open
 * or reduced, and asks for a new offer when the server connection comes
 * back (issue 13 §4) unless the picture is still flowing.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { ControlMessage } from "#app/remote-support/control-channel.ts";
import { ScreenViewer, sessionIceServers, socketSignaling, type PeerState } from "./peer";
import type { RealtimeSocket } from "./session-events";

export type ScreenViewerState = {
  state: PeerState;
  stream: MediaStream | null;
  /** Last data channel round trip, ms (null before the first pong). */
  roundTripMs: number | null;
  channelOpen: boolean;
  /** Puts a message on the data channel; false when it is not open. */
  send: (message: ControlMessage) => boolean;
};

/** The technician's peer connection for session `code` (null: none), signaling over `socket`. */
export function useScreenViewer(code: string | null, socket: RealtimeSocket | null): ScreenViewerState {
  const [state, setState] = useState<PeerState>("waiting");
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [roundTripMs, setRoundTripMs] = useState<number | null>(null);
  const [channelOpen, setChannelOpen] = useState(false);
  const viewerRef = useRef<ScreenViewer | null>(null);
  const send = useCallback((message: ControlMessage) => viewerRef.current?.send(message) ?? false, []);
  const stateRef = useRef(state);
  stateRef.current = state;

  useEffect(() => {
    setState("waiting");
    setStream(null);
    setRoundTripMs(null);
    setChannelOpen(false);
    if (!code || !socket) return;
    let cancelled = false;
    let viewer: ScreenViewer | null = null;
    void sessionIceServers(code).then((iceServers) => {
      if (cancelled) return;
      viewer = new ScreenViewer({
        signaling: socketSignaling(socket, code),
        iceServers,
        onStream: setStream,
        onStateChange: setState,
        onRoundTrip: setRoundTripMs,
        onChannelChange: setChannelOpen,
        // Issue 38 §1: the chat travels over the server (`use-session-chat.ts`); the customer sends nothing else here.
        onControl: () => {},
      });
      viewerRef.current = viewer;
      viewer.ready();
    });
    // After a signaling outage, ask again unless the picture is still flowing.
    const onReconnect = () => {
      if (viewerRef.current === viewer && viewer && stateRef.current !== "connected") viewer.ready();
    };
    socket.on("connect", onReconnect);
    return () => {
      cancelled = true;
      socket.off("connect", onReconnect);
      viewer?.close();
      viewerRef.current = null;
    };
  }, [code, socket]);

  return { state, stream, roundTripMs, channelOpen, send };
}
