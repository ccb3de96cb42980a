/**
 * The peer connection of a remote-support session, in the browser (issue 6;
 * spec §4 "Peer connection", §7 "Peer-to-peer", §9 "Data channel ping every
 * 5 seconds"). Framework-free: the screens wrap these in hooks.
 *
 * - `ScreenSharer` (customer, the sharing side) owns the screen's stream,
 *   creates every offer and the data channel `control` (ordered,
 *   maxRetransmits 3). It offers when the technician says `ready` and when
 *   sharing starts with a technician present; each new connection gets a
 *   new `peer` id, so late answers and candidates of an older one are
 *   dropped. When the connection fails it restarts ICE with a new offer on
 *   the same connection. It answers `ping` with `pong`.
 * - `ScreenViewer` (technician) never offers: it says `ready`, answers each
 *   offer (a new `peer` replaces the connection; the same `peer` is a
 *   renegotiation), queues ICE candidates until the remote description is
 *   set, pings every `PING_INTERVAL_MS` and reports the round trip, ms.
 *
 * Trickle ICE: candidates travel one by one as they are found. Signals are
 * handled one at a time, in the order received. Failures are logged (spec
 * §8: signaling and screen-sharing failures are only logged) and surface as
 * the `failed` state.
 */
import {
  CONTROL_CHANNEL_LABEL,
  CONTROL_CHANNEL_OPTIONS,
  PING_INTERVAL_MS,
  parseControlMessage,
  type ControlMessage,
} from "#app/remote-support/control-channel.ts";
import type { IceServer, SignalData } from "#app/remote-support/protocol.ts";
import { getIceServers } from "./api";
import type { RealtimeSocket } from "./session-events";

/** How a screen sees the link: `reconnecting` while ICE restarts or the connection is briefly lost. */
export type PeerState = "waiting" | "connecting" | "connected" | "reconnecting" | "failed" | "closed";

/** The signaling path of one session: send to the other participant, listen to what they send. */
export type Signaling = {
  send(data: SignalData): void;
  /** Returns the unsubscribe function. */
  subscribe(listener: (data: SignalData) => void): () => void;
};

/** Signaling through the site's Socket.IO connection, for session `code` (the server checks who may send what). */
export function socketSignaling(socket: RealtimeSocket, code: string): Signaling {
  return {
    send(data) {
      socket.emit("signal", { code, data }, (ack) => {
        if (!ack.ok) console.error("Erreur de signalisation", data.type, ack.message);
      });
    },
    subscribe(listener) {
      const handler = (message: { code: string; data: SignalData }) => {
        if (message.code === code) listener(message.data);
      };
      socket.on("signal", handler);
      return () => void socket.off("signal", handler);
    },
  };
}

/**
 * The ICE servers of session `code` for a new connection; none (host
 * candidates only, enough on one network) when the server cannot give them,
 * which is logged.
 */
export async function sessionIceServers(code: string): Promise<IceServer[]> {
  const ice = await getIceServers(code);
  if (!ice.ok) console.error("Erreur lors de la récupération des serveurs ICE", ice.message);
  return ice.ok ? ice.data.iceServers : [];
}

/** Most candidates kept for a connection whose offer has not arrived yet. */
const MAX_QUEUED_CANDIDATES = 200;

function stateOf(pc: RTCPeerConnection): PeerState {
  switch (pc.connectionState) {
    case "connected":
      return "connected";
    case "disconnected":
      return "reconnecting";
    case "failed":
      return "failed";
    case "closed":
      return "closed";
    default:
      return "connecting";
  }
}

/** An ICE candidate as the protocol carries it. */
function candidateOf(candidate: RTCIceCandidate): Extract<SignalData, { type: "candidate" }>["candidate"] {
  return {
    candidate: candidate.candidate,
    sdpMid: candidate.sdpMid,
    sdpMLineIndex: candidate.sdpMLineIndex,
    usernameFragment: candidate.usernameFragment,
  };
}

function newPeerId(): string {
  return typeof crypto.randomUUID === "function"
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** Runs async handlers one after the other, logging failures. */
function serial() {
  let chain: Promise<void> = Promise.resolve();
  return (task: () => Promise<void>) => {
    chain = chain.then(task).catch((error: unknown) => console.error("Erreur de connexion pair à pair", error));
  };
}

type Common = {
  signaling: Signaling;
  iceServers: IceServer[];
  /** Control messages other than ping/pong (already answered here). */
  onControl: (message: ControlMessage) => void;
  onStateChange: (state: PeerState) => void;
  /** The data channel opened (true) or closed (false). */
  onChannelChange?: (open: boolean) => void;
};

/**
 * What both sides share: one peer connection at a time (named by `peer`),
 * its data channel, signals handled in order, and closing.
 */
abstract class PeerEndpoint<Options extends Common> {
  protected pc: RTCPeerConnection | null = null;
  protected channel: RTCDataChannel | null = null;
  protected peer = "";
  protected closed = false;
  protected readonly run = serial();
  protected readonly options: Options;
  private readonly unsubscribe: () => void;

  constructor(options: Options) {
    this.options = options;
    this.unsubscribe = options.signaling.subscribe((data) => this.run(() => this.onSignal(data)));
    options.onStateChange("waiting");
  }

  protected abstract onSignal(data: SignalData): Promise<void>;

  /** Sends a control message; false when the data channel is not open (nothing is queued: stale input is worse than none). */
  send(message: ControlMessage): boolean {
    if (this.channel?.readyState !== "open") return false;
    this.channel.send(JSON.stringify(message));
    return true;
  }

  /** Ends the connection for good (a sharer's stream tracks are the caller's to stop). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    this.teardown();
    this.options.onStateChange("closed");
  }

  /** Closes the current connection and its channel, their handlers detached first so they report nothing. */
  protected teardown(): void {
    if (this.channel) {
      this.channel.onmessage = this.channel.onopen = this.channel.onclose = null;
      this.channel.close();
    }
    if (this.pc) {
      this.pc.onicecandidate = this.pc.onconnectionstatechange = this.pc.ontrack = this.pc.ondatachannel = null;
      this.pc.close();
    }
    this.pc = null;
    this.channel = null;
  }
}

export type ScreenSharerOptions = Common & { stream: MediaStream };

/** The customer's side: shares `stream`, offers, answers pings. */
export class ScreenSharer extends PeerEndpoint<ScreenSharerOptions> {
  private pending: RTCIceCandidateInit[] = [];

  /** Opens a new peer connection and sends its offer (replacing any previous connection). */
  connect(): void {
    this.run(() => this.offer());
  }

  protected override teardown(): void {
    super.teardown();
    this.pending = [];
  }

  private async offer(): Promise<void> {
    if (this.closed) return;
    this.teardown();
    const { stream, signaling, iceServers } = this.options;
    const pc = new RTCPeerConnection({ iceServers });
    const peer = newPeerId();
    this.pc = pc;
    this.peer = peer;
    for (const track of stream.getTracks()) pc.addTrack(track, stream);
    const channel = pc.createDataChannel(CONTROL_CHANNEL_LABEL, CONTROL_CHANNEL_OPTIONS);
    this.channel = channel;
    channel.onopen = () => this.options.onChannelChange?.(true);
    channel.onclose = () => this.options.onChannelChange?.(false);
    channel.onmessage = (event: MessageEvent) => {
      const message = parseControlMessage(event.data);
      if (!message) return;
      if (message.type === "ping")
        channel.send(JSON.stringify({ type: "pong", t: message.t } satisfies ControlMessage));
      else if (message.type !== "pong") this.options.onControl(message);
    };
    pc.onicecandidate = (event) => {
      if (event.candidate && this.pc === pc)
        signaling.send({ type: "candidate", peer, candidate: candidateOf(event.candidate) });
    };
    pc.onconnectionstatechange = () => {
      if (this.pc !== pc) return;
      this.options.onStateChange(stateOf(pc));
      // The customer offers, so the customer restarts ICE (a new offer on the same connection).
      if (pc.connectionState === "failed") this.run(() => this.restartIce(pc, peer));
    };
    this.options.onStateChange("connecting");
    const description = await pc.createOffer();
    await pc.setLocalDescription(description);
    signaling.send({ type: "offer", peer, sdp: pc.localDescription?.sdp ?? description.sdp ?? "" });
  }

  private async restartIce(pc: RTCPeerConnection, peer: string): Promise<void> {
    if (this.pc !== pc || this.closed) return;
    const description = await pc.createOffer({ iceRestart: true });
    await pc.setLocalDescription(description);
    this.options.signaling.send({ type: "offer", peer, sdp: pc.localDescription?.sdp ?? description.sdp ?? "" });
  }

  protected async onSignal(data: SignalData): Promise<void> {
    if (this.closed) return;
    if (data.type === "ready") return this.offer();
    const pc = this.pc;
    if (!pc || !("peer" in data) || data.peer !== this.peer) return;
    if (data.type === "answer") {
      if (pc.signalingState !== "have-local-offer") return;
      await pc.setRemoteDescription({ type: "answer", sdp: data.sdp });
      for (const candidate of this.pending.splice(0)) await pc.addIceCandidate(candidate);
    } else if (data.type === "candidate") {
      if (pc.remoteDescription) await pc.addIceCandidate(data.candidate);
      else if (this.pending.length < MAX_QUEUED_CANDIDATES) this.pending.push(data.candidate);
    }
  }
}

export type ScreenViewerOptions = Common & {
  /** The customer's screen (null until it arrives, or after the connection is replaced). */
  onStream: (stream: MediaStream | null) => void;
  /** Data channel round trip, ms, after each pong. */
  onRoundTrip?: (ms: number) => void;
};

/** The technician's side: asks for an offer, answers, pings. */
export class ScreenViewer extends PeerEndpoint<ScreenViewerOptions> {
  /** Candidates per peer id, until that peer's offer is applied. */
  private pending = new Map<string, RTCIceCandidateInit[]>();
  private pingTimer: ReturnType<typeof setInterval> | undefined;

  /** Tells the customer this viewer is listening (again, after a reload or a reconnection). */
  ready(): void {
    if (!this.closed) this.options.signaling.send({ type: "ready" });
  }

  /** Sends a ping now (also done every `PING_INTERVAL_MS`). */
  ping(): boolean {
    return this.send({ type: "ping", t: performance.now() });
  }

  protected override teardown(): void {
    clearInterval(this.pingTimer);
    const had = this.pc !== null || this.channel !== null;
    super.teardown();
    if (had) {
      this.options.onStream(null);
      this.options.onChannelChange?.(false);
    }
  }

  private createConnection(peer: string): RTCPeerConnection {
    this.teardown();
    const pc = new RTCPeerConnection({ iceServers: this.options.iceServers });
    this.pc = pc;
    this.peer = peer;
    pc.onicecandidate = (event) => {
      if (event.candidate && this.pc === pc)
        this.options.signaling.send({ type: "candidate", peer, candidate: candidateOf(event.candidate) });
    };
    pc.onconnectionstatechange = () => {
      if (this.pc === pc) this.options.onStateChange(stateOf(pc));
    };
    pc.ontrack = (event) => {
      if (this.pc === pc) this.options.onStream(event.streams[0] ?? new MediaStream([event.track]));
    };
    pc.ondatachannel = (event) => {
      if (this.pc !== pc || event.channel.label !== CONTROL_CHANNEL_LABEL) return;
      this.attachChannel(event.channel);
    };
    this.options.onStateChange("connecting");
    return pc;
  }

  private attachChannel(channel: RTCDataChannel): void {
    this.channel = channel;
    channel.onopen = () => {
      this.options.onChannelChange?.(true);
      this.ping();
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.ping(), PING_INTERVAL_MS);
    };
    channel.onclose = () => {
      clearInterval(this.pingTimer);
      if (this.channel === channel) this.options.onChannelChange?.(false);
    };
    channel.onmessage = (event: MessageEvent) => {
      const message = parseControlMessage(event.data);
      if (!message) return;
      if (message.type === "pong") this.options.onRoundTrip?.(performance.now() - message.t);
      else if (message.type === "ping")
        channel.send(JSON.stringify({ type: "pong", t: message.t } satisfies ControlMessage));
      else this.options.onControl(message);
    };
  }

  protected async onSignal(data: SignalData): Promise<void> {
    if (this.closed) return;
    if (data.type === "offer") {
      const pc = data.peer === this.peer && this.pc ? this.pc : this.createConnection(data.peer);
      await pc.setRemoteDescription({ type: "offer", sdp: data.sdp });
      for (const candidate of this.pending.get(data.peer) ?? []) await pc.addIceCandidate(candidate);
      this.pending.clear();
      const answer = await pc.createAnswer();
      await pc.setLocalDescription(answer);
      this.options.signaling.send({
        type: "answer",
        peer: data.peer,
        sdp: pc.localDescription?.sdp ?? answer.sdp ?? "",
      });
    } else if (data.type === "candidate") {
      if (data.peer === this.peer && this.pc?.remoteDescription) {
        await this.pc.addIceCandidate(data.candidate);
        return;
      }
      // Before its offer (signals of one sender keep their order, but across server processes a large offer can be overtaken).
      const queue = this.pending.get(data.peer) ?? [];
      if (queue.length < MAX_QUEUED_CANDIDATES) queue.push(data.candidate);
      this.pending.set(data.peer, queue);
    }
  }
}
