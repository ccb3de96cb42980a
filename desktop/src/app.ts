/**
 * The desktop support app from start to exit (issue 15): command line,
 * pairing code (argument or prompt), pairing, the `/device` link, the
 * terminal view, and stopping on Ctrl+C, SIGINT, SIGTERM, SIGHUP (terminal
 * closed) or the end of the session: consent withdrawn, every key and button
 * released, socket closed, exit. It never lingers after the session.
 * Everything the outside world provides comes in `AppDeps`, so tests drive
 * it without a terminal or a real server.
 */
import os from "node:os";
import { createInterface } from "node:readline";
import { PairingCode } from "#app/remote-support/device-protocol.ts";
import { parseCli } from "./cli.ts";
import { DeviceConnection, defaultSocketFactory, type SocketFactory } from "./connection.ts";
import type { Injector, WarningListener } from "./input/injector.ts";
import { devicePlatform, pairBody, pairDevice, PairingError } from "./pairing.ts";
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
  const command = parseCli(deps.args, deps.defaultServer);
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
    keys: Boolean(deps.stdin.isTTY && deps.stdin.setRawMode),
  };
  let connection: DeviceConnection | undefined;
  const redraw = () => {
    if (connection) {
      model.phase = connection.phase;
      model.state = connection.state;
      model.injection = connection.injection;
      model.withdrawnHere = connection.withdrawnHere;
    }
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
  let keyboard: (() => void) | undefined;
  try {
    // Pairing: the code from --code, else asked (again after a refusal, a few times).
    let paired: Awaited<ReturnType<typeof pairDevice>> | undefined;
    let code = command.code;
    for (let attempt = 0; !paired && attempt < MAX_PROMPTS; attempt++) {
      const prompted = code === null;
      if (code === null) {
        const typed = await Promise.race([promptCode(deps.stdin, deps.stdout, onSignal), stopped.then(() => null)]);
        if (typed === null) {
          deps.stderr.write(`${stopResult ? stopResult.message : "Aucun code d'appairage saisi : arrêt."}\n`);
          return stopResult ? 0 : 1;
        }
        const parsed = PairingCode.safeParse(typed);
        if (!parsed.success) {
          deps.stdout.write(`${parsed.error.issues[0]?.message ?? "Code invalide."}\n`);
          continue;
        }
        code = parsed.data;
      }
      view.draw(model);
      try {
        const body = pairBody(code, { injection: injector.status(), screens: injector.screens() }, platform);
        const answer = await Promise.race([pairDevice(command.server, body, deps.fetch), stopped.then(() => null)]);
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

    // The link: ends when the server ends the session, refuses the token, or the customer stops.
    let finish: (result: { code: number; message: string }) => void = () => {};
    const finished = new Promise<{ code: number; message: string }>((resolve) => (finish = resolve));
    const factory = (deps.socketFactory ?? defaultSocketFactory)(command.server);
    connection = new DeviceConnection(factory(paired.deviceToken), injector, {
      onChange: redraw,
      onNotice: notice,
      onFinished: (phase, message) => finish({ code: phase === "refused" ? 1 : 0, message }),
    });
    const link = connection;
    connection.start();
    keyboard = listenKeys(deps.stdin, {
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
    for (const signal of STOP_SIGNALS) signals.off(signal, onSignal);
    try {
      await injector.close();
    } catch {
      // Closing must not hide the exit message; the OS frees the rest.
    }
  }
}

/** Asks for the pairing code on the terminal; null when input ends (Ctrl+D, closed terminal) or Ctrl+C. */
function promptCode(stdin: Input, stdout: Output, onInterrupt: () => void): Promise<string | null> {
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
    rl.question("Code d'appairage affiché sur la page (ex. ACDE-3479) : ", (answer) => {
      answered = true;
      rl.close();
      resolve(answer);
    });
  });
}

/**
 * Reads single keys (raw mode) while the session runs: R withdraws control,
 * Ctrl+C stops. Returns a function restoring the terminal. No-op when stdin
 * is not a terminal (signals still stop the app).
 */
function listenKeys(stdin: Input, actions: { withdraw(): void; stop(): void }): () => void {
  if (!stdin.isTTY || !stdin.setRawMode) return () => {};
  stdin.setRawMode(true);
  const onData = (chunk: Buffer | string) => {
    const text = chunk.toString();
    if (text.includes(ETX)) actions.stop();
    else if (/r/i.test(text)) actions.withdraw();
  };
  stdin.on("data", onData);
  stdin.resume();
  return () => {
    stdin.off("data", onData);
    stdin.setRawMode?.(false);
    stdin.pause();
  };
}
