/**
 * The desktop app in the customer's session (issue 15): a single-use
 * pairing code to type into the app, then "Logiciel connecté" with the
 * computer's name, and the consent to control: the technician asks (their
 * toggle), the customer allows it here, and takes it back at any moment
 * with one button (or by closing the app). Anything that stops control from
 * working (Wayland, macOS permission, a window shared instead of the whole
 * screen) is said here in French.
 */
import { SHOP_TIME_ZONE } from "#app/booking/time-zone.ts";
import { Laptop } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { FormStatus } from "#app/components/ui/field.tsx";
import { useHydrated } from "#app/utils/use-hydrated.ts";
import { requestPairingCode, setConsent } from "#app/remote-support/client/api.ts";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";
import { useDevice } from "#app/remote-support/client/use-device.ts";
import {
  DEVICE_MESSAGES,
  formatPairingCode,
  PLATFORM_NAMES,
  type DeviceView,
  type PairingCodeResponse,
} from "#app/remote-support/device-protocol.ts";
import type { SessionView } from "#app/remote-support/protocol.ts";

const time = new Intl.DateTimeFormat("fr-FR", { hour: "2-digit", minute: "2-digit", timeZone: SHOP_TIME_ZONE });

/** "Logiciel connecté — PC-SALON (Linux)", or why it is not. */
export function deviceSummary(device: DeviceView | null): string {
  if (!device?.paired) return "Logiciel de contrôle : non connecté.";
  const where = `${device.computerName ?? "ordinateur"}${device.platform ? ` (${PLATFORM_NAMES[device.platform]})` : ""}`;
  return device.connected
    ? `Logiciel connecté — ${where}`
    : `Logiciel connecté — ${where} : connexion perdue, reconnexion…`;
}

/**
 * The desktop app's own words, quoted as such (issue 37 §6: an app's reason shown as the site's own text could
 * say anything, « appelez le support au 08 99… »). The server already refuses characters that hide or reorder text.
 */
export function appWords(reason: string): string {
  return `Le logiciel indique : « ${reason} »`;
}

/** What stops control, in French, or null when nothing does. */
export function controlObstacle(device: DeviceView): string | null {
  if (device.injection && !device.injection.ok) return appWords(device.injection.reason);
  // Issue 26: the app's own picture is always a whole monitor; only a browser share can be a window or a tab.
  if (!device.wholeScreen && !device.appPicture) return DEVICE_MESSAGES.windowShared;
  return null;
}

/** The monitor shown to the technician, when the computer has several. */
export function shownScreenText(device: DeviceView): string | null {
  if (device.screens.length < 2 || !device.shownScreen) return null;
  const index = device.screens.findIndex((screen) => screen.id === device.shownScreen);
  const screen = device.screens[index];
  return screen ? `Écran montré au technicien : écran ${index + 1} (${screen.width} × ${screen.height})` : null;
}

export function DevicePanel({ session, socket }: { session: SessionView; socket: RealtimeSocket | null }) {
  const headingId = useId();
  const { device, setDevice } = useDevice(session.code, socket);
  const [pairing, setPairing] = useState<PairingCodeResponse | null>(null);
  // A code is used once: when an app pairs, it is gone from the page, so that after the app leaves (issue 26)
  // the page offers a new one instead of showing the spent one.
  const paired = device?.paired === true;
  const [wasPaired, setWasPaired] = useState(paired);
  if (paired !== wasPaired) {
    setWasPaired(paired);
    if (paired) setPairing(null);
  }
  const [busy, setBusy] = useState(false);
  // Issue 30: disabled until hydrated, so a click while the scripts load is not lost without a word.
  const hydrated = useHydrated();
  const [error, setError] = useState("");

  async function showCode() {
    setBusy(true);
    setError("");
    const result = await requestPairingCode(session.code);
    setBusy(false);
    if (!result.ok) return setError(result.message);
    setPairing(result.data);
  }

  async function consent(allowed: boolean) {
    setBusy(true);
    setError("");
    const result = await setConsent(session.code, allowed);
    setBusy(false);
    if (!result.ok) return setError(result.message);
    setDevice(result.data.device);
  }

  const obstacle = device?.paired ? controlObstacle(device) : null;
  const shown = device?.paired ? shownScreenText(device) : null;

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3 rounded-xl border border-slate-700 p-4">
      <h3 id={headingId} className="flex items-center gap-2 text-xl font-semibold text-white">
        <Laptop aria-hidden="true" className="size-5 text-sky-300" />
        Contrôle de votre ordinateur
      </h3>
      <p role="status" className={device?.paired ? "font-semibold text-emerald-300" : "text-slate-200"}>
        {deviceSummary(device)}
      </p>
      {!device?.paired ? (
        <>
          <p className="text-slate-200">
            Pour que le technicien clique et tape sur votre ordinateur, téléchargez et lancez notre logiciel (plus bas),
            puis saisissez-y le code d'appairage ci-dessous.
          </p>
          {pairing ? (
            <div className="flex flex-col gap-1">
              <p className="text-slate-200">Code d'appairage à saisir dans le logiciel :</p>
              <p
                aria-label={`Code d'appairage : ${[...pairing.pairingCode].join(" ")}`}
                className="font-mono text-3xl font-bold tracking-[0.2em] text-white"
                data-testid="pairing-code"
              >
                {formatPairingCode(pairing.pairingCode)}
              </p>
              <p className="text-sm text-slate-300">
                Valable une seule fois, jusqu'à {time.format(new Date(pairing.expiresAt))}. Ne le communiquez à
                personne, pas même au technicien (il vous demande le code de session) : il relie le logiciel à votre
                session.
              </p>
            </div>
          ) : null}
          <div>
            <Button type="button" variant="secondary" onClick={showCode} disabled={busy || !hydrated}>
              {pairing ? "Afficher un nouveau code" : "Afficher un code d'appairage"}
            </Button>
          </div>
        </>
      ) : (
        <>
          {obstacle ? <p className="font-medium text-amber-200">{obstacle}</p> : null}
          {shown ? <p className="text-slate-200">{shown}</p> : null}
          <p role="status" className="text-slate-100">
            {device.controlActive
              ? "Le technicien contrôle votre ordinateur (souris et clavier)."
              : device.consent
                ? "Contrôle autorisé : le technicien peut prendre la main quand il l'active."
                : device.controlRequested
                  ? "Le technicien demande à prendre le contrôle de votre ordinateur."
                  : "Contrôle non autorisé : le technicien voit votre écran mais ne peut pas agir."}
          </p>
          <div className="flex flex-wrap gap-2">
            {device.consent ? (
              <Button type="button" onClick={() => void consent(false)} disabled={busy}>
                Reprendre la main
              </Button>
            ) : (
              <Button type="button" onClick={() => void consent(true)} disabled={busy}>
                Autoriser le contrôle
              </Button>
            )}
          </div>
        </>
      )}
      <FormStatus tone="error">{error || null}</FormStatus>
    </section>
  );
}
