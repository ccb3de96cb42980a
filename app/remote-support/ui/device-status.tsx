/**
 * What the technician knows of the customer's desktop app (issue 15):
 * paired or not, on which system, whether the customer allows control, and
 * anything that stops it (said in French as the app reported it).
 */
import type { DeviceView } from "#app/remote-support/device-protocol.ts";
import { controlObstacle, deviceSummary, shownScreenText } from "./device-panel";

/** The technician's sentence on consent and control. */
export function technicianControlText(device: DeviceView | null): string {
  if (!device?.paired)
    return "Le client n'a pas lancé le logiciel : la souris et le clavier ne peuvent que lui être montrés.";
  if (device.controlActive) return "Contrôle actif : vos clics et vos touches arrivent sur l'ordinateur du client.";
  // Issue 37 §10: an app session has no page; « Autoriser le contrôle » is the button of the page and of the app
  // (key C in its terminal).
  if (!device.consent) return "Le client n'a pas autorisé le contrôle : il l'autorise avec « Autoriser le contrôle ».";
  return "Contrôle autorisé par le client : activez « Envoyer souris et clavier ».";
}

/** `screenChoice`: the view shows its own choice of monitor ("Écran affiché"), so the monitor is not said again here. */
export function DeviceStatus({ device, screenChoice = false }: { device: DeviceView | null; screenChoice?: boolean }) {
  const obstacle = device?.paired ? controlObstacle(device) : null;
  const shown = device?.paired && !screenChoice ? shownScreenText(device) : null;
  return (
    <div className="flex flex-col gap-1 text-sm" data-testid="device-status">
      <p role="status" className={device?.paired ? "font-semibold text-emerald-300" : "text-slate-300"}>
        {deviceSummary(device)}
      </p>
      <p role="status" className="text-slate-200">
        {technicianControlText(device)}
      </p>
      {obstacle ? <p className="font-medium text-amber-200">{obstacle}</p> : null}
      {shown ? <p className="text-slate-200">{shown}</p> : null}
    </div>
  );
}
