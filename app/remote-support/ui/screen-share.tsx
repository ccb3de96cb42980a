/**
 * The customer's screen sharing (issue 6; spec §2 "Full-screen remote view
 * … 'Partage d'écran' otherwise", §4 "Peer connection": the sharing side
 * captures the screen and creates the offer).
 *
 * 1. Consent: what the technician will see, and that it stops at any time.
 * 2. The browser's picker (`getDisplayMedia`, feature-detected, with a
 *    French message when unsupported, refused or not on HTTPS).
 * 3. "Partage d'écran": sharing is on, whether the technician sees it and
 *    whether their input is on; a preview with the technician's pointer,
 *    clicks and keys drawn on it (a browser cannot move the real mouse:
 *    full control comes with the desktop software); the chat; and "Arrêter
 *    le partage", which ends sharing and the session — as does the
 *    browser's own "stop sharing" control.
 * Unmounting (session ended by the technician, sign-out) stops the capture.
 * After the server connection comes back (issue 13 §4: restart, network),
 * a link to the technician that is not up is offered again (the picture
 * itself goes peer to peer and usually survives a server restart).
 */
import { MonitorUp, MonitorX } from "lucide-react";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { Button } from "~/components/ui/button";
import { FormStatus } from "~/components/ui/field";
import { apiGet, apiPost } from "../client/api";
import { ScreenSharer, socketSignaling, type PeerState } from "../client/peer";
import { describeControl } from "../client/remote-input";
import type { RealtimeSocket } from "../client/session-events";
import type { ControlMessage, IceServersResponse, SessionView } from "../protocol";
import { SessionChat, useSessionChat } from "./session-chat";

/** Why sharing could not start, in words for the customer. */
export const SHARE_MESSAGES = {
  unsupported:
    "Votre navigateur ne permet pas le partage d'écran. Utilisez une version récente de Chrome, Edge ou Firefox sur un ordinateur.",
  insecure: "Le partage d'écran n'est possible que sur une connexion sécurisée (adresse en https://).",
  refused: "Partage d'écran refusé. Cliquez de nouveau sur « Partager mon écran » et choisissez l'écran ou la fenêtre à montrer.",
  failed: "Le partage d'écran n'a pas pu démarrer. Veuillez réessayer.",
} as const;

/** Whether this browser can share a screen; the reason when it cannot. */
export function screenShareSupport(): { ok: true } | { ok: false; message: string } {
  if (typeof window !== "undefined" && !window.isSecureContext) return { ok: false, message: SHARE_MESSAGES.insecure };
  if (typeof navigator === "undefined" || typeof navigator.mediaDevices?.getDisplayMedia !== "function") {
    return { ok: false, message: SHARE_MESSAGES.unsupported };
  }
  return { ok: true };
}

/** A `getDisplayMedia` rejection → the message shown. */
export function shareErrorMessage(error: unknown): string {
  const name = error instanceof DOMException || error instanceof Error ? error.name : "";
  if (name === "NotAllowedError" || name === "AbortError") return SHARE_MESSAGES.refused;
  if (name === "NotSupportedError" || name === "TypeError") return SHARE_MESSAGES.unsupported;
  return SHARE_MESSAGES.failed;
}

const STATE_TEXT: Record<PeerState, string> = {
  waiting: "En attente du technicien…",
  connecting: "Connexion au technicien…",
  connected: "Le technicien voit votre écran",
  reconnecting: "Connexion perdue, nouvelle tentative…",
  failed: "La connexion avec le technicien a échoué.",
  closed: "Partage terminé.",
};

type Pointer = { x: number; y: number; pressed: boolean };

function recordEvent(code: string, kind: "sharing-started" | "sharing-stopped") {
  void apiPost(`/api/sessions/${encodeURIComponent(code)}/events`, { kind }).then((result) => {
    if (!result.ok) console.error("Erreur lors de l'enregistrement de l'événement", result.message);
  });
}

type Props = {
  session: SessionView;
  socket: RealtimeSocket | null;
  /** Called after the customer stopped sharing, to end the session (spec: the stop button ends sharing and the session). */
  onStop: () => Promise<void>;
};

export function ScreenSharePanel({ session, socket, onStop }: Props) {
  const headingId = useId();
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [requesting, setRequesting] = useState(false);
  const [error, setError] = useState("");
  const [peerState, setPeerState] = useState<PeerState>("waiting");
  const [channelOpen, setChannelOpen] = useState(false);
  const [controlOn, setControlOn] = useState(false);
  const [pointer, setPointer] = useState<Pointer | null>(null);
  const [actions, setActions] = useState<{ id: number; text: string }[]>([]);
  const sharerRef = useRef<ScreenSharer | null>(null);
  const previewRef = useRef<HTMLVideoElement>(null);
  const stopping = useRef(false);
  const connected = session.status === "connected";
  const connectedRef = useRef(connected);
  connectedRef.current = connected;
  const peerStateRef = useRef(peerState);
  peerStateRef.current = peerState;
  // The shared picture's width / height, so the preview box (and the pointer drawn on it) has its exact shape.
  const [aspect, setAspect] = useState(16 / 9);
  const send = useCallback((message: ControlMessage) => sharerRef.current?.send(message) ?? false, []);
  const chat = useSessionChat(connected ? session.code : null, "customer", send);
  const receiveChat = useRef(chat.receive);
  receiveChat.current = chat.receive;

  const onControl = useCallback((message: ControlMessage) => {
    switch (message.type) {
      case "chat":
        receiveChat.current(message.text);
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

  // The capture stops with this panel (session ended, sign-out, page left).
  useEffect(() => {
    return () => {
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, [stream]);

  useEffect(() => {
    if (previewRef.current && previewRef.current.srcObject !== stream) previewRef.current.srcObject = stream;
  }, [stream]);

  // One sharer per captured stream: it answers the technician's `ready` with an offer, and offers at once if they are already there.
  useEffect(() => {
    if (!stream || !socket) return;
    let cancelled = false;
    let sharer: ScreenSharer | null = null;
    void apiGet<IceServersResponse>(`/api/sessions/${encodeURIComponent(session.code)}/ice-servers`).then((ice) => {
      if (cancelled) return;
      if (!ice.ok) console.error("Erreur lors de la récupération des serveurs ICE", ice.message);
      sharer = new ScreenSharer({
        stream,
        signaling: socketSignaling(socket, session.code),
        iceServers: ice.ok ? ice.data.iceServers : [],
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
    // A `ready` the technician sent while this tab was still reconnecting is lost: offer again on our own return.
    const onReconnect = () => {
      if (sharer && sharerRef.current === sharer && connectedRef.current && peerStateRef.current !== "connected") sharer.connect();
    };
    socket.on("connect", onReconnect);
    return () => {
      cancelled = true;
      socket.off("connect", onReconnect);
      sharer?.close();
      sharerRef.current = null;
    };
  }, [stream, socket, session.code, onControl]);

  const stop = useCallback(async () => {
    if (stopping.current) return;
    stopping.current = true;
    recordEvent(session.code, "sharing-stopped");
    sharerRef.current?.close();
    setStream((current) => {
      for (const track of current?.getTracks() ?? []) track.stop();
      return null;
    });
    await onStop();
    stopping.current = false;
  }, [onStop, session.code]);

  async function share() {
    const support = screenShareSupport();
    if (!support.ok) return setError(support.message);
    setRequesting(true);
    setError("");
    try {
      const captured = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: false });
      // The browser's own "stop sharing" bar ends the track: same as our button.
      for (const track of captured.getVideoTracks()) track.addEventListener("ended", () => void stop(), { once: true });
      setStream(captured);
      recordEvent(session.code, "sharing-started");
    } catch (caught) {
      console.error("Erreur de partage d'écran", caught);
      setError(shareErrorMessage(caught));
    } finally {
      setRequesting(false);
    }
  }

  if (!stream) {
    return (
      <section aria-labelledby={headingId} className="flex flex-col gap-3 rounded-xl border border-slate-700 p-4">
        <h3 id={headingId} className="text-xl font-semibold text-white">
          Partager votre écran
        </h3>
        <p className="text-slate-200">
          Le technicien verra en direct tout ce qui s'affiche sur l'écran ou la fenêtre que vous choisirez, jusqu'à ce
          que vous arrêtiez le partage. Fermez d'abord ce que vous ne souhaitez pas montrer (messagerie, documents
          personnels). Vous pouvez arrêter à tout moment.
        </p>
        <div>
          <Button type="button" onClick={share} disabled={requesting}>
            <MonitorUp aria-hidden="true" className="size-5" />
            {requesting ? "Choix de l'écran..." : "Partager mon écran"}
          </Button>
        </div>
        <FormStatus tone="error">{error || null}</FormStatus>
      </section>
    );
  }

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4 rounded-xl border border-emerald-400/60 bg-slate-950/60 p-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id={headingId} className="text-xl font-semibold text-white">
          Partage d'écran
        </h3>
        <Button type="button" variant="secondary" onClick={() => void stop()}>
          <MonitorX aria-hidden="true" className="size-5" />
          Arrêter le partage
        </Button>
      </div>
      <div className="flex flex-col gap-1 text-slate-100">
        <p>Partage actif : votre écran est transmis.</p>
        <p role="status">{connected ? STATE_TEXT[peerState] : STATE_TEXT.waiting}</p>
        <p role="status">
          {controlOn ? "Le technicien pilote votre écran : souris et clavier activés." : "Souris et clavier du technicien : désactivés."}
        </p>
      </div>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <div className="flex flex-col gap-2">
          <div className="relative w-full overflow-hidden rounded-lg border border-slate-700 bg-black" style={{ aspectRatio: aspect }}>
            <video
              ref={previewRef}
              autoPlay
              playsInline
              muted
              aria-label="Aperçu de votre écran partagé"
              onResize={(event) => {
                const { videoWidth, videoHeight } = event.currentTarget;
                if (videoWidth > 0 && videoHeight > 0) setAspect(videoWidth / videoHeight);
              }}
              className="block size-full"
            />
            {pointer ? (
              <span
                data-testid="remote-pointer"
                data-x={pointer.x.toFixed(3)}
                data-y={pointer.y.toFixed(3)}
                aria-hidden="true"
                className={`pointer-events-none absolute size-5 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white shadow ${pointer.pressed ? "bg-amber-400" : "bg-sky-500"}`}
                style={{ left: `${pointer.x * 100}%`, top: `${pointer.y * 100}%` }}
              />
            ) : null}
          </div>
          <p className="text-sm text-slate-300">
            Depuis le navigateur, le technicien ne peut pas déplacer votre souris : vous voyez ici où il pointe et ce
            qu'il tape. Le contrôle complet arrivera avec notre logiciel de bureau.
          </p>
          <h4 className="font-semibold text-white">Dernières actions du technicien</h4>
          <ol aria-label="Dernières actions du technicien" className="flex flex-col gap-1 text-slate-200">
            {actions.length === 0 ? <li className="text-slate-400">Aucune action.</li> : null}
            {actions.map((action) => (
              <li key={action.id}>{action.text}</li>
            ))}
          </ol>
        </div>
        <SessionChat lines={chat.lines} onSend={chat.say} connected={channelOpen} otherName="Technicien" />
      </div>
    </section>
  );
}
