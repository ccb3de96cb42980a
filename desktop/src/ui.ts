/**
 * The app's terminal interface (issue 15, "What the customer does"): plain
 * French, redrawn whole on every change (no log flood): who is connected,
 * whether control is allowed and active, why injection is impossible, how
 * to stop. `renderScreen` is pure; `TerminalView` writes it.
 */
import type { DeviceState, Injection } from "#app/remote-support/device-protocol.ts";
import type { LinkPhase } from "./connection.ts";
import { APP_NAME, APP_VERSION } from "./version.ts";

/** Everything the screen shows. */
export type ScreenModel = {
  server: string;
  computerName: string;
  /** "pairing" before the link exists. */
  phase: LinkPhase | "pairing";
  customerName: string | null;
  state: DeviceState | null;
  injection: Injection | null;
  withdrawnHere: boolean;
  /** Last short notes (newest last), at most a few. */
  notices: readonly string[];
  /** Whether the R key works (stdin is a terminal). */
  keys: boolean;
};

const PHASE_TEXT: Record<ScreenModel["phase"], string> = {
  pairing: "Appairage en cours…",
  connecting: "Connexion au serveur…",
  connected: "Connecté au serveur.",
  reconnecting: "Connexion perdue : nouvelle tentative en cours… (la prise de contrôle est suspendue)",
  ended: "Session terminée.",
  refused: "Connexion refusée par le serveur.",
  stopped: "Arrêté.",
};

/** The whole screen as text lines (no colours: readable in any terminal and in logs). */
export function renderScreen(model: ScreenModel): string {
  const lines = [`${APP_NAME} — version ${APP_VERSION}`, "=".repeat(60), ""];
  lines.push(`Ordinateur : ${model.computerName}`);
  lines.push(`Serveur    : ${model.server}`);
  lines.push(`État       : ${PHASE_TEXT[model.phase]}`);
  lines.push("");
  const state = model.state;
  if (model.customerName || state) lines.push(`Session de : ${state?.customerName || model.customerName}`);
  if (state) {
    lines.push(`Technicien : ${state.technicianName ?? "en attente du technicien"}`);
    lines.push("");
    lines.push(controlLine(state, model.withdrawnHere));
  }
  if (model.injection && !model.injection.ok) {
    lines.push("");
    lines.push("⚠ Prise de contrôle impossible sur cet ordinateur :");
    lines.push(...wrap(model.injection.reason, 76).map((line) => `  ${line}`));
  }
  if (model.notices.length > 0) {
    lines.push("");
    for (const notice of model.notices) lines.push(`• ${notice}`);
  }
  lines.push("");
  lines.push("-".repeat(60));
  lines.push("Pour arrêter : Ctrl+C, ou fermez cette fenêtre. Le technicien perd alors tout accès.");
  if (model.keys && state?.consent && !model.withdrawnHere) {
    lines.push("R : retirer l'autorisation de contrôle (le partage d'écran continue).");
  }
  return lines.join("\n");
}

function controlLine(state: DeviceState, withdrawnHere: boolean): string {
  if (withdrawnHere || !state.consent) {
    const prefix = withdrawnHere ? "Contrôle : autorisation retirée." : "Contrôle : non autorisé.";
    return state.controlRequested
      ? `${prefix} Le technicien demande la main : autorisez-la sur la page de la session si vous le souhaitez.`
      : `${prefix} Vous pouvez l'autoriser sur la page de la session.`;
  }
  if (state.controlActive) return "Contrôle : AUTORISÉ et ACTIF — le technicien utilise votre souris et votre clavier.";
  return "Contrôle : autorisé, mais le technicien ne l'utilise pas en ce moment.";
}

/** Splits `text` into lines of at most `width` characters, at spaces. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** Minimal writable terminal (process.stdout or a test double). */
export type Output = { write(text: string): unknown; isTTY?: boolean };

/**
 * Writes the screen: on a terminal, clears and redraws it in place; else
 * (output piped to a file) writes it again only when it changed.
 */
export class TerminalView {
  readonly #out: Output;
  #last = "";

  constructor(out: Output) {
    this.#out = out;
  }

  draw(model: ScreenModel): void {
    const text = renderScreen(model);
    if (text === this.#last) return;
    this.#last = text;
    // Cursor home + clear screen: the view replaces itself instead of scrolling.
    if (this.#out.isTTY) this.#out.write(`\x1b[H\x1b[2J${text}\n`);
    else this.#out.write(`${text}\n\n`);
  }

  /** A final line after the view (the app is exiting). */
  say(text: string): void {
    this.#out.write(`\n${text}\n`);
  }
}
