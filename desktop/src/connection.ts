/**
 * The app's live link to the server (issue 15, protocol step 3): Socket.IO
 * namespace `/device` with `auth: { token }`, websocket only, reconnecting by
 * itself. It reports the injector's (and the capture's) status on every
 * (re)connection, injects `device:input` in order while control is active,
 * and releases every held key and button on `device:release`, on a lost
 * connection, when control stops and when the app stops.
 *
 * Issue 26: the customer's consent is given here (`allowView`,
 * `allowControl`) and taken back here (`withdraw`, `allowView(false)`); the
 * picture (`ScreenStream`) runs only while the server's `device:screen` says
 * `active` and the customer allowed it in this app; `device:ack` paces it.
 * Stopping sends `device:leave`, so the server unpairs the app at once.
 */
import { io, type Socket } from "socket.io-client";
import {
  DEVICE_NAMESPACE,
  type DeviceState,
  type DeviceStatus,
  type DeviceQueuePlace,
  type DeviceToServerEvents,
  type Injection,
  InputEvent,
  readDeviceQueuePlace,
  type Screen,
  type ServerToDeviceEvents,
} from "#app/remote-support/device-protocol.ts";
import type { Capture, ScreenDemand, ScreenFrame } from "#app/remote-support/screen-protocol.ts";
import { type Injector, pickScreen } from "./input/injector.ts";
import type { ScreenCapturer } from "./capture/capturer.ts";
import type { JpegEncoder } from "./capture/jpeg.ts";
import { ScreenStream } from "./capture/stream.ts";
import { CaptureTrouble } from "./capture/capture-trouble.ts";

/** Issue 26: what captures and encodes the picture (absent in tests of input alone). */
export type PictureSource = { capturer: ScreenCapturer; encoder: JpegEncoder };

/** The capture's status as the server and the technician see it: the capturer's, else the encoder's refusal. */
export function captureStatus(source: PictureSource): Capture {
  const capture = source.capturer.status();
  if (!capture.ok) return capture;
  return source.encoder.status();
}

export type DeviceSocket = Socket<ServerToDeviceEvents, DeviceToServerEvents>;

/** What the terminal shows of the link. `ended`: the server ended the session, with its message. */
export type LinkPhase = "connecting" | "connected" | "reconnecting" | "ended" | "refused" | "stopped";

export type ConnectionEvents = {
  /** The phase or the server's `device:state` changed. */
  onChange(): void;
  /** A French note for the terminal (unsupported key, Ctrl+Alt+Suppr refused…). */
  onNotice(message: string): void;
  /** The link is over for good (`ended`, `refused`, `stopped`): the app exits with `message`. */
  onFinished(phase: "ended" | "refused" | "stopped", message: string): void;
};

/** Opens the socket with the device token; tests pass their own. */
export type SocketFactory = (token: string) => DeviceSocket;

/** The real factory: `${server}/device`, websocket only (no long-polling fallback), automatic reconnection. */
export const defaultSocketFactory =
  (server: string): SocketFactory =>
  (token) =>
    io(`${server}${DEVICE_NAMESPACE}`, {
      auth: { token },
      transports: ["websocket"],
      reconnection: true,
      reconnectionDelay: 1_000,
      reconnectionDelayMax: 5_000,
    });

/** Pause between the consent withdrawal and the disconnection at stop (ms); see `stop()`. */
const CONSENT_GAP_MS = 250;
/** How often the app re-reads its screens and injection status (ms): monitors plugged, permission granted. */
const STATUS_POLL_MS = 5_000;

/** One paired device's connection. Create it, then `start()`; `stop()` is idempotent. */
export class DeviceConnection {
  phase: LinkPhase = "connecting";
  /** The server's last `device:state`, null before the first. */
  state: DeviceState | null = null;
  /** The customer withdrew control here (R key); cleared when the page allows it again. */
  withdrawnHere = false;
  /** The injector's status as last reported (refreshed every `STATUS_POLL_MS`). */
  injection: Injection;

  readonly #socket: DeviceSocket;
  readonly #injector: Injector;
  readonly #events: ConnectionEvents;
  #queue: Promise<void> = Promise.resolve();
  #lastStatus = "";
  #lastInjection = "";
  /** Screens as last reported: read once per poll, not once per pointer move (RandR is a round trip). */
  #screens: Screen[] = [];
  #poll: ReturnType<typeof setInterval> | undefined;
  #withdrawalSeen = false;
  /** Set by `stop()`: input still queued is dropped. */
  #stopping = false;
  /** Issue 26: the customer allowed, in this app, the technician to see the screen. */
  viewAllowed = false;
  /**
   * Issue 27: this customer's place in the waiting queue (`device:queue`), null when not waiting; issue 29: with
   * the shop's opening hours when the server sent valid ones.
   */
  waiting: DeviceQueuePlace | null = null;
  readonly #picture: PictureSource | undefined;
  readonly #stream: ScreenStream | undefined;
  /** Failed captures' notices, and issue 36 §4's secure desktop (`capture/capture-trouble.ts`). */
  readonly #trouble = new CaptureTrouble();
  readonly #elevated: boolean | null | undefined;
  /** The server's last `device:screen`, applied only while `viewAllowed`. */
  #demand: ScreenDemand = { active: false, screen: null, refresh: 0 };
  readonly #pollMs: number;

  /**
   * `pollMs`: how often screens and injection status are re-read (ms; tests shorten it). `picture`: issue 26's
   * capture and encoder (none: no capture, no stream). `elevated`: issue 36 §4, Windows only (else not reported).
   */
  constructor(
    socket: DeviceSocket,
    injector: Injector,
    events: ConnectionEvents,
    pollMs = STATUS_POLL_MS,
    picture?: PictureSource,
    elevated?: boolean | null,
  ) {
    this.#elevated = elevated;
    this.#pollMs = pollMs;
    this.#socket = socket;
    this.#injector = injector;
    this.#events = events;
    this.injection = injector.status();
    this.#picture = picture;
    this.#stream = picture
      ? new ScreenStream(picture.capturer, picture.encoder, (frame) => this.#sendFrame(frame), {
          onError: (error) => this.#captureError(error),
          // A capture worked: the secure desktop is gone, the technician's view shows the picture again.
          onTick: () => this.#trouble.cleared() && this.#sendStatus(false),
        })
      : undefined;
  }

  /** What `device:status` carries: injection, screens, capture (issue 26), elevation, secure desktop (36 §4). */
  status(): DeviceStatus {
    const status: DeviceStatus = { injection: this.#injector.status(), screens: this.#injector.screens() };
    if (this.#picture) status.capture = captureStatus(this.#picture);
    if (typeof this.#elevated === "boolean") status.elevated = this.#elevated;
    if (this.#trouble.secureDesktop) status.secureDesktop = true;
    return status;
  }

  /** Issue 26: the technician is being shown the screen now. */
  get streaming(): boolean {
    return this.#stream?.active === true;
  }

  /**
   * Issue 26: the customer allows (or stops) the technician seeing the screen. Stopping stops the picture here at
   * once, whatever the server says.
   */
  allowView(allowed: boolean): void {
    this.viewAllowed = allowed;
    this.#applyDemand();
    if (this.#socket.connected) this.#socket.emit("device:consent", { view: allowed });
    this.#events.onChange();
  }

  /** Issue 26: the customer allows control from the app (it used to be the page only). */
  allowControl(): void {
    this.withdrawnHere = false;
    if (this.#socket.connected) this.#socket.emit("device:consent", { allowed: true });
    this.#events.onChange();
  }

  /** Wires the socket's events and the status poll. */
  start(): void {
    const socket = this.#socket;
    socket.on("connect", () => {
      this.#setPhase("connected");
      this.#sendStatus(true);
      // The server forgets nothing across a reconnection, but a consent given while the link was down must reach it.
      if (this.viewAllowed) socket.emit("device:consent", { view: true });
    });
    socket.on("disconnect", (reason) => {
      this.#release();
      // Socket.IO would buffer frames until the link is back: stop, the server asks again on reconnection.
      this.#demand = { ...this.#demand, active: false };
      this.#applyDemand();
      if (this.#isFinal()) return;
      if (reason === "io server disconnect") {
        // The server closed us on purpose and Socket.IO will not retry: the session or the pairing is over.
        this.#finish("ended", "Le serveur a fermé la connexion : la session est terminée.");
        return;
      }
      this.#setPhase("reconnecting");
    });
    socket.on("connect_error", (error) => {
      if (this.#isFinal()) return;
      // `active` false: the server's middleware refused the token (its message is French); true: network, retried.
      if (!socket.active) this.#finish("refused", error.message);
      else this.#setPhase(this.phase === "connecting" ? "connecting" : "reconnecting");
    });
    socket.on("device:state", (state) => {
      this.state = state;
      // After R, control resumes only once the server saw the withdrawal (consent false) and the customer allowed
      // it again on the page (consent true): a state already in flight with the old consent must not undo R.
      if (this.withdrawnHere && !state.consent) this.#withdrawalSeen = true;
      if (this.withdrawnHere && state.consent && this.#withdrawalSeen) this.withdrawnHere = false;
      if (!state.controlActive) this.#release();
      this.#events.onChange();
    });
    socket.on("device:input", (batch) => this.#input(batch));
    socket.on("device:screen", (demand) => {
      this.#demand = demand;
      this.#applyDemand();
      this.#events.onChange();
    });
    socket.on("device:queue", (place) => {
      this.waiting = readDeviceQueuePlace(place);
      this.#events.onChange();
    });
    socket.on("device:ack", (seq) => {
      if (typeof seq === "number") this.#stream?.ack(seq);
    });
    socket.on("device:release", () => this.#release());
    socket.on("device:ended", (message) => {
      this.#release();
      this.#finish("ended", message);
    });
    this.#poll = setInterval(() => this.#sendStatus(false), this.#pollMs);
    // The poll must not keep the app alive by itself once everything else stopped.
    this.#poll.unref?.();
  }

  /**
   * The customer takes control back from the app (R key): tells the server,
   * releases everything, drops input until the page allows it again.
   */
  withdraw(): void {
    this.withdrawnHere = true;
    this.#withdrawalSeen = false;
    this.#release();
    if (this.#socket.connected) this.#socket.emit("device:consent", { allowed: false });
    this.#events.onChange();
  }

  /**
   * Stops for good (Ctrl+C, SIGTERM, SIGHUP, window closed): withdraws
   * consent, releases input, closes the socket. Resolves once the socket is
   * closed (≤ 250 ms + `graceMs`) so the consent message reaches the server before exit.
   * `leave` false (issue 36 §4, replaced by itself as administrator): no `device:leave`, which ends app sessions.
   */
  async stop(graceMs = 500, leave = true): Promise<void> {
    this.#stopping = true;
    if (this.#poll) clearInterval(this.#poll);
    this.#release();
    this.#stream?.stop();
    const socket = this.#socket;
    if (socket.connected && leave) {
      // Issue 26: unpaired at once (consent withdrawn with it), so the page offers a new pairing code.
      socket.emit("device:leave");
      // A Socket.IO server drops events dispatched after the socket's disconnect packet was read (its handlers
      // run on the next tick, then see the socket closed): leave a gap before disconnecting.
      await new Promise((resolve) => setTimeout(resolve, CONSENT_GAP_MS));
      // Wait for the transport itself to close: engine.io closes it only once the consent packet was written,
      // whereas the socket's own "disconnect" fires at once (and the app exits right after).
      const engine = socket.io.engine;
      const closed = new Promise<void>((resolve) => (engine ? engine.once("close", () => resolve()) : resolve()));
      socket.disconnect();
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, graceMs))]);
    } else {
      socket.disconnect();
    }
    if (!this.#isFinal()) this.phase = "stopped";
  }

  /** Issue 27: the link's socket, to which the clipboard transfer (`clipboard/transfer.ts`) adds its events. */
  get socket(): DeviceSocket {
    return this.#socket;
  }

  /** Issue 27: control is active for the server, not withdrawn here, and the app is not stopping. */
  get controlAllowed(): boolean {
    return this.state?.controlActive === true && !this.withdrawnHere && !this.#stopping;
  }

  /** Issue 27: runs `task` after the input received so far, only if control is still allowed when its turn comes. */
  whileControlled(task: (injector: Injector) => void | Promise<void>): void {
    this.#enqueue(() => (this.controlAllowed ? task(this.#injector) : undefined));
  }

  /** Resolves once every input received so far was injected (tests). */
  idle(): Promise<void> {
    return this.#queue;
  }

  #isFinal(): boolean {
    return this.phase === "ended" || this.phase === "refused" || this.phase === "stopped";
  }

  #setPhase(phase: LinkPhase): void {
    if (this.phase === phase) return;
    this.phase = phase;
    this.#events.onChange();
  }

  #finish(phase: "ended" | "refused" | "stopped", message: string): void {
    if (this.#isFinal()) return;
    this.phase = phase;
    if (this.#poll) clearInterval(this.#poll);
    this.#events.onChange();
    this.#events.onFinished(phase, message);
  }

  #sendStatus(force: boolean): void {
    let status: DeviceStatus;
    try {
      status = this.status();
    } catch {
      return;
    }
    this.#screens = status.screens;
    const serialized = JSON.stringify(status);
    if (!force && serialized === this.#lastStatus) return;
    this.#lastStatus = serialized;
    const injection = JSON.stringify(status.injection);
    const injectionChanged = injection !== this.#lastInjection;
    this.#lastInjection = injection;
    this.injection = status.injection;
    if (this.#socket.connected) this.#socket.emit("device:status", status);
    if (injectionChanged) this.#events.onChange();
  }

  /** Streams while the server asks and the customer allowed it here; stops otherwise. */
  #applyDemand(): void {
    const stream = this.#stream;
    if (!stream) return;
    const active = this.#demand.active && this.viewAllowed && !this.#stopping && this.#socket.connected;
    // No picture, no secure desktop to speak of: the technician's view says why there is no picture instead.
    if (!active && this.#trouble.cleared()) this.#sendStatus(false);
    stream.setDemand({ ...this.#demand, active }, this.#screens.length > 0 ? this.#screens : this.#injector.screens());
  }

  /** A failed capture: the secure desktop reported at once (issue 36 §4), the notice said now and then. */
  #captureError(error: unknown): void {
    const { notice, changed } = this.#trouble.failed(error);
    if (changed) this.#sendStatus(false);
    if (notice) this.#events.onNotice(notice);
  }

  #sendFrame(frame: ScreenFrame): void {
    if (this.#socket.connected) this.#socket.emit("device:frame", frame);
  }

  #release(): void {
    // Queued behind pending input so a release never overtakes the press it undoes.
    this.#enqueue(() => this.#injector.releaseAll());
  }

  #enqueue(task: () => void | Promise<void>): void {
    this.#queue = this.#queue.then(task).catch((error: unknown) => {
      this.#events.onNotice(`Erreur de saisie : ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  #input(batch: { events: unknown[]; screen: string | null }): void {
    // The server already checked sender, toggle, consent and budget; the app checks again, being the last line.
    if (!this.state?.controlActive || this.withdrawnHere || this.#stopping || !Array.isArray(batch?.events)) return;
    const screenId = typeof batch.screen === "string" ? batch.screen : null;
    for (const raw of batch.events.slice(0, 64)) {
      const parsed = InputEvent.safeParse(raw);
      if (!parsed.success) continue;
      const event = parsed.data;
      this.#enqueue(async () => {
        // Re-checked at run time: a release or a withdrawal may have come in between.
        if (!this.state?.controlActive || this.withdrawnHere || this.#stopping) return;
        const injector = this.#injector;
        switch (event.t) {
          case "move":
            if (this.#screens.length === 0) this.#screens = injector.screens();
            return injector.move(pickScreen(this.#screens, screenId), event.x, event.y);
          case "button":
            return injector.button(event.button as 0 | 1 | 2, event.down);
          case "wheel":
            return injector.wheel(event.dx, event.dy);
          case "key":
            return injector.key(event.code, event.down);
          case "text":
            return injector.text(event.text);
          case "sas": {
            const result = await injector.sas();
            this.#events.onNotice(result.ok ? "Ctrl+Alt+Suppr envoyé." : result.reason);
          }
        }
      });
    }
  }
}
