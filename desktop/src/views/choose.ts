/**
 * Which interface the app uses (issue 27, "The window"; decision 022): the
 * one `--interface` forces, else the first that works of
 * 1. the window (a webview in a second process, `window.ts`), when there is
 *    a graphical session (Windows, macOS, or a Linux `DISPLAY`) and its
 *    library loads;
 * 2. on Linux with a display, zenity's dialogs (`zenity.ts`);
 * 3. the terminal (`terminal.ts`).
 * A forced interface that cannot work falls back the same way, and the app
 * says why on stderr. `describeInterface` gives `--help` the same answer,
 * checking the window's library without opening a window.
 */
import { spawn } from "node:child_process";
import { findOnPath } from "../launcher.ts";
import type { Output } from "../ui.ts";
import { type Input, TerminalAppView } from "./terminal.ts";
import type { AppView, InterfaceKind, ViewHooks } from "./view.ts";
import { openWindow } from "./window.ts";
import { parseWindowEvent } from "./window-state.ts";
import { ZenityAppView } from "./zenity.ts";

/** What the choice depends on (main.ts passes the process's; tests their own). */
export type ChooseContext = {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** The window process's command (`launcher.ts`'s `windowCommand`), or null when none can run. */
  windowCommand: readonly string[] | null;
  stdin: Input;
  stdout: Output;
  stderr: Output;
};

/** Whether a graphical session is there for a window (Linux: an X11 or Wayland display). */
function hasDisplay(context: Pick<ChooseContext, "platform" | "env">): boolean {
  return context.platform !== "linux" || Boolean(context.env.DISPLAY || context.env.WAYLAND_DISPLAY);
}

/** Why the window cannot be used before even trying, or null. */
function windowObstacle(context: ChooseContext): string | null {
  if (!hasDisplay(context)) return "pas d'affichage graphique";
  if (!context.windowCommand) return "Bun est introuvable pour lancer la fenêtre";
  return null;
}

/** The zenity program when it can be used here, else null. */
function zenityPath(context: Pick<ChooseContext, "platform" | "env">): string | null {
  if (context.platform !== "linux" || !context.env.DISPLAY) return null;
  return findOnPath("zenity", context.env);
}

/** The order tried for a choice: the forced one first, then the automatic order. */
function order(forced: InterfaceKind | null): InterfaceKind[] {
  const automatic: InterfaceKind[] = ["fenetre", "zenity", "terminal"];
  return forced ? [forced, ...automatic.filter((kind) => kind !== forced)] : automatic;
}

/** Opens the interface (see the module comment); never throws: the terminal always works. */
export async function openView(
  forced: InterfaceKind | null,
  context: ChooseContext,
  hooks: ViewHooks,
): Promise<AppView> {
  for (const kind of order(forced)) {
    if (kind === "terminal") break;
    if (kind === "fenetre") {
      const obstacle = windowObstacle(context);
      const opened = obstacle
        ? { unavailable: obstacle }
        : await openWindow({ command: context.windowCommand!, env: context.env, hooks, stderr: context.stderr });
      if (!("unavailable" in opened)) return opened;
      context.stderr.write(`Fenêtre indisponible : ${opened.unavailable}\n`);
    } else {
      const zenity = zenityPath(context);
      if (zenity) return new ZenityAppView(zenity, context.env, hooks, context.stderr);
      if (forced === "zenity")
        context.stderr.write("zenity est indisponible (Linux avec un affichage X11 seulement).\n");
    }
  }
  return new TerminalAppView(context, hooks);
}

/** Runs the window process with `--verifier`: whether its library loads, and why not. */
function checkWindow(command: readonly string[], env: NodeJS.ProcessEnv): Promise<string | null> {
  return new Promise((resolve) => {
    const [file, ...args] = command;
    const child = spawn(file!, [...args, "--verifier"], { env, stdio: ["ignore", "pipe", "ignore"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", (error) => resolve(error.message));
    child.once("close", (code) => {
      if (code === 0) return resolve(null);
      const events = output.split("\n").map(parseWindowEvent);
      const said = events.find((event) => event?.type === "unavailable");
      resolve(said?.type === "unavailable" ? said.reason : `la fenêtre a quitté (code ${code})`);
    });
  });
}

/** The `--help` paragraph saying which interface will be used, and why the others will not. */
export async function describeInterface(forced: InterfaceKind | null, context: ChooseContext): Promise<string> {
  const reasons: string[] = [];
  let chosen: InterfaceKind = "terminal";
  for (const kind of order(forced)) {
    if (kind === "terminal") break;
    if (kind === "fenetre") {
      const obstacle = windowObstacle(context) ?? (await checkWindow(context.windowCommand!, context.env));
      if (!obstacle) {
        chosen = "fenetre";
        break;
      }
      reasons.push(`fenêtre indisponible : ${obstacle}`);
    } else if (zenityPath(context)) {
      chosen = "zenity";
      break;
    } else if (context.platform === "linux") reasons.push("zenity indisponible");
  }
  const names: Record<InterfaceKind, string> = {
    fenetre: "une fenêtre",
    zenity: "des boîtes de dialogue (zenity)",
    terminal: "ce terminal",
  };
  return `Interface : ${names[chosen]}${reasons.length ? ` (${reasons.join(" ; ")})` : ""}.`;
}
