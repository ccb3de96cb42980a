/**
 * The desktop support app from start to exit (issues 15, 26): command line;
 * then either a pairing code (`--code`, or typed at the prompt) for a session
 * opened on the site, or, by default, a new session without an account (the
 * prompt asks for the customer's name, optional) whose code the customer
 * reads to the technician; the `/device` link, the terminal view with its
 * keys (V: see the screen, C: control, R: take back control), and stopping
 * on Ctrl+C, SIGINT, SIGTERM, SIGHUP (terminal closed) or the end of the
 * session: the app leaves (unpaired at once), every key and button
 * released, socket closed, exit. It never lingers after the session.
 * Everything the outside world provides comes in `AppDeps`, so tests drive
 * it without a terminal or a real server.
 */
import os from "node:os";
import { createInterface } from "node:readline";
import { PairingCode } from "#app/remote-support/device-protocol.ts";
import { parseCli } from "./cli.ts";
import {
  captureStatus,
  DeviceConnection,
  defaultSocketFactory,
  type PictureSource,
  type SocketFactory,
} from "./connection.ts";
import type { Injector, WarningListener } from "./input/injector.ts";
import { createSession, devicePlatform, pairBody, pairDevice, PairingError, sessionBody } from "./pairing.ts";
import { type Output, type ScreenModel, TerminalView } from "./ui.ts";

/** The terminal input: process.stdin or a test double. */
export type Input = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };

export type AppDeps = {
  /** Arguments after the executable (and script): `process.argv.slice(2)`. */
  args: readonly string[];
  /** The server address built into this copy (see main.ts), undefined when none. */
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
};

const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
const MAX_PROMPTS = 5;
const ETX = "\u0003"; // Ctrl+C in raw mode

/** Runs the app; resolves with the process exit code (0: stopped or session ended, 1: failure, 2: usage). */
export async function runApp(deps: AppDeps): Promise<number> {
  const command = parseCli(deps.args, deps.defaultServer, deps.programName);
  if (command.kind === "help" || command.kind === "version") {
    deps.stdout.write(`${command.text}\n`);
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

  const view = new TerminalView(deps.stdout);
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

  const injector = await deps.createInjector(notice);
  model.injection = injector.status();
  const picture = await deps.createPicture?.().catch(() => undefined);
  model.capture = picture ? captureStatus(picture) : null;
  const deviceStatus = () => ({
    injection: injector.status(),
    screens: injector.screens(),
    ...(picture ? { capture: captureStatus(picture) } : {}),
  });
  let keyboard: (() => void) | undefined;
  try {
    // A pairing code from --code or typed at the prompt pairs with a site session; a name (or nothing) starts
    // a new session without an account (issue 26). A refused code is asked again, a few times.
    let paired: Awaited<ReturnType<typeof pairDevice>> | undefined;
    let code = command.code;
    for (let attempt = 0; !paired && attempt < MAX_PROMPTS; attempt++) {
      const prompted = code === null;
      let customerName: string | null = null;
      if (code === null) {
        const typed = await Promise.race([promptStart(deps.stdin, deps.stdout, onSignal), stopped.then(() => null)]);
        if (stopResult) {
          deps.stderr.write(`${stopResult.message}\n`);
          return 0;
        }
        const answer = readStartAnswer(typed ?? "");
        if (answer.kind === "invalid") {
          deps.stdout.write(`${answer.message}\n`);
          continue;
        }
        if (answer.kind === "code") code = answer.code;
        else customerName = answer.name;
      }
      view.draw(model);
      try {
        const request =
          code === null
            ? createSession(command.server, sessionBody(customerName, deviceStatus(), platform), deps.fetch)
            : pairDevice(command.server, { ...pairBody(code, deviceStatus(), platform) }, deps.fetch);
        const answer = await Promise.race([request, stopped.then(() => null)]);
        if (answer === null) {
          deps.stderr.write(`${stopResult?.message ?? ""}\n`);
          return 0;
        }
        paired = answer;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (!(error instanceof PairingError && error.retry && prompted)) {
          deps.stderr.write(`${message}\n`);
          return 1;
        }
        deps.stdout.write(`${message}\n`);
        code = null;
      }
    }
    if (!paired) {
      deps.stderr.write("Trop de codes refusés : relancez le logiciel avec le code affiché sur la page.\n");
      return 1;
    }
    model.customerName = paired.customerName || null;
    // A session this app started: its code is what the customer reads out.
    model.sessionCode = code === null ? paired.sessionCode || null : null;

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
    );
    const link = connection;
    connection.start();
    keyboard = listenKeys(deps.stdin, {
      view: () => {
        if (model.capture?.ok) link.allowView(!link.viewAllowed);
      },
      allowControl: () => {
        if (link.state && (!link.state.consent || link.withdrawnHere)) link.allowControl();
      },
      withdraw: () => link.withdraw(),
      stop: () => requestStop("Arrêt demandé : le technicien n'a plus accès à cet ordinateur."),
    });
    redraw();

    const result = await Promise.race([finished, stopped]);
    await connection.stop();
    // Let input already queued finish (it is dropped now: control stopped) before the injector closes.
    await Promise.race([connection.idle(), new Promise((resolve) => setTimeout(resolve, 1_000))]);
    redraw();
    view.say(result.message);
    return result.code;
  } finally {
    keyboard?.();
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
  }
}

/** What the first prompt's answer means: a pairing code (site session), a name (new session), or a mistake. */
export type StartAnswer =
  { kind: "code"; code: string } | { kind: "name"; name: string | null } | { kind: "invalid"; message: string };

/**
 * Reads the first prompt's answer (issue 26): a pairing code as the page shows it ("ACDE-3479": its 8 symbols,
 * with a dash or a digit, so that a first name is never taken for one), else the customer's name (empty: none).
 */
export function readStartAnswer(typed: string): StartAnswer {
  const text = typed.trim();
  if (!text) return { kind: "name", name: null };
  const code = PairingCode.safeParse(text);
  if (code.success && /[-\d]/.test(text)) return { kind: "code", code: code.data };
  if (/\d/.test(text) && text.replace(/[\s-]/g, "").length === 8)
    return {
      kind: "invalid",
      message: "Ce code d'appairage n'est pas valide : vérifiez-le sur la page de votre session.",
    };
  if (text.length > 80) return { kind: "invalid", message: "Le nom ne doit pas dépasser 80 caractères." };
  return { kind: "name", name: text };
}

/** Asks for the name or a pairing code on the terminal; null when input ends (Ctrl+D, no terminal) or Ctrl+C. */
function promptStart(stdin: Input, stdout: Output, onInterrupt: () => void): Promise<string | null> {
  return new Promise((resolve) => {
    const rl = createInterface({
      input: stdin,
      output: stdout as NodeJS.WritableStream,
      terminal: Boolean(stdin.isTTY),
    });
    let answered = false;
    rl.on("SIGINT", () => {
      // readline swallows Ctrl+C while it reads: hand it on as a stop.
      onInterrupt();
      rl.close();
    });
    rl.on("close", () => {
      if (!answered) resolve(null);
    });
    stdout.write(
      "\nSi la page de votre session sur notre site affiche un code d'appairage (ex. ACDE-3479), tapez-le ici.\n" +
        "Sinon, tapez votre prénom (facultatif) et appuyez sur Entrée : un code de session va s'afficher.\n",
    );
    rl.question("Votre prénom ou le code d'appairage : ", (answer) => {
      answered = true;
      rl.close();
      resolve(answer);
    });
  });
}

/**
 * Reads single keys (raw mode) while the session runs: V shows or hides the
 * screen, C allows control, R takes it back, Ctrl+C stops. Returns a
 * function restoring the terminal. When stdin is not a terminal (a pipe: a
 * launcher, a test), the same letters are read a line at a time; signals
 * still stop the app.
 */
function listenKeys(
  stdin: Input,
  actions: { view(): void; allowControl(): void; withdraw(): void; stop(): void },
): () => void {
  const raw = Boolean(stdin.isTTY && stdin.setRawMode);
  if (raw) stdin.setRawMode?.(true);
  const onData = (chunk: Buffer | string) => {
    const text = chunk.toString();
    if (text.includes(ETX)) actions.stop();
    else if (/v/i.test(text)) actions.view();
    else if (/c/i.test(text)) actions.allowControl();
    else if (/r/i.test(text)) actions.withdraw();
  };
  stdin.on("data", onData);
  stdin.resume();
  return () => {
    stdin.off("data", onData);
    if (raw) stdin.setRawMode?.(false);
    stdin.pause();
  };
}
