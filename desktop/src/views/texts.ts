/**
 * The French sentences every interface of the desktop app says (issue 27,
 * "The window"): the terminal (`ui.ts`), the window (`window-state.ts`) and
 * the zenity dialogs (`zenity.ts`) take them from here, so that they say the
 * same things about the same `ScreenModel`. Pure: no I/O.
 *
 * `how` says how the customer acts in that interface: `"keys"` (the terminal's
 * letters), `"buttons"` (the window's or the dialogs' buttons), or `false`
 * when nothing can be pressed here (stdin not read: the page of the session
 * is the only place to allow anything).
 */
import type { DeviceState } from "#app/remote-support/device-protocol.ts";
import { firstNameOf, technicianJoinedText } from "#app/remote-support/technician-name.ts";
import type { ScreenModel } from "../ui.ts";

/** How the customer acts in an interface (see the module comment). */
export type ActHow = "keys" | "buttons" | false;

/** The link's state, in one sentence. */
export const PHASE_TEXT: Record<ScreenModel["phase"], string> = {
  pairing: "Connexion au serveur…",
  connecting: "Connexion au serveur…",
  connected: "Connecté au serveur.",
  reconnecting: "Connexion perdue : nouvelle tentative en cours… (l'assistance est suspendue)",
  ended: "Session terminée.",
  refused: "Connexion refusée par le serveur.",
  stopped: "Arrêté : le technicien n'a plus accès à cet ordinateur.",
};

/** Phases after which nothing more happens: only the final state is shown. */
export const FINAL_PHASES: ReadonlySet<ScreenModel["phase"]> = new Set(["ended", "refused", "stopped"]);

/** The labels of the window's buttons, and of the dialogs' (the actions of `ViewActions`). */
export const BUTTON_LABELS = {
  view: "Autoriser à voir l'écran",
  hide: "Ne plus montrer l'écran",
  control: "Autoriser le contrôle",
  withdraw: "Reprendre la main",
  clipboard: "Envoyer le presse-papiers au technicien",
  stop: "Arrêter l'assistance",
  start: "Démarrer",
  close: "Fermer",
  /** Issue 36 §4. */
  elevate: "Relancer en administrateur",
  declineElevation: "Refuser",
} as const;

/**
 * What the first question says (terminal prompt, window form, zenity entry). Issue 40: it asks the first name; the
 * pairing code (a session started on the website) is the secondary way in: a link that shows its own field in the
 * window, a button that opens its own entry in zenity, a line under the question in the terminal.
 */
export const START_TEXTS = {
  explain:
    "Tapez votre prénom (facultatif), puis « Démarrer » : un code de session s'affiche, à donner au technicien " +
    "qui vous aide par téléphone.",
  label: "Votre prénom",
  /** The link (window) or button (zenity) to the pairing code's field. */
  codeLink: "J'ai un code d'appairage",
  codeExplain:
    "Vous avez démarré une session sur notre site ? Sa page affiche un code d'appairage (ex. ACDE-3479) sous " +
    "« Contrôle de votre ordinateur » : tapez-le ici pour y relier ce logiciel.",
  codeLabel: "Code d'appairage",
  /** Back from the pairing code's field to the first name's. */
  nameLink: "Je n'ai pas de code : démarrer avec mon prénom",
  /** The terminal's line under the question: its one field takes a pairing code too. */
  codeInstead:
    "Vous avez un code d'appairage (affiché sur la page de votre session sur notre site, ex. ACDE-3479) ? " +
    "Tapez-le à la place de votre prénom.",
} as const;

/** Above the session code. */
export const CODE_HINT = "Donnez ce code au technicien :";

/**
 * The technician's first name once one has joined, else null. Issue 40: read again from what the server sent
 * (`firstNameOf`: untrusted, one word, bounded), so an older server's full name shows as its first word.
 */
export function technicianOf(model: ScreenModel): string | null {
  return firstNameOf(model.state?.technicianName);
}

/** Issue 40: « Julien, technicien de l'atelier, est connecté. » once a technician joined, else null. */
export function joinedLine(model: ScreenModel): string | null {
  return model.state?.technicianName ? `${technicianJoinedText(technicianOf(model))}.` : null;
}

/** Issue 40: why no « Autoriser… » button is offered before a technician joins (the window). */
export const CONSENT_LATER_TEXT = "Les autorisations vous seront demandées quand un technicien sera connecté.";

/** "Jean, technicien, voit votre écran", or whether the screen is shown at all (none without capture). */
export function viewLines(model: ScreenModel, technician: string | null): string[] {
  const state = model.state;
  if (!state) return [];
  if (model.viewAllowed && state.controlActive && technician)
    return [`${technician}, technicien, voit votre écran et contrôle votre souris et votre clavier.`];
  if (model.viewAllowed && model.streaming && technician) return [`${technician}, technicien, voit votre écran.`];
  if (model.viewAllowed) return ["Écran : vous avez autorisé le technicien à le voir."];
  if (model.capture === undefined || model.capture === null) return [];
  return ["Écran : le technicien ne le voit pas."];
}

/** Whether control is allowed, used, asked for, and how to allow it in this interface. */
export function controlLine(state: DeviceState, withdrawnHere: boolean, how: ActHow): string {
  if (withdrawnHere || !state.consent) {
    const prefix = withdrawnHere ? "Contrôle : autorisation retirée." : "Contrôle : non autorisé.";
    const action =
      how === "keys"
        ? "appuyez sur C pour l'autoriser"
        : how === "buttons"
          ? `cliquez sur « ${BUTTON_LABELS.control} » pour l'autoriser`
          : "autorisez-la sur la page de la session";
    const where = how === "buttons" ? `bouton « ${BUTTON_LABELS.control} »` : "touche C";
    return state.controlRequested
      ? `${prefix} Le technicien demande la main : ${action} si vous le souhaitez.`
      : `${prefix} Vous pouvez l'autoriser (${where}) quand le technicien le demande.`;
  }
  if (state.controlActive) return "Contrôle : AUTORISÉ et ACTIF — le technicien utilise votre souris et votre clavier.";
  return "Contrôle : autorisé, mais le technicien ne l'utilise pas en ce moment.";
}

/** Why the screen cannot be shown or control cannot work here, each as a title and its reason. */
export function problems(model: ScreenModel): { title: string; reason: string }[] {
  const list: { title: string; reason: string }[] = [];
  if (model.capture && !model.capture.ok)
    list.push({ title: "Le technicien ne peut pas voir cet écran :", reason: model.capture.reason });
  if (model.injection && !model.injection.ok)
    list.push({ title: "Prise de contrôle impossible sur cet ordinateur :", reason: model.injection.reason });
  return list;
}

/** Whether the technician sees the screen now (the picture is sent) and controls the mouse and keyboard. */
export function watching(model: ScreenModel): { sees: boolean; controls: boolean } {
  const state = model.state;
  const live = !FINAL_PHASES.has(model.phase) && Boolean(state?.technicianName);
  return {
    sees: live && Boolean(model.viewAllowed && model.streaming),
    controls: live && Boolean(state?.controlActive && state.consent && !model.withdrawnHere),
  };
}

/**
 * The sentence of the sign that stays visible while someone watches or
 * controls (issue 27): "Julien, technicien, voit votre écran", "… contrôle
 * votre souris et votre clavier", or null when nobody does.
 */
export function signText(model: ScreenModel): string | null {
  const { sees, controls } = watching(model);
  const name = technicianOf(model) ?? "Le technicien";
  if (sees && controls) return `${name}, technicien, voit votre écran et contrôle votre souris et votre clavier.`;
  if (controls) return `${name}, technicien, contrôle votre souris et votre clavier.`;
  if (sees) return `${name}, technicien, voit votre écran.`;
  return null;
}

/** Issue 36 §4: what the app says about the technician's « Relancer en administrateur ». */
export const ELEVATION_TEXTS = {
  asked:
    "Le technicien demande de relancer le logiciel en administrateur, pour agir aussi sur les programmes lancés " +
    "en administrateur et sur les fenêtres de Windows qui demandent une autorisation.",
  keys: "Appuyez sur A pour accepter : Windows vous demandera votre accord.",
  buttons: `Cliquez sur « ${BUTTON_LABELS.elevate} » pour accepter : Windows vous demandera votre accord.`,
  relaunching:
    "Relance en administrateur : répondez « Oui » dans la fenêtre de Windows (contrôle de compte d'utilisateur).",
  started: "Le logiciel se relance en administrateur : la session va continuer dans sa nouvelle fenêtre.",
  cancelled: "Vous avez refusé la fenêtre de Windows : l'assistance continue sans droits d'administrateur.",
  failed: "Le logiciel n'a pas pu être relancé en administrateur : l'assistance continue sans ces droits.",
  exited:
    "Le logiciel relancé s'est arrêté avant de reprendre la session : l'assistance continue ici, sans droits " +
    "d'administrateur.",
  declined: "Vous avez refusé de relancer le logiciel en administrateur.",
  replaced: "Le logiciel a été relancé en administrateur : la session continue dans sa nouvelle fenêtre.",
} as const;

/** Issue 36 §4: the lines about a relaunch as administrator asked or under way (none otherwise). */
export function elevationLines(model: ScreenModel, how: ActHow): string[] {
  if (FINAL_PHASES.has(model.phase)) return [];
  if (model.elevation === "relaunching") return [ELEVATION_TEXTS.relaunching];
  if (model.elevation !== "asked") return [];
  return how ? [ELEVATION_TEXTS.asked, ELEVATION_TEXTS[how]] : [ELEVATION_TEXTS.asked];
}

/** An action the customer can take now (a key in the terminal, a button elsewhere). */
export type ActionName =
  "view" | "hide" | "control" | "withdraw" | "clipboard" | "elevate" | "acceptReboot" | "declineReboot";

/**
 * The actions that do something now, in the order they are offered: show or
 * stop showing the screen (when it can be captured), allow control or take it
 * back (once a session exists), send the clipboard (when the model says it
 * can be sent), relaunch as administrator (issue 36 §4, when the technician asked). Stopping is always possible and not listed.
 */
export function availableActions(model: ScreenModel): ActionName[] {
  if (FINAL_PHASES.has(model.phase)) return [];
  const actions: ActionName[] = [];
  if (model.capture?.ok) actions.push(model.viewAllowed ? "hide" : "view");
  if (model.state) actions.push(model.state.consent && !model.withdrawnHere ? "withdraw" : "control");
  if (model.clipboardSendable) actions.push("clipboard");
  if (model.elevation === "asked") actions.push("elevate");
  // Issue 38 §3: the technician's restart, answered here.
  if (model.reboot === "asked") actions.push("acceptReboot", "declineReboot");
  return actions;
}
