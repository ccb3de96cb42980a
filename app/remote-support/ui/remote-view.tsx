/**
 * The technician's full-screen remote view (issue 6; spec §2 "Full-screen
 * remote view when a session is active: title 'Contrôle à distance' …, a
 * toggle for sending input (starts off), a close button and a video area",
 * §4 "Remote-input toggle", §7 "Peer-to-peer", §9 ping every 5 s).
 *
 * `useScreenViewer` (`client/use-screen-viewer.ts`) keeps the peer
 * connection for the joined session while the dashboard is mounted, whether
 * the view is open or reduced. The view forwards mouse and keyboard over the
 * data channel only while the toggle is on; turning it off, leaving the window, reducing or closing the view
 * releases every key and button still held. Shift+Escape turns input off
 * from the keyboard (Escape alone goes to the customer), so focus is never
 * trapped in the picture (WCAG 2.1.2). While the server connection is lost
 * (issue 13 §4) the view says so: the picture and the data channel go peer
 * to peer and usually carry on; on its return the viewer asks for a new
 * offer unless the picture is still flowing.
 *
 * Issue 26: when the session's desktop app sends its own picture
 * (`DeviceView.appPicture`), the view shows it on a canvas (`useAppScreen`)
 * instead of the video, which stays as it was for a share from the
 * customer's browser. The pointer then maps to the canvas's picture (the same
 * letterboxing as the video), only while it shows the monitor the server
 * relays the input to; the keyboard and the toggle work as over the video.
 * The column beside the picture (conversation, computer's facts, copy–paste, files, chat): `remote-view-side.tsx`.
 */
import { Minimize2, MousePointer2 } from "lucide-react";
import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
  type WheelEvent,
} from "react";
import { Button } from "#app/components/ui/button.tsx";
import { cn } from "#app/utils/cn.ts";
import { postSessionEvent } from "#app/remote-support/client/api.ts";
import { DeviceInputSender } from "#app/remote-support/client/device-input.ts";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";
import type { DeviceView } from "#app/remote-support/device-protocol.ts";
import { HeldInputs, contentBox, pointerFraction } from "#app/remote-support/client/remote-input.ts";
import type { ServerLink } from "#app/remote-support/client/server-connection.ts";
import { useElapsedSeconds } from "#app/remote-support/client/timer.ts";
import type { ScreenViewerState } from "#app/remote-support/client/use-screen-viewer.ts";
import { useAppScreen } from "#app/remote-support/client/use-app-screen.ts";
import { usePlacedCanvas } from "#app/remote-support/client/use-placed-canvas.ts";
import { formatTimer, type SessionView } from "#app/remote-support/protocol.ts";
import { AppScreenBar } from "./app-screen-bar";
import { pictureStatus, pictureText } from "./picture-status";
import { DeviceStatus } from "./device-status";
import { ElevationControl } from "./elevation-control";
import { SecureAttentionButton } from "./secure-attention-button";
import { RemoteViewSide } from "./remote-view-side";
import { ServerLinkStatus } from "./server-link-status";
import { EndSessionButton } from "./end-session-button";

export { linkQuality } from "./picture-status";

type Props = {
  session: SessionView;
  viewer: ScreenViewerState;
  open: boolean;
  /** Back to the dashboard; the session and the connection go on. */
  onReduce: () => void;
  /** Ends the session (spec §4 "Disconnect"). */
  onEnd: () => void;
  ending: boolean;
  /** The server connection (the dashboard's own line is hidden behind this modal view). */
  serverLink: ServerLink;
  /** Issue 15: input for the customer's desktop app goes through the server on this socket. */
  socket: RealtimeSocket | null;
  /** The customer's desktop app, paired or not. */
  device: DeviceView | null;
};

export function RemoteView({ session, viewer, open, onReduce, onEnd, ending, serverLink, socket, device }: Props) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const surfaceRef = useRef<HTMLDivElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const canvasHostRef = useRef<HTMLDivElement>(null);
  const held = useRef(new HeldInputs());
  const pendingMove = useRef<{ x: number; y: number } | null>(null);
  const frame = useRef(0);
  const [controlOn, setControlOn] = useState(false);
  const controlRef = useRef(controlOn);
  controlRef.current = controlOn;
  const seconds = useElapsedSeconds(session.startTime);
  const { send } = viewer;
  const [deviceRefusal, setDeviceRefusal] = useState("");
  // Issue 15: the same pointer and keys, for the desktop app, only while the customer allows control.
  const deviceInput = useMemo(
    () =>
      socket
        ? new DeviceInputSender(session.code, (batch, ack) => socket.emit("input", batch, ack), setDeviceRefusal)
        : null,
    [socket, session.code],
  );
  const toDevice = controlOn && device?.controlActive === true ? deviceInput : null;
  // Issue 26: the app's own picture, kept while the view is reduced (its canvas is placed again on reopening).
  const appMode = device?.appPicture === true;
  const appScreen = useAppScreen(session.code, socket, appMode);
  const appCanvas = appScreen.canvas;
  // A refusal is about the state it was sent in; a new state starts clean.
  useEffect(() => setDeviceRefusal(""), [device?.controlActive, controlOn]);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  useEffect(() => {
    if (videoRef.current && videoRef.current.srcObject !== viewer.stream) videoRef.current.srcObject = viewer.stream;
  }, [viewer.stream, open]);

  usePlacedCanvas(canvasHostRef, appCanvas, [open, appMode]);

  const releaseAll = useCallback(() => {
    pendingMove.current = null;
    for (const release of held.current.releaseAll()) send(release);
    deviceInput?.releaseAll();
  }, [send, deviceInput]);

  const setControl = useCallback(
    (enabled: boolean) => {
      if (controlRef.current === enabled) return;
      controlRef.current = enabled;
      setControlOn(enabled);
      if (!enabled) releaseAll();
      send({ type: "control", enabled });
      void postSessionEvent(session.code, { kind: enabled ? "control-on" : "control-off" }).then((result) => {
        if (!result.ok) console.error("Erreur lors de l'enregistrement de l'événement", result.message);
      });
      if (enabled) surfaceRef.current?.focus();
    },
    [releaseAll, send, session.code],
  );

  // The customer learns the toggle's state whenever the channel (re)opens.
  useEffect(() => {
    // Only on channel changes (the toggle sends its own message), hence `controlOn` read through the ref.
    if (viewer.channelOpen) send({ type: "control", enabled: controlRef.current });
  }, [viewer.channelOpen, send]);

  // Leaving the window, reducing or closing the view, or the session ending: nothing stays pressed.
  useEffect(() => {
    window.addEventListener("blur", releaseAll);
    return () => {
      window.removeEventListener("blur", releaseAll);
      releaseAll();
    };
  }, [releaseAll]);
  useEffect(() => {
    if (!open) setControl(false);
  }, [open, setControl]);

  /** The pointer → fractions of the picture shown (video or the app's canvas), letterboxing excluded; null outside. */
  function fractionOf(event: PointerEvent<HTMLElement>) {
    if (event.currentTarget instanceof HTMLVideoElement) {
      const video = event.currentTarget;
      const rect = video.getBoundingClientRect();
      return pointerFraction(
        event.clientX - rect.left,
        event.clientY - rect.top,
        contentBox(rect.width, rect.height, video.videoWidth, video.videoHeight),
      );
    }
    // The canvas shows another monitor than the one the server now relays input to (a switch under way).
    if (!appCanvas || (device?.shownScreen && appScreen.screen !== device.shownScreen)) return null;
    const rect = appCanvas.getBoundingClientRect();
    return pointerFraction(
      event.clientX - rect.left,
      event.clientY - rect.top,
      contentBox(rect.width, rect.height, appCanvas.width, appCanvas.height),
    );
  }

  function onPointerMove(event: PointerEvent<HTMLElement>) {
    if (!controlOn) return;
    const position = fractionOf(event);
    if (!position) return;
    toDevice?.move(position.x, position.y);
    // At most one mousemove per frame: the last position wins.
    pendingMove.current = position;
    if (frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      if (pendingMove.current) send({ type: "mousemove", ...pendingMove.current });
      pendingMove.current = null;
    });
  }

  function onPointerDown(event: PointerEvent<HTMLElement>) {
    if (!controlOn) return;
    event.preventDefault();
    surfaceRef.current?.focus();
    const position = fractionOf(event);
    if (!position) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    pendingMove.current = null;
    send({ type: "mousemove", ...position });
    toDevice?.move(position.x, position.y);
    toDevice?.button(event.button, true);
    const message = { type: "mousedown" as const, button: event.button };
    if (send(message)) held.current.note(message);
  }

  function onPointerUp(event: PointerEvent<HTMLElement>) {
    if (!controlOn) return;
    const position = fractionOf(event);
    // The app's button goes up whether or not the data channel took the press (there may be none with the app's picture).
    if (position) toDevice?.move(position.x, position.y);
    toDevice?.button(event.button, false);
    if (!held.current.isButtonHeld(event.button)) return;
    if (position) send({ type: "mousemove", ...position });
    const message = { type: "mouseup" as const, button: event.button };
    send(message);
    held.current.note(message);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (!controlOn) return;
    if (event.key === "Escape" && event.shiftKey) {
      event.preventDefault();
      setControl(false);
      return;
    }
    event.preventDefault();
    // Typed text repeats on the app (a held letter types again); keys by code are pressed once (the OS repeats).
    toDevice?.keyDown(event.nativeEvent);
    if (held.current.isKeyHeld(event.code)) return; // auto-repeat: the customer's system repeats by itself
    const message = { type: "keydown" as const, key: event.key, code: event.code };
    if (send(message)) held.current.note(message);
  }

  function onKeyUp(event: KeyboardEvent<HTMLDivElement>) {
    deviceInput?.keyUp(event.code);
    if (!controlOn || !held.current.isKeyHeld(event.code)) return;
    event.preventDefault();
    const message = { type: "keyup" as const, key: event.key, code: event.code };
    send(message);
    held.current.note(message);
  }

  const pointerHandlers = {
    onPointerMove,
    onPointerDown,
    onPointerUp,
    onWheel: (event: WheelEvent<HTMLElement>) => {
      // Pixels or lines → notches: about 100 px per notch in Chromium and Firefox.
      const perNotch = event.deltaMode === 0 ? 100 : event.deltaMode === 1 ? 3 : 1;
      toDevice?.wheel(event.deltaX / perNotch, event.deltaY / perNotch);
    },
    onContextMenu: (event: MouseEvent<HTMLElement>) => {
      if (controlOn) event.preventDefault();
    },
  };
  const source = { app: appMode ? appScreen : null, viewer, device };
  const placeholder = pictureText(source);

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby="controle-titre"
      onCancel={(event) => {
        // Escape belongs to the customer while input is on; otherwise it reduces the view.
        event.preventDefault();
        if (!controlOn) onReduce();
      }}
      className="m-0 h-dvh max-h-none w-screen max-w-none bg-slate-950 p-0 text-slate-100 backdrop:bg-slate-950"
    >
      {open ? (
        <div className="flex h-full flex-col">
          <header className="flex flex-wrap items-center gap-x-6 gap-y-2 border-b border-slate-700 px-4 py-3">
            <h2 id="controle-titre" className="text-xl font-bold text-white">
              Contrôle à distance
            </h2>
            <p className="text-slate-200">
              <bdi>{session.userName}</bdi> · <span className="font-mono tabular-nums">{formatTimer(seconds)}</span>
            </p>
            <p role="status" className="text-slate-200">
              {pictureStatus(source)}
            </p>
            <ServerLinkStatus link={serverLink} />
            <DeviceStatus device={device} screenChoice={appMode} />
            <ElevationControl code={session.code} device={device} socket={socket} />
            {deviceRefusal ? (
              <p role="alert" className="text-sm font-medium text-amber-200">
                {deviceRefusal}
              </p>
            ) : null}
            <div className="ml-auto flex flex-wrap gap-2">
              <Button
                type="button"
                variant={controlOn ? "primary" : "secondary"}
                aria-pressed={controlOn}
                // With the app's picture, input travels through the server: no data channel is needed.
                disabled={!viewer.channelOpen && !appMode}
                onClick={() => setControl(!controlOn)}
              >
                <MousePointer2 aria-hidden="true" className="size-5" />
                Envoyer souris et clavier
              </Button>
              <SecureAttentionButton
                platform={device?.platform}
                send={toDevice && (() => toDevice.secureAttention())}
              />
              <Button type="button" variant="secondary" onClick={onReduce}>
                <Minimize2 aria-hidden="true" className="size-5" />
                Réduire
              </Button>
              <EndSessionButton onEnd={onEnd} ending={ending} />
            </div>
          </header>
          <div className="flex min-h-0 flex-1 flex-col gap-4 p-4 lg:flex-row">
            <div className="flex min-h-64 min-w-0 flex-1 flex-col gap-2">
              <p id="controle-aide" className="text-sm text-slate-300">
                {controlOn
                  ? "Souris et clavier envoyés au client. Maj+Échap pour reprendre la main."
                  : "Souris et clavier ne sont pas envoyés. Activez « Envoyer souris et clavier » pour guider le client."}
              </p>
              {appMode && device ? <AppScreenBar device={device} appScreen={appScreen} /> : null}
              <div
                ref={surfaceRef}
                tabIndex={0}
                role="application"
                aria-label="Écran du client"
                aria-describedby="controle-aide"
                onKeyDown={onKeyDown}
                onKeyUp={onKeyUp}
                className={cn(
                  "relative min-h-0 flex-1 overflow-hidden rounded-lg border bg-black focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300",
                  controlOn ? "border-sky-400" : "border-slate-700",
                )}
              >
                {/* Kept (hidden) while the app's picture is shown: the browser share carries on as it was. */}
                <video
                  ref={videoRef}
                  autoPlay
                  playsInline
                  muted
                  hidden={appMode}
                  data-testid="remote-video"
                  {...pointerHandlers}
                  className={cn(
                    "absolute inset-0 size-full object-contain",
                    controlOn ? "cursor-crosshair" : "cursor-default",
                  )}
                />
                {appMode ? (
                  // The app's canvas (`useAppScreen`) is placed in here.
                  <div
                    ref={canvasHostRef}
                    {...pointerHandlers}
                    className={cn("absolute inset-0", controlOn ? "cursor-crosshair" : "cursor-default")}
                  />
                ) : null}
                {placeholder ? (
                  <div
                    className={cn(
                      "absolute inset-0 flex flex-col items-center justify-center gap-2 p-6 text-center text-slate-200",
                      // Issue 36 §4: over the app's last picture (secure desktop), which must not pass for live.
                      appMode && "bg-black",
                    )}
                  >
                    {placeholder.map((line) => (
                      <p key={line}>{line}</p>
                    ))}
                  </div>
                ) : null}
              </div>
            </div>
            {/* The conversation, the computer's facts, copy–paste, files and the chat (`remote-view-side.tsx`). */}
            <RemoteViewSide session={session} socket={socket} device={device} />
          </div>
        </div>
      ) : null}
    </dialog>
  );
}
