/**
 * The desktop support app from start to exit (issues 15, 26): command line;
 * then either a pairing code (`--code`, or typed at the prompt) for a session
 * opened on the site, or, by default, a new session without an account (the
 * prompt asks for the customer's name, optional) whose code the customer
 * reads to the technician; the `/device` link, the terminal view with its
 * keys (V: see the screen, C: control, R: take back control, P: send the
 * clipboard, issue 27), and stopping
 * on Ctrl+C, SIGINT, SIGTERM, SIGHUP (terminal closed) or the end of the
 * session: the app leaves (unpaired at once), every key and button
 * released, socket closed, exit. It never lingers after the session.
 * Issue 27: what the customer sees and does goes through an `AppView`
 * (`views/`: a window whose buttons call the same actions as the keys, and
 * whose closing stops like Ctrl+C; zenity's dialogs; the terminal).
 * Issue 36 §4: on Windows the app reports whether it runs as administrator,
 * and the technician may ask to relaunch it so (`elevation/`: key A, a
 * button, a dialog; `--reprendre FICHIER` in the relaunched process, which
 * rejoins the same session; the old one exits without leaving).
 * Issue 38 §1: the session chat (`chat.ts`): the technician's messages shown by every view, the customer's
 * sent from the window's field, the terminal's M line, zenity's answer. Issue 38 §4: the computer's facts (`facts/`).
 * Issue 38 §2: files both ways, with consent (`files/`: a question, O/N, F then a path, buttons, zenity's dialogs).
 * Issue 38 §3: « Redémarrer l'ordinateur » (`reboot/`: keys O / N, buttons, a question; the app registered for
 * the next sign-in with `--reprendre`; a resumed process removes that entry at once).
 * Everything the outside world provides comes in `AppDeps`, so tests drive
 * it without a terminal or a real server.
 */
import os from "node:os";
import { readStartAnswer } from "./start-answer.ts";
import { parseCli } from "./cli.ts";
import {
  captureStatus,
  DeviceConnection,
  defaultSocketFactory,
  type PictureSource,
  type SocketFactory,
} from "./connection.ts";
import type { Injector, WarningListener } from "./input/injector.ts";
import {
  createSession,
  devicePlatform,
  pairBody,
  pairDevice,
  PairingError,
  resumeDevice,
  sessionBody,
} from "./pairing.ts";
import { createElevation, type Elevation, programCommand } from "./elevation/elevation.ts";
import { ElevationFlow } from "./elevation/relaunch.ts";
import { takeResumeFile } from "./elevation/resume-file.ts";
import { ELEVATION_TEXTS } from "./views/texts.ts";
import type { Output, ScreenModel } from "./ui.ts";
import { type Clipboard, createClipboard } from "./clipboard/clipboard.ts";
import { ClipboardTransfer } from "./clipboard/transfer.ts";
import { SessionChat } from "./chat.ts";
import { fileActions, type FileTransfers, startFiles } from "./files/app-files.ts";
import type { Autostart } from "./reboot/autostart.ts";
import { createAutostart } from "./reboot/system-autostart.ts";
import { RebootFlow, rebootResumeFolder, removeRebootEntry } from "./reboot/reboot-flow.ts";
import { REBOOT_TEXTS } from "./reboot/reboot-texts.ts";
import { restartSystem } from "./reboot/restart.ts";
import { type Input, TerminalAppView } from "./views/terminal.ts";
import type { AppView, InterfaceKind, ViewHooks } from "./views/view.ts";
import { consentedFacts } from "./facts/collect.ts";

export type { Input };
export { readStartAnswer, type StartAnswer } from "./start-answer.ts";

export type AppDeps = {
  /** Arguments after the executable (and script): `process.argv.slice(2)`. */
  args: readonly string[];
  /** The server without `--server`: `ATELIER_SERVER`, else the download's address (issue 29); undefined when none. */
  defaultServer: string | undefined;
  stdin: Input;
  stdout: Output;
  stderr: Output;
  createInjector: (onWarning: WarningListener) => Promise<Injector>;
  /** Issue 26: the screen capture and its encoder; without it the app only injects (tests of input alone). */
  createPicture?: () => Promise<PictureSource | undefined>;
  /** The terminal's width in columns, read at every redraw (default 80). */
  columns?: () => number;
  /** How the customer launched this file, for `--help` (default "atelier-assistance"). */
  programName?: string;
  fetch?: typeof fetch;
  /** Socket factory for a server origin (tests bind it to their fake server). */
  socketFactory?: (server: string) => SocketFactory;
  /** Where SIGINT/SIGTERM/SIGHUP come from (process). */
  signals?: Pick<NodeJS.Process, "on" | "off">;
  platform?: NodeJS.Platform;
  /** Issue 27: the OS clipboard (default: this system's, `createClipboard`, opened at its first use). */
  createClipboard?: () => Clipboard;
  /**
   * Issue 27: opens the interface (`views/choose.ts`: window, zenity or terminal; `forced` by `--interface`).
   * Default: the terminal on `stdin`/`stdout`.
   */
  openView?: (forced: InterfaceKind | null, hooks: ViewHooks) => Promise<AppView>;
  /** Issue 27: the `--help` line saying which interface would be used. */
  describeInterface?: (forced: InterfaceKind | null) => Promise<string>;
  /** Issue 36 §4: elevation read and relaunch as administrator (default: this system's, `createElevation`). */
  createElevation?: () => Promise<Elevation>;
  /** Issue 36 §4: this program's command without arguments, to relaunch it (default `programCommand()`). */
  relaunchCommand?: readonly string[];
  /**
   * Issue 36 §4: called when the app relaunched as administrator took over this process's session: the caller
   * exits at once (no « Entrée » to wait for: the new process's window carries on).
   */
  onReplaced?: () => void;
  /** Issue 38 §3: the entry for the next sign-in, the system's restart and the resume file's folder (tests fake them). */
  reboot?: { createAutostart?: () => Promise<Autostart>; restart?: () => Promise<void>; folder?: () => string };
};

const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
const MAX_PROMPTS = 5;

/** Runs the app; resolves with the process exit code (0: stopped or session ended, 1: failure, 2: usage). */
export async function runApp(deps: AppDeps): Promise<number> {
  const command = parseCli(deps.args, deps.defaultServer, deps.programName, deps.platform ?? process.platform);
  if (command.kind === "help" || command.kind === "version") {
    const chosen = command.kind === "help" ? await deps.describeInterface?.(command.interface) : undefined;
    deps.stdout.write(`${command.text}\n${chosen ? `\n${chosen}\n` : ""}`);
    return 0;
  }
  if (command.kind === "error") {
    deps.stderr.write(`${command.message}\n`);
    return 2;
  }
  const platform = devicePlatform(deps.platform);
  if (!platform) {
    deps.stderr.write("Ce système n'est pas pris en charge : Windows, macOS et Linux seulement.\n");
    return 1;
  }

  const notices: string[] = [];
  const model: ScreenModel = {
    server: command.server,
    computerName: os.hostname(),
    phase: "pairing",
    customerName: null,
    state: null,
    injection: null,
    withdrawnHere: false,
    notices,
    // The letters work in a terminal (one key) and through a pipe (a line each): always say which do what.
    keys: true,
    sessionCode: null,
    viewAllowed: false,
    streaming: false,
    capture: null,
  };
  let connection: DeviceConnection | undefined;
  const redraw = () => {
    if (connection) {
      model.phase = connection.phase;
      model.state = connection.state;
      model.injection = connection.injection;
      model.withdrawnHere = connection.withdrawnHere;
      model.viewAllowed = connection.viewAllowed;
      model.streaming = connection.streaming;
      model.waiting = connection.waiting;
      model.clipboardSendable = transfer?.sendable ?? false;
      model.elevation = elevationFlow?.state ?? null;
      model.reboot = rebootFlow?.state ?? null;
      model.chat = chat?.model ?? null;
      model.files = files?.model ?? null;
    }
    model.columns = deps.columns?.() ?? 80;
    view.draw(model);
  };
  const notice = (message: string) => {
    notices.push(message);
    if (notices.length > 3) notices.shift();
    redraw();
  };

  // Stop requests (signals, Ctrl+C) may come at any time, even while the code is being typed.
  let stopResult: { code: number; message: string } | undefined;
  let requestStop: (message: string) => void = () => {};
  const stopped = new Promise<{ code: number; message: string }>((resolve) => {
    requestStop = (message) => {
      stopResult ??= { code: 0, message };
      resolve(stopResult);
    };
  });
  const onSignal = () => requestStop("Arrêt demandé : le technicien n'a plus accès à cet ordinateur.");
  const signals = deps.signals ?? process;
  for (const signal of STOP_SIGNALS) {
    try {
      signals.on(signal, onSignal);
    } catch {
      // A runtime without this signal on this system (SIGHUP/SIGTERM on Windows): the others still stop the app.
    }
  }

  // Issue 27: the window, zenity's dialogs or the terminal; closing a window or a dialog stops like Ctrl+C.
  const hooks: ViewHooks = { onClose: onSignal };
  const view: AppView = deps.openView
    ? await deps.openView(command.interface, hooks)
    : new TerminalAppView(deps, hooks);
  const injector = await deps.createInjector(notice);
  model.injection = injector.status();
  const picture = await deps.createPicture?.().catch(() => undefined);
  model.capture = picture ? captureStatus(picture) : null;
  const elevation = await (deps.createElevation ?? (() => createElevation(deps.platform)))();
  const deviceStatus = () => ({
    injection: injector.status(),
    screens: injector.screens(),
    ...(picture ? { capture: captureStatus(picture) } : {}),
    ...(typeof elevation.elevated === "boolean" ? { elevated: elevation.elevated } : {}),
  });
  let keyboard: (() => void) | undefined;
  let transfer: ClipboardTransfer | undefined;
  let elevationFlow: ElevationFlow | undefined;
  let rebootFlow: RebootFlow | undefined;
  // Issue 38 §3: resumed after a restart (or a relaunch), nothing must stay registered for the next sign-in.
  const autostart = await (deps.reboot?.createAutostart ?? (() => createAutostart(deps.platform)))();
  if (command.resume) await removeRebootEntry(autostart);
  let chat: SessionChat | undefined;
  let files: FileTransfers | undefined;
  let replaced = false;
  try {
    // A pairing code from --code or typed at the prompt pairs with a site session; a name (or nothing) starts
    // a new session without an account (issue 26). A refused code is asked again, a few times.
    let paired: Awaited<ReturnType<typeof pairDevice>> | undefined;
    let code = command.code;
    const facts = consentedFacts(!command.noFacts, deps.platform, () => injector.screens(), elevation.elevated);
    for (let attempt = 0; !paired && attempt < MAX_PROMPTS; attempt++) {
      const prompted = code === null && !command.resume;
      let customerName: string | null = null;
      if (prompted) {
        const typed = await Promise.race([view.askStart(facts.choice), stopped.then(() => null)]);
        if (stopResult) {
          view.fail(stopResult.message);
          return 0;
        }
        const answer = readStartAnswer(typed?.text ?? "", typed?.field);
        if (answer.kind === "invalid") {
          view.tell(answer.message);
          continue;
        }
        if (answer.kind === "code") code = answer.code;
        else customerName = answer.name;
      }
      view.draw(model);
      try {
        // Issue 36 §4: relaunched as administrator, the app rejoins its session with the ticket its file holds.
        const request = command.resume
          ? Promise.resolve(command.resume)
              .then(takeResumeFile)
              .then((ticket) => resumeDevice(command.server, ticket, deviceStatus(), platform, deps.fetch))
          : code === null
            ? createSession(command.server, sessionBody(customerName, deviceStatus(), platform), deps.fetch, facts)
            : pairDevice(command.server, pairBody(code, deviceStatus(), platform), deps.fetch, facts);
        const answer = await Promise.race([request, stopped.then(() => null)]);
        if (answer === null) {
          view.fail(stopResult?.message ?? "");
          return 0;
        }
        paired = answer;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (!(error instanceof PairingError && error.retry && prompted)) {
          view.fail(message);
          return 1;
        }
        view.tell(message);
        code = null;
      }
    }
    if (!paired) {
      view.fail("Trop de codes refusés : relancez le logiciel avec le code affiché sur la page.");
      return 1;
    }
    model.customerName = paired.customerName || null;
    if (command.resume) notice(REBOOT_TEXTS.resumed);
    facts.tell(notice); // Issue 38 §4: what was sent, said in every interface.
    // A session this app started: its code is what the customer reads out (resumed: a technician is there).
    model.sessionCode = code === null && !command.resume ? paired.sessionCode || null : null;

    // The link: ends when the server ends the session, refuses the token, or the customer stops.
    let finish: (result: { code: number; message: string }) => void = () => {};
    const finished = new Promise<{ code: number; message: string }>((resolve) => (finish = resolve));
    const factory = (deps.socketFactory ?? defaultSocketFactory)(command.server);
    connection = new DeviceConnection(
      factory(paired.deviceToken),
      injector,
      {
        onChange: redraw,
        onNotice: notice,
        onFinished: (phase, message) => finish({ code: phase === "refused" ? 1 : 0, message }),
      },
      undefined,
      picture,
      elevation.elevated,
    );
    const link = connection;
    connection.start();
    // Issue 36 §4: « Relancer en administrateur », asked by the technician, accepted here.
    // This program again, on the same server (issue 36 §4: as administrator; issue 38 §3: after a restart).
    const again = [
      ...(deps.relaunchCommand ?? programCommand()),
      ...["--server", command.server, ...(command.interface ? ["--interface", command.interface] : [])],
    ];
    const flow = new ElevationFlow(link, {
      elevation,
      command: again,
      sessionCode: paired.sessionCode,
      notice,
      onChange: redraw,
      onReplaced: () => {
        replaced = true;
        deps.onReplaced?.();
        finish({ code: 0, message: ELEVATION_TEXTS.replaced });
      },
    });
    elevationFlow = flow;
    flow.start();
    // Issue 38 §3: « Redémarrer l'ordinateur », asked by the technician, accepted here.
    const reboot = new RebootFlow(link, {
      autostart,
      restart: deps.reboot?.restart ?? (() => restartSystem(deps.platform)),
      folder: deps.reboot?.folder ?? (() => rebootResumeFolder(deps.platform)),
      command: again,
      sessionCode: paired.sessionCode,
      notice,
      onChange: redraw,
    });
    rebootFlow = reboot;
    reboot.start();
    // Issue 27: copy–paste while control is allowed (`clipboard/transfer.ts`).
    const clipboard = (deps.createClipboard ?? (() => createClipboard(deps.platform)))();
    transfer = new ClipboardTransfer(link, clipboard, { platform: deps.platform ?? process.platform, notice });
    transfer.start();
    const clipboardLink = transfer;
    // Issue 38 §1: the session chat; a technician's message is made noticeable by the view.
    const conversation = new SessionChat(link, { onChange: redraw, onIncoming: (line) => view.chatReceived?.(line) });
    chat = conversation;
    conversation.start();
    // Issue 38 §2: files both ways, with consent (`files/`).
    files = startFiles(link, view.kind, { platform: deps.platform, onChange: redraw, notice });
    keyboard = view.listen({
      view: () => {
        if (model.capture?.ok) link.allowView(!link.viewAllowed);
      },
      allowControl: () => {
        if (link.state && (!link.state.consent || link.withdrawnHere)) link.allowControl();
      },
      withdraw: () => link.withdraw(),
      sendClipboard: () => void clipboardLink.send(),
      elevate: () => void flow.accept(),
      declineElevation: () => flow.decline(),
      acceptReboot: () => void reboot.accept(),
      declineReboot: () => reboot.decline(),
      sendChat: async (text) => (await conversation.send(text)).ok,
      ...fileActions(files),
      stop: () => requestStop("Arrêt demandé : le technicien n'a plus accès à cet ordinateur."),
    });
    redraw();

    const result = await Promise.race([finished, stopped]);
    // Stopped by the system for a restart (issue 38 §3): the session waits for the app, which must not leave.
    await connection.stop(undefined, !replaced && !reboot.leaving());
    // Let input already queued finish (it is dropped now: control stopped) before the injector closes.
    await Promise.race([connection.idle(), new Promise((resolve) => setTimeout(resolve, 1_000))]);
    redraw();
    view.say(result.message);
    return result.code;
  } finally {
    keyboard?.();
    transfer?.close();
    chat?.close();
    await files?.close();
    elevationFlow?.close();
    await rebootFlow?.close();
    try {
      picture?.capturer.close();
      picture?.encoder.close();
    } catch {
      // As for the injector: the OS frees the rest.
    }
    for (const signal of STOP_SIGNALS) signals.off(signal, onSignal);
    try {
      await injector.close();
    } catch {
      // Closing must not hide the exit message; the OS frees the rest.
    }
    // Last: a window ended by the session (not by the customer) keeps its last words until closed.
    // Replaced by itself as administrator: the new window carries on, this one goes at once.
    await view.close(!stopResult && !replaced);
  }
}
