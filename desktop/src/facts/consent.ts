/**
 * Issue 38 §4, the customer's consent to send the computer's facts, in every interface of the app: the box
 * « Envoyer les informations de l'ordinateur au technicien » of the first question, ticked by default with one line
 * saying what is sent (the window: a checkbox; zenity: a question after the name, « Envoyer » by default; the
 * terminal: a line saying they will be sent and that `--sans-informations` refuses). `--sans-informations` starts
 * every interface unticked (zenity and the terminal then ask nothing). Unticked: nothing is read, nothing is sent.
 */
import { FACTS_TEXTS, type ComputerFacts } from "#app/remote-support/facts-protocol.ts";

/**
 * The box's state, made by the app before the first question (`send`: ticked) and updated by the view with the
 * customer's answer (`AppView.askStart`).
 */
export type FactsChoice = { send: boolean };

/** Where the request bodies get the facts from (`pairing.ts`): undefined when the customer unticked them. */
export type FactsSource = { read(): Promise<ComputerFacts | undefined> };

/** The command line's refusal. */
export const NO_FACTS_FLAG = "--sans-informations";

/** The French texts of the consent. */
export const FACTS_CONSENT_TEXTS = {
  label: FACTS_TEXTS.consent,
  detail: FACTS_TEXTS.consentDetail,
  /** The terminal's line before the first question: sent, and how to refuse. */
  terminalOn:
    `Les informations de l'ordinateur seront envoyées au technicien : ${FACTS_TEXTS.consentDetail.toLowerCase()} ` +
    `Pour ne pas les envoyer, relancez le logiciel avec ${NO_FACTS_FLAG}.`,
  terminalOff: `Les informations de l'ordinateur ne seront pas envoyées au technicien (${NO_FACTS_FLAG}).`,
  /** Zenity's question and its two buttons. */
  question: `${FACTS_TEXTS.consent} ?`,
  send: "Envoyer",
  refuse: "Ne pas envoyer",
  /** Once the session exists, in every interface's notices: what was sent (its short line when there is one). */
  sent: (summary: string | null) =>
    `Informations de l'ordinateur envoyées au technicien${summary ? ` : ${summary}` : ""}.`,
  /** `--help`'s line. */
  help: `  ${NO_FACTS_FLAG}  n'envoie pas au technicien les informations de l'ordinateur (système, mémoire, disques…)`,
} as const;

/** `body` with the facts when there are any (`facts` undefined or empty: the body unchanged, nothing sent). */
export function withFacts<T extends object>(body: T, facts: ComputerFacts | undefined): T & { facts?: ComputerFacts } {
  return facts && Object.keys(facts).length > 0 ? { ...body, facts } : (body as T & { facts?: ComputerFacts });
}
