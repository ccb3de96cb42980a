/**
 * Issue 15 "Figures": the desktop support app controlling a real X display, on loopback.
 *
 * Setup: the Linux x64 build (`scripts/build-desktop.ts --target linux-x64 --compress none --out
 * node_modules/.cache/desktop-build/bench`, cached, apart from build/desktop and its compressed copies),
 * the remote-support test server in this process (`tests/support/remote-support.ts`) on a PGlite
 * database in a temporary folder, Xvfb at 1280 × 720 with the recording X application of the e2e
 * tests on it (`tests/support/xvfb.ts`: a headful Chromium window covering the screen), to which
 * this script adds `pointermove/down/up` listeners that report each event's time.
 *
 * 1. Launch → paired, 5 launches: from `spawn` of the executable (`--server … --code <pairing code>`,
 *    DISPLAY of Xvfb) to the customer's socket receiving `session:device` with `connected: true`.
 *    The first four apps are stopped (SIGTERM) and their sessions ended; the fifth is controlled.
 * 2. Input latency: the customer shares a "monitor" of the Xvfb screen's size (fractions map 1:1 to
 *    pixels) and allows control, the technician's toggle is on; the technician's socket emits
 *    `input` batches of one event. Moves (default 200, after 10 not counted) to a new pixel each;
 *    then clicks (default 50): a move there (not counted), a press and a release. Each event is
 *    sent 0–20 ms (at random: no lock-step with Chromium's frames) after the previous one reached
 *    the X application. Latency = time the X application got the event − time of `emit("input")`,
 *    read two ways: `performance.timeOrigin + event.timeStamp`, which Chromium on X11 takes from
 *    the X server's event time (whole ms, truncated: ±1 ms, hence values just under 0), i.e. when
 *    Xvfb made the event out of the app's XTest request; and the page listener's clock (later:
 *    Chromium → renderer, and pointermove listeners run on the next animation frame). Page and
 *    Node clocks are compared first (shortest round trip of 20 `page.evaluate`); the offset is
 *    printed, not subtracted.
 * 3. The app's VmRSS and VmHWM (/proc/<pid>/status) after the latency runs, still controlled.
 *
 * Usage: `node bench/desktop-control.ts [moves=200] [clicks=50]` (needs Xvfb and Chromium: the
 * Debian packages xvfb and chromium, as the e2e tests).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { DeviceView, InputAck, InputEvent } from "#app/remote-support/device-protocol.ts";
import { openDatabase } from "#database/connection.ts";
import type { DesktopManifest } from "#server/downloads.ts";
import { asAccount, openSession, pairingCode } from "#server/remote-support/device-testing.ts";
import type { TestDatabase } from "#tests/support/databases.ts";
import {
  connectSocket,
  createAccounts,
  startRemoteSupportServer,
  type TestSocket,
} from "#tests/support/remote-support.ts";
import { openXApp, startXvfb, type XApp } from "#tests/support/xvfb.ts";
import { median, root } from "./lib.ts";
import { percentile } from "./soft-assist-lib.ts";

const moves = Number(process.argv[2] ?? 200);
const clicks = Number(process.argv[3] ?? 50);
const LAUNCHES = 5;
const SCREEN = { width: 1280, height: 720 };
/** Its own build folder (own cache stamps): `--compress none` here does not undo build/desktop's compressed copies. */
const OUT_DIR = path.join(root, "node_modules", ".cache", "desktop-build", "bench");

/** Wall-clock ms with sub-ms resolution, the page's clock (`performance.timeOrigin + …`) on our side. */
const now = () => performance.timeOrigin + performance.now();
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the page reports for each pointer event: screen px, `stamp` = timeOrigin + event.timeStamp, `heard` = listener's clock. */
type Arrival = { type: "move" | "down" | "up"; x: number; y: number; stamp: number; heard: number };

/** Cleanups, run once in reverse order whatever happens (error, Ctrl+C, SIGTERM); a second call waits for the first. */
const cleanups: (() => Promise<unknown> | unknown)[] = [];
let cleaning: Promise<void> | undefined;
const cleanUp = () =>
  (cleaning ??= (async () => {
    // Popped one by one: what main() adds meanwhile (it runs on after a signal) is cleaned too.
    for (let cleanup = cleanups.pop(); cleanup; cleanup = cleanups.pop()) {
      try {
        await cleanup();
      } catch (error) {
        console.error("nettoyage :", error instanceof Error ? error.message : error);
      }
    }
  })());
let interrupted = false;
const onSignal = (signal: NodeJS.Signals) => {
  if (interrupted) return;
  interrupted = true;
  console.error(`\nInterrompu (${signal}) : nettoyage…`);
  const code = signal === "SIGINT" ? 130 : 143;
  setTimeout(() => process.exit(code), 15_000).unref();
  void cleanUp().finally(() => process.exit(code));
};
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, onSignal);

/** The Linux x64 executable, built when needed. Throws a clear message when it cannot be. */
function buildApp(): string {
  const result = spawnSync(
    process.execPath,
    [path.join(root, "scripts", "build-desktop.ts"), "--target", "linux-x64", "--compress", "none", "--out", OUT_DIR],
    { cwd: root, stdio: ["ignore", "ignore", "inherit"] },
  );
  if (result.status !== 0) throw new Error("la construction du logiciel de bureau (linux-x64) a échoué");
  const manifestFile = path.join(OUT_DIR, "manifest.json");
  if (!existsSync(manifestFile)) throw new Error(`${manifestFile} absent après la construction`);
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as DesktopManifest;
  const linux = manifest.files.find((file) => file.target === "linux-x64");
  const executable = linux && path.join(OUT_DIR, linux.fileName);
  if (!executable || !existsSync(executable)) throw new Error(`${OUT_DIR} : pas de version Linux x64`);
  return executable;
}

/** The page listeners: every pointer event goes to Node through `__arrived` (exposed binding). */
async function instrument(xApp: XApp, onArrival: (arrival: Arrival) => void) {
  await xApp.page.exposeFunction("__arrived", onArrival);
  await xApp.page.evaluate(() => {
    const report = (window as unknown as { __arrived(arrival: unknown): void }).__arrived;
    const types = { pointermove: "move", pointerdown: "down", pointerup: "up" } as const;
    for (const [type, short] of Object.entries(types)) {
      document.addEventListener(type, (event) => {
        const pointer = event as PointerEvent;
        const heard = performance.timeOrigin + performance.now();
        report({
          type: short,
          x: pointer.screenX,
          y: pointer.screenY,
          stamp: performance.timeOrigin + pointer.timeStamp,
          heard,
        });
      });
    }
  });
}

/** Page clock − Node clock, from the `page.evaluate` with the shortest round trip of `samples`. */
async function clockOffset(xApp: XApp, samples = 20) {
  let best = { roundTrip: Infinity, offset: 0 };
  for (let i = 0; i < samples; i += 1) {
    const before = now();
    const page = await xApp.page.evaluate(() => performance.timeOrigin + performance.now());
    const after = now();
    if (after - before < best.roundTrip) best = { roundTrip: after - before, offset: page - (before + after) / 2 };
  }
  return best;
}

/** Resolves with the first `session:device` of session `code` that `accept`s, or rejects after `timeoutMs`. */
function deviceView(socket: TestSocket, code: string, accept: (view: DeviceView) => boolean, timeoutMs = 20_000) {
  return new Promise<DeviceView>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off("session:device", listener);
      reject(new Error(`session ${code} : logiciel non connecté en ${timeoutMs / 1000} s`));
    }, timeoutMs);
    const listener = (view: DeviceView & { code: string }) => {
      if (view.code !== code || !accept(view)) return;
      clearTimeout(timer);
      socket.off("session:device", listener);
      resolve(view);
    };
    socket.on("session:device", listener);
  });
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const line = (label: string, values: number[]) =>
  console.log(
    `  ${label} : p50 ${ms(percentile(values, 50))}, p95 ${ms(percentile(values, 95))}, ` +
      `max ${ms(Math.max(...values))} (n=${values.length})`,
  );

async function main() {
  const executable = buildApp();
  const display = await startXvfb(SCREEN.width, SCREEN.height);
  cleanups.push(() => display.stop());
  const xApp = await openXApp(display);
  cleanups.push(() => xApp.close());
  // Playwright's own SIGINT handler exits as soon as Chromium is closed: ours also stops Xvfb, the app, the server.
  for (const listener of process.listeners("SIGINT")) if (listener !== onSignal) process.off("SIGINT", listener);

  const dataDir = await mkdtemp(path.join(tmpdir(), "atelier-bench-desktop-"));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const handle = await openDatabase({ dataDir });
  cleanups.push(() => handle.close());
  const database: TestDatabase = { ...handle, dataDir, dispose: () => handle.close() };
  const server = await startRemoteSupportServer(database);
  cleanups.push(() => server.close());
  const accounts = await createAccounts(server, database);
  const as = asAccount(server, accounts);
  const customer = await connectSocket(server.url, accounts.customer.cookie);
  cleanups.push(() => customer.close());

  /** Every app started, stopped at the end if still running. */
  const apps: ChildProcess[] = [];
  cleanups.push(() => Promise.all(apps.map(stopApp)));
  const launch = async () => {
    const code = await openSession(as);
    const pairing = await pairingCode(as, code);
    const connected = deviceView(customer, code, (view) => view.connected);
    if (interrupted) throw new Error("interrompu");
    const started = now();
    const app = spawn(executable, ["--server", server.url, "--code", pairing], {
      env: {
        ...process.env,
        DISPLAY: display.display,
        WAYLAND_DISPLAY: "",
        XDG_SESSION_TYPE: "x11",
        LANG: "fr_FR.UTF-8",
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    apps.push(app);
    let output = "";
    const keep = (chunk: Buffer) => (output = (output + chunk.toString("utf8")).slice(-2_000));
    app.stdout.on("data", keep);
    app.stderr.on("data", keep);
    const view = await connected.catch((error: Error) => {
      throw new Error(`${error.message}\nsortie du logiciel :\n${output}`);
    });
    return { code, app, view, elapsed: now() - started };
  };

  console.log(
    `Logiciel : ${path.relative(root, executable)}, Xvfb ${display.display} ${SCREEN.width}×${SCREEN.height}`,
  );
  const launchTimes: number[] = [];
  let controlled: Awaited<ReturnType<typeof launch>> | undefined;
  for (let i = 0; i < LAUNCHES; i += 1) {
    const launched = await launch();
    launchTimes.push(launched.elapsed);
    if (i < LAUNCHES - 1) {
      await stopApp(launched.app);
      await as("customer", "post", `/api/sessions/${launched.code}/disconnect`);
    } else controlled = launched;
  }
  const { code, app, view } = controlled!;
  console.log(`\nLancement → appairé (session:device connected chez le client), ${LAUNCHES} lancements :`);
  console.log(
    `  médiane ${ms(median(launchTimes))} (${launchTimes.map((value) => value.toFixed(0)).join(", ")} ms)` +
      `, injection ${view.injection?.ok ? "possible" : `impossible : ${JSON.stringify(view.injection)}`}`,
  );

  // Control on: a whole screen of the Xvfb size shared, consent, the technician's toggle.
  await as("customer", "post", `/api/sessions/${code}/surface`).send({ displaySurface: "monitor", ...SCREEN });
  await as("customer", "post", `/api/sessions/${code}/consent`).send({ allowed: true });
  await as("technician", "post", `/api/sessions/${code}/events`).send({ kind: "control-on" });
  const technician = await connectSocket(server.url, accounts.technician.cookie);
  cleanups.push(() => technician.close());
  for (let tries = 0; ; tries += 1) {
    const response = await as("technician", "get", `/api/sessions/${code}/device`);
    if ((response.body as { device: DeviceView }).device.controlActive) break;
    if (tries > 200) throw new Error(`contrôle jamais actif : ${JSON.stringify(response.body)}`);
    await pause(25);
  }

  // Arrivals, matched by type and pixel (± 1 px) to the event sent.
  let waiting: { type: Arrival["type"]; x: number; y: number; resolve(arrival: Arrival): void } | undefined;
  await instrument(xApp, (arrival) => {
    if (!waiting || arrival.type !== waiting.type) return;
    if (Math.abs(arrival.x - waiting.x) > 1 || Math.abs(arrival.y - waiting.y) > 1) return;
    waiting.resolve(arrival);
    waiting = undefined;
  });
  /** Sends one event 0–20 ms from now; resolves with the X application's arrival and the send time. */
  const send = async (event: InputEvent, type: Arrival["type"], x: number, y: number) => {
    let timer: NodeJS.Timeout | undefined;
    const arrived = new Promise<Arrival>((resolve, reject) => {
      waiting = { type, x, y, resolve };
      timer = setTimeout(() => reject(new Error(`${type} (${x}, ${y}) jamais reçu par l'application X`)), 5_000);
    });
    arrived.catch(() => undefined); // awaited below, after the acknowledgement
    await pause(Math.random() * 20);
    const sent = now();
    const ack = await new Promise<InputAck>((resolve) => technician.emit("input", { code, events: [event] }, resolve));
    try {
      if (!ack.ok) throw new Error(`input refusé : ${ack.message}`);
      return { arrival: await arrived, sent };
    } finally {
      clearTimeout(timer);
    }
  };
  /** A move to pixel (x, y): the fraction of its centre, so that the app's floor lands on it. */
  const moveTo = (x: number, y: number) =>
    send({ t: "move", x: (x + 0.5) / SCREEN.width, y: (y + 0.5) / SCREEN.height }, "move", x, y);

  const offset = await clockOffset(xApp);
  const stamped = { moves: [] as number[], buttons: [] as number[] };
  const heard = { moves: [] as number[], buttons: [] as number[] };
  // 10 moves of warm-up, not counted; then a zigzag, a new pixel each time.
  for (let i = 0; i < 10 + moves; i += 1) {
    const x = 100 + ((i * 7) % 1000);
    const y = 150 + (i % 2) * 40 + ((i * 3) % 300);
    const { arrival, sent } = await moveTo(x, y);
    if (i < 10) continue;
    stamped.moves.push(arrival.stamp - sent);
    heard.moves.push(arrival.heard - sent);
  }
  for (let i = 0; i < clicks; i += 1) {
    // Another place each time: no double clicks. Over the text area, which only gets focus.
    const x = 200 + ((i * 37) % 800);
    const y = 200 + ((i * 23) % 300);
    await moveTo(x, y);
    for (const down of [true, false]) {
      const { arrival, sent } = await send({ t: "button", button: 0, down }, down ? "down" : "up", x, y);
      stamped.buttons.push(arrival.stamp - sent);
      heard.buttons.push(arrival.heard - sent);
    }
  }
  const status = readFileSync(`/proc/${app.pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]);

  console.log(
    `\nEntrée technicien (emit "input" sur sa socket) → événement reçu par l'application X (Chromium sur Xvfb), ` +
      `un événement par lot, chacun 0–20 ms (au hasard) après l'arrivée du précédent :`,
  );
  console.log(
    `  horloges page − Node : ${offset.offset.toFixed(2)} ms ` +
      `(aller-retour le plus court ${offset.roundTrip.toFixed(2)} ms), non corrigé`,
  );
  console.log("  heure X de l'événement (event.timeStamp, ms entières du serveur X : ±1 ms) :");
  line("  déplacements", stamped.moves);
  line(`  boutons (${clicks} clics, appui + relâchement)`, stamped.buttons);
  line("  tous", [...stamped.moves, ...stamped.buttons]);
  console.log("  listener JavaScript de la page :");
  line("  déplacements (pointermove, à la trame suivante)", heard.moves);
  line("  boutons (pointerdown/up)", heard.buttons);
  console.log(
    `\nMémoire du logiciel contrôlé après ces ${moves + 10 + clicks * 3} événements : ` +
      `VmRSS ${(kb("VmRSS") / 1024).toFixed(1)} MB, VmHWM (pic) ${(kb("VmHWM") / 1024).toFixed(1)} MB`,
  );
}

/** SIGTERM (the app withdraws consent and exits), SIGKILL after 3 s. */
function stopApp(app: ChildProcess): Promise<void> {
  if (app.exitCode !== null || app.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => app.kill("SIGKILL"), 3_000);
    app.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    app.kill("SIGTERM");
  });
}

try {
  await main();
} catch (error) {
  if (!interrupted) console.error(`\nÉchec : ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
