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
 * The peer connection, and what the technician does over it, is
 * `useScreenSharer` (`client/use-screen-sharer.ts`, issue 14), which also
 * offers the link again once the server connection is back (issue 13 §4).
 */
import { MonitorUp, MonitorX } from "lucide-react";
import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { FormStatus } from "#app/components/ui/field.tsx";
import type { PeerState } from "#app/remote-support/client/peer.ts";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";
import { reportSurface } from "#app/remote-support/client/api.ts";
import { useScreenSharer } from "#app/remote-support/client/use-screen-sharer.ts";
import { useLatestEvery } from "#app/remote-support/client/use-latest-every.ts";
import { useHydrated } from "#app/utils/use-hydrated.ts";
import type { SessionView } from "#app/remote-support/protocol.ts";
// The chat, shown once a technician is connected: a chunk of its own (issue 16).
const SessionChat = lazy(() => import("./session-chat").then((module) => ({ default: module.SessionChat })));

/** Why sharing could not start, in words for the customer. */
export const SHARE_MESSAGES = {
  unsupported:
    "Votre navigateur ne permet pas le partage d'écran. Utilisez une version récente de Chrome, Edge ou Firefox sur un ordinateur.",
  insecure: "Le partage d'écran n'est possible que sur une connexion sécurisée (adresse en https://).",
  refused:
    "Partage d'écran refusé. Cliquez de nouveau sur « Partager mon écran » et choisissez l'écran ou la fenêtre à montrer.",
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

type Props = {
  session: SessionView;
  socket: RealtimeSocket | null;
  /** Called after the customer stopped sharing, to end the session (spec: the stop button ends sharing and the session). */
  onStop: () => Promise<void>;
};

/** Tells the server what is shared (a whole screen or not, its size in px) for the desktop app's control (issue 15). */
async function reportShare(code: string, stream: MediaStream, width: number, height: number) {
  const surface = (stream.getVideoTracks()[0]?.getSettings() as { displaySurface?: string } | undefined)
    ?.displaySurface;
  const displaySurface = surface === "monitor" || surface === "window" || surface === "browser" ? surface : "unknown";
  const result = await reportSurface(code, { displaySurface, width, height });
  if (!result.ok && result.status !== 404) console.error("Erreur lors de l'envoi de la zone partagée", result.message);
}

/**
 * Issue 28 §8: the server takes a limited number of surface reports per minute (`DEFAULT_SESSION_EVENT_BUDGETS`),
 * and a shared window resized by dragging changes the picture's size many times a second. At most one report
 * every `SURFACE_REPORT_MS`: the first at once, then the latest size when the interval ends.
 */
const SURFACE_REPORT_MS = 1_000;

export function ScreenSharePanel({ session, socket, onStop }: Props) {
  const headingId = useId();
  const [requesting, setRequesting] = useState(false);
  const [error, setError] = useState("");
  const previewRef = useRef<HTMLVideoElement>(null);
  const stopping = useRef(false);
  const connected = session.status === "connected";
  const sharer = useScreenSharer(session.code, connected, socket);
  const { stream, peerState, controlOn, pointer, actions } = sharer;
  // The shared picture's width / height, so the preview box (and the pointer drawn on it) has its exact shape.
  const [aspect, setAspect] = useState(16 / 9);
  const reportLatest = useLatestEvery(SURFACE_REPORT_MS);
  // The page comes rendered by the server: a click before the scripts run would do nothing and say nothing.
  const hydrated = useHydrated();

  useEffect(() => {
    if (previewRef.current && previewRef.current.srcObject !== stream) previewRef.current.srcObject = stream;
  }, [stream]);

  const stopSharing = sharer.stop;
  const stop = useCallback(async () => {
    if (stopping.current) return;
    stopping.current = true;
    stopSharing();
    await onStop();
    stopping.current = false;
  }, [onStop, stopSharing]);

  async function share() {
    const support = screenShareSupport();
    if (!support.ok) return setError(support.message);
    setRequesting(true);
    setError("");
    try {
      const captured = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: false });
      // The browser's own "stop sharing" bar ends the track: same as our button.
      for (const track of captured.getVideoTracks()) track.addEventListener("ended", () => void stop(), { once: true });
      sharer.start(captured);
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
          <Button type="button" onClick={share} disabled={!hydrated || requesting}>
            <MonitorUp aria-hidden="true" className="size-5" />
            {requesting ? "Choix de l'écran..." : "Partager mon écran"}
          </Button>
        </div>
        <FormStatus tone="error">{error || null}</FormStatus>
        {/* Issue 38 §1: the chat needs no shared screen, only a technician there. */}
        {connected ? (
          <Suspense fallback={null}>
            <SessionChat code={session.code} side="customer" socket={socket} otherName="Technicien" />
          </Suspense>
        ) : null}
      </section>
    );
  }

  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-xl border border-emerald-400/60 bg-slate-950/60 p-4"
    >
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
          {controlOn
            ? "Le technicien pilote votre écran : souris et clavier activés."
            : "Souris et clavier du technicien : désactivés."}
        </p>
      </div>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <div className="flex flex-col gap-2">
          <div
            className="relative w-full overflow-hidden rounded-lg border border-slate-700 bg-black"
            style={{ aspectRatio: aspect }}
          >
            <video
              ref={previewRef}
              autoPlay
              playsInline
              muted
              aria-label="Aperçu de votre écran partagé"
              onResize={(event) => {
                const { videoWidth, videoHeight } = event.currentTarget;
                if (videoWidth > 0 && videoHeight > 0) {
                  setAspect(videoWidth / videoHeight);
                  // Issue 15: the desktop app maps the technician's pointer onto the monitor of this size.
                  reportLatest(() => void reportShare(session.code, stream, videoWidth, videoHeight));
                }
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
            qu'il tape. Pour qu'il clique et tape sur votre ordinateur, lancez notre logiciel de bureau et autorisez le
            contrôle.
          </p>
          <h4 className="font-semibold text-white">Dernières actions du technicien</h4>
          <ol aria-label="Dernières actions du technicien" className="flex flex-col gap-1 text-slate-200">
            {actions.length === 0 ? <li className="text-slate-400">Aucune action.</li> : null}
            {actions.map((action) => (
              <li key={action.id}>{action.text}</li>
            ))}
          </ol>
        </div>
        <Suspense fallback={null}>
          <SessionChat code={connected ? session.code : null} side="customer" socket={socket} otherName="Technicien" />
        </Suspense>
      </div>
    </section>
  );
}
