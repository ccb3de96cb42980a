/**
 * Issue 38 §3, « Reboot and reconnect »: what every interface of the app says about the technician's
 * « Redémarrer l'ordinateur » (the terminal, the window and zenity's dialogs take them from here, as they take
 * `views/texts.ts`'s). Pure: no I/O.
 */
import type { ScreenModel } from "../ui.ts";

/** Where a restart stands in the app: asked (the customer answers), being prepared, or under way; else null. */
export type RebootState = "asked" | "preparing" | "restarting" | null;

/** The French sentences and labels. */
export const REBOOT_TEXTS = {
  asked:
    "Le technicien demande à redémarrer votre ordinateur. Enregistrez d'abord votre travail : les programmes " +
    "ouverts seront fermés. Après le redémarrage, reconnectez-vous à votre session : le logiciel reviendra tout " +
    "seul et le technicien vous retrouvera.",
  keys: "Appuyez sur O pour accepter le redémarrage, ou sur N pour le refuser.",
  buttons: "Cliquez sur « Redémarrer l'ordinateur » pour accepter, ou sur « Refuser le redémarrage ».",
  accept: "Redémarrer l'ordinateur",
  decline: "Refuser le redémarrage",
  title: "Redémarrage de l'ordinateur",
  preparing: "Préparation du redémarrage…",
  restarting:
    "L'ordinateur va redémarrer. Reconnectez-vous ensuite à votre session : le logiciel reviendra tout seul " +
    "dans l'assistance (pendant 15 minutes).",
  declined: "Vous avez refusé le redémarrage de l'ordinateur : l'assistance continue.",
  failed: "L'ordinateur n'a pas pu être redémarré : l'assistance continue.",
  stuck: "L'ordinateur n'a pas redémarré (un programme l'a peut-être empêché) : l'assistance continue.",
  resumed:
    "Le logiciel a repris la session d'assistance. Autorisez de nouveau le technicien à voir l'écran si vous le " +
    "souhaitez.",
} as const;

/** How the customer acts in an interface: the terminal's keys, buttons, or nothing. */
type How = "keys" | "buttons" | false;

/** The lines about a restart asked or under way (none otherwise, nor once the app has stopped). */
export function rebootLines(model: ScreenModel, how: How): string[] {
  if (model.phase === "ended" || model.phase === "refused" || model.phase === "stopped") return [];
  if (model.reboot === "preparing") return [REBOOT_TEXTS.preparing];
  if (model.reboot === "restarting") return [REBOOT_TEXTS.restarting];
  if (model.reboot !== "asked") return [];
  return how ? [REBOOT_TEXTS.asked, REBOOT_TEXTS[how]] : [REBOOT_TEXTS.asked];
}

/** The terminal's keys for it (O accepts, N declines), while asked. */
export function rebootKeyLines(model: ScreenModel): string[] {
  return model.reboot === "asked"
    ? ["O : accepter le redémarrage de l'ordinateur.", "N : refuser le redémarrage de l'ordinateur."]
    : [];
}
