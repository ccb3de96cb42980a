/**
 * Around the desktop app's picture in the technician's remote view (issue
 * 26): where the picture comes from and how it flows, the monitor shown
 * when the computer has several ("Écran affiché"), a button to ask for a
 * fresh picture; and what the picture area says while there is no picture.
 */
import { SHOP_TIME_ZONE } from "#app/booking/time-zone.ts";
import { RefreshCw } from "lucide-react";
import { useId } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Select } from "#app/components/ui/field.tsx";
import type { AppScreenState } from "#app/remote-support/client/use-app-screen.ts";
import type { DeviceView, Screen } from "#app/remote-support/device-protocol.ts";
import { REBOOT_MESSAGES, rebootPending } from "#app/remote-support/reboot-protocol.ts";
import { appWords } from "./device-panel";

export const APP_SCREEN_TEXT = {
  waiting: "En attente de l'image du logiciel…",
  source: "Image transmise par le logiciel",
  noViewConsent: "Le client n'a pas encore autorisé l'affichage de son écran dans le logiciel.",
  switching: "changement d'écran…",
} as const;

/** "Écran 1 (principal) — 1920 × 1080". */
export function screenLabel(screen: Screen, index: number): string {
  return `Écran ${index + 1}${screen.primary ? " (principal)" : ""} — ${screen.width} × ${screen.height}`;
}

/** The monitor the picture shows: `shownScreen`, else the primary one, else the first. */
export function shownScreenId(device: DeviceView): string | null {
  const known = device.screens.find((screen) => screen.id === device.shownScreen);
  return (known ?? device.screens.find((screen) => screen.primary) ?? device.screens[0])?.id ?? null;
}

/**
 * Why the app sends no picture, when it could (a paired app of issue 26): it
 * cannot capture (its French reason), or the customer has not allowed it yet;
 * issue 38 §3: the computer restarts (« Redémarrage en cours… »).
 * Null otherwise (no app, an older app, the picture flows).
 */
export function appPictureObstacle(device: DeviceView | null): string | null {
  if (device?.paired && !device.appPicture && rebootPending(device.rebootingUntil)) return REBOOT_MESSAGES.restarting;
  if (!device?.paired || device.appPicture || !device.capture) return null;
  if (!device.capture.ok) return appWords(device.capture.reason);
  if (device.connected && !device.viewConsent) return APP_SCREEN_TEXT.noViewConsent;
  return null;
}

const clock = new Intl.DateTimeFormat("fr-FR", {
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  timeZone: SHOP_TIME_ZONE,
});

/** "12 images/s", "1 image/s"; a still screen: "0 image/s (dernière image à 14:02:31)". */
export function fpsText(fps: number, lastFrameAt: number | null = null): string {
  const rate = `${fps} ${fps > 1 ? "images" : "image"}/s`;
  return fps === 0 && lastFrameAt !== null ? `${rate} (dernière image à ${clock.format(lastFrameAt)})` : rate;
}

/** The note, the monitor choice and the refresh button, above the app's picture. */
export function AppScreenBar({ device, appScreen }: { device: DeviceView; appScreen: AppScreenState }) {
  const selectId = useId();
  const shown = shownScreenId(device);
  const switching = appScreen.hasPicture && device.shownScreen !== null && appScreen.screen !== device.shownScreen;
  const figures = appScreen.hasPicture
    ? ` · ${appScreen.width} × ${appScreen.height} · ${fpsText(appScreen.fps, appScreen.lastFrameAt)}${switching ? ` · ${APP_SCREEN_TEXT.switching}` : ""}`
    : "";
  return (
    // The note is one line cut short, and counts as 16 rem when the line wraps: its changing figures never move the picture.
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
      <p className="min-w-0 flex-1 basis-64 truncate text-sm text-slate-300" data-testid="app-screen-note">
        {APP_SCREEN_TEXT.source}
        {figures}
      </p>
      {device.screens.length > 1 ? (
        <div className="flex shrink-0 items-center gap-2">
          <label htmlFor={selectId} className="text-sm font-medium text-slate-100">
            Écran affiché
          </label>
          <Select
            id={selectId}
            className="min-h-10 w-auto py-1.5 text-sm"
            value={shown ?? ""}
            onChange={(event) => appScreen.select(event.currentTarget.value)}
          >
            {device.screens.map((screen, index) => (
              <option key={screen.id} value={screen.id}>
                {screenLabel(screen, index)}
              </option>
            ))}
          </Select>
        </div>
      ) : null}
      <Button
        type="button"
        variant="secondary"
        className="min-h-10 shrink-0 px-3 py-1.5 text-sm"
        onClick={appScreen.refresh}
      >
        <RefreshCw aria-hidden="true" className="size-4" />
        Actualiser l'image
      </Button>
    </div>
  );
}
