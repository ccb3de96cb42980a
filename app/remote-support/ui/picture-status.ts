/**
 * What the technician's remote view says about the picture (issues 6, 26): the header's status line and the
 * lines shown in the picture area while it shows nothing, for the browser's share (WebRTC) and for the
 * desktop app's own picture.
 */
import type { PeerState } from "#app/remote-support/client/peer.ts";
import type { DeviceView } from "#app/remote-support/device-protocol.ts";
import { ELEVATION_MESSAGES } from "#app/remote-support/elevation-protocol.ts";
import { REBOOT_MESSAGES, rebootPending } from "#app/remote-support/reboot-protocol.ts";
import { APP_SCREEN_TEXT, appPictureObstacle } from "./app-screen-bar";

export const STATE_TEXT: Record<PeerState, string> = {
  waiting: "En attente du partage d'écran du client…",
  connecting: "Connexion à l'écran du client…",
  connected: "Écran du client affiché",
  reconnecting: "Connexion perdue, nouvelle tentative…",
  failed: "La connexion a échoué.",
  closed: "Connexion fermée.",
};

/** Link quality from the round trip (ms), for the technician. */
export function linkQuality(roundTripMs: number): string {
  if (roundTripMs < 80) return "bonne";
  if (roundTripMs < 200) return "moyenne";
  return "faible";
}

/** Where the picture stands: the app's picture (`app`, when it is the source) or the browser's share. */
export type PictureSource = {
  app: { hasPicture: boolean } | null;
  viewer: { state: PeerState; stream: MediaStream | null; roundTripMs: number | null };
  device: DeviceView | null;
};

/** The header's status line: the picture's state (paused by the secure desktop, issue 36 §4), and a share's round trip. */
export function pictureStatus({ app, viewer, device }: PictureSource): string {
  if (app && device?.secureDesktop) return ELEVATION_MESSAGES.paused;
  // Issue 38 §3: the app is away while the computer restarts.
  if (!app && !viewer.stream && device?.paired && rebootPending(device.rebootingUntil))
    return REBOOT_MESSAGES.restarting;
  if (app) return app.hasPicture ? STATE_TEXT.connected : APP_SCREEN_TEXT.waiting;
  const latency =
    viewer.roundTripMs !== null && viewer.state === "connected"
      ? ` · Latence : ${Math.round(viewer.roundTripMs)} ms (${linkQuality(viewer.roundTripMs)})`
      : "";
  return STATE_TEXT[viewer.state] + latency;
}

/**
 * The lines of the picture area while it shows nothing (null while it shows a picture): the app's picture on
 * its way, or why the app sends none, then the share's state; issue 36 §4: while Windows shows its secure
 * desktop, that the customer must answer it (over the last picture, which is hidden).
 */
export function pictureText({ app, viewer, device }: PictureSource): string[] | null {
  // Issue 36 §4: Windows shows its secure desktop (UAC…): the last picture would be a lie; it resumes by itself.
  if (app && device?.secureDesktop) return [ELEVATION_MESSAGES.secureDesktop];
  if (app) return app.hasPicture ? null : [APP_SCREEN_TEXT.waiting];
  if (viewer.stream) return null;
  const obstacle = appPictureObstacle(device);
  return obstacle ? [obstacle, STATE_TEXT[viewer.state]] : [STATE_TEXT[viewer.state]];
}
