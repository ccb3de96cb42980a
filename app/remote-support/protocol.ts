/**
 * The remote-support protocol (issue 5; spec §3, §4, §5, §7 "Backend data",
 * §8), in one module shared by the browser and the server: session codes,
 * the JSON shapes of `/api/sessions…` (their paths: `api-paths.ts`), the
 * Socket.IO events, the French messages and the duration formats. Pure: no
 * server or browser APIs.
 */
import { z } from "zod";
import { typedString } from "#app/utils/text.ts";
import type { DeviceView, InputAck, InputBatch } from "./device-protocol.ts";
import type { ScreenAck, ScreenFrame, ScreenRefresh, ScreenSelect } from "./screen-protocol.ts";

// Spec §9's duration formats live in `durations.ts` (kept out of this file's length); imported from here as before.
export { formatHistoryDuration, formatReportDuration, formatTimer } from "./durations.ts";

/**
 * Session codes are read aloud over the phone: upper-case letters and digits
 * without the look-alikes 0/O, 1/I/L, 5/S, 2/Z, 8/B (25 symbols, 6 characters:
 * about 244 million codes).
 */
export const SESSION_CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679";
export const SESSION_CODE_LENGTH = 6;

/** What a person typed (any case, spaces or dashes) → the canonical code. */
export function normalizeSessionCode(input: string): string {
  return input.toUpperCase().replace(/[\s-]/g, "");
}

/**
 * Issue 40: the one way a session code is written for people, on the customer's page, the dashboard and the desktop
 * app: two groups of three read over the phone, « K7W 9GA » (typed back with or without the space or a dash, any
 * case: `normalizeSessionCode`). A code of another length is only normalized.
 */
export function formatSessionCode(code: string): string {
  const canonical = normalizeSessionCode(code);
  return canonical.length === SESSION_CODE_LENGTH ? `${canonical.slice(0, 3)} ${canonical.slice(3)}` : canonical;
}

/** Whether a canonical code has the generated shape: `SESSION_CODE_LENGTH` symbols of `SESSION_CODE_ALPHABET`. */
export function isReadableSessionCode(code: string): boolean {
  return code.length === SESSION_CODE_LENGTH && [...code].every((symbol) => SESSION_CODE_ALPHABET.includes(symbol));
}

export const SessionCode = z
  .string({ error: "Le code de session est obligatoire." })
  .transform(normalizeSessionCode)
  .pipe(
    z
      .string()
      .min(1, { error: "Le code de session est obligatoire." })
      .max(32, { error: "Ce code de session est trop long." })
      .regex(/^[A-Z0-9]+$/, { error: "Le code de session ne contient que des lettres et des chiffres." }),
  );

/** Spec §8, verbatim. */
export const SESSION_MESSAGES = {
  notFound: "Session non trouvée",
  alreadyConnected: "Session déjà connectée",
  notSignedIn: "Utilisateur non connecté",
  wrongPassword: "Mot de passe incorrect",
  technicianOnly: "Réservé aux techniciens.",
  reportLocked: "Vérifiez d'abord votre mot de passe pour ouvrir les rapports.",
  ownSession: "Vous ne pouvez pas rejoindre votre propre session.",
  sessionEnded: "Session terminée",
  // Issue 13 §8: a code nobody used in time, and the limits on joins and creations (429 with Retry-After).
  codeExpired: "Ce code de session a expiré. Demandez au client de démarrer une nouvelle session.",
  codeExpiredNotice:
    "Votre code a expiré sans qu'un technicien ne l'utilise : démarrez une nouvelle session pour en obtenir un nouveau.",
  tooManyJoins: "Trop de tentatives de connexion à une session. Réessayez dans quelques minutes.",
  tooManySessions: "Trop de sessions créées en peu de temps. Réessayez dans quelques minutes.",
  unreadableCode: "Ce code de session n'est pas valide.",
  notConnected: "La session n'est pas connectée.",
  tooManyAttempts: "Trop de tentatives. Réessayez dans une minute.",
  failed: "Une erreur est survenue. Veuillez réessayer.",
  badJson: "Le contenu envoyé n'est pas du JSON valide.",
  badBody: "Le contenu envoyé doit être un objet JSON.",
  badSignal: "Message de signalisation invalide.",
  wrongSender: "Ce message ne peut pas venir de vous dans cette session.",
  // Issue 13 §3: signaling budgets (per connection, per session), past which a signal is refused and not stored.
  signalTooFast: "Trop de messages de signalisation : réessayez dans quelques secondes.",
  signalQuota: "Cette session a atteint le volume maximal de messages de signalisation.",
  tooLarge: "Le contenu envoyé est trop volumineux.",
  // Issue 28 §7: a session one does not take part in is answered « Session non trouvée », like an unused code; too
  // many such answers for one account, and its calls addressed by code are refused for a while (429, Retry-After).
  tooManyLookups: "Trop de sessions introuvables demandées. Réessayez dans quelques minutes.",
  // Issue 28 §8: events and shared-surface reports per participant and session (429, Retry-After).
  tooManyEvents: "Trop de mises à jour envoyées pour cette session. Réessayez dans une minute.",
} as const;

export type SessionStatus = "disconnected" | "connected";

/**
 * Spec §3 "Session" as the API answers it (times ISO 8601, duration in whole seconds). Issue 26: `origin` `app`
 * is a session the desktop app started with no account: `userId` and `userEmail` null, `userName` the name typed
 * in the app or « Client sans compte ».
 */
export type SessionView = {
  id: string;
  code: string;
  status: SessionStatus;
  userId: string | null;
  technicianId: string | null;
  /**
   * Issue 40: the first word of the joined technician's account name (`firstNameOf`: never their e-mail), shown to
   * the customer (« Julien, technicien de l'atelier, est connecté »); null when no technician joined or no name.
   */
  technicianFirstName: string | null;
  startTime: string | null;
  endTime: string | null;
  durationSeconds: number | null;
  createdAt: string;
  userName: string;
  userEmail: string | null;
  origin: SessionOrigin;
};
/** Issue 26: who started a session: a customer's account at /soft-assist, or the desktop app without one. */
export type SessionOrigin = "site" | "app";

/** Spec §3 "Report data (derived)", with the session's record (issue 6), oldest first; `origin`: issue 26. */
export type SessionReport = {
  code: string;
  startTime: string | null;
  endTime: string | null;
  durationSeconds: number | null;
  userName: string;
  userEmail: string | null;
  origin: SessionOrigin;
  events: SessionEventView[];
  computerFacts?: import("./facts-protocol.ts").ComputerFacts; // Issue 38 §4: absent when none were sent.
};

/** Every error answer of the API: a French message to show as is. */
export type ApiError = { message: string };

export type { AccountView } from "./account-view.ts";
import type { AccountView } from "./account-view.ts";
export type MeResponse = { user: AccountView };
/** `POST /api/sessions` (201 created, 200 existing), `POST /api/sessions/join`, `POST /api/sessions/:code/disconnect`. */
export type SessionResponse = { session: SessionView };
/** `GET /api/sessions/active`: the technician's connected session, if any. */
export type ActiveSessionResponse = { session: SessionView | null };
/** `GET /api/sessions/history` (technician), `GET /api/sessions/mine` (any account): newest first. */
export type SessionListResponse = { sessions: SessionView[] };
/** `GET /api/sessions/:code/report`. */
export type ReportResponse = { report: SessionReport };
/** `POST /api/reports/verify`: reports open until `grantedUntil` (ISO 8601) for this sign-in session. */
export type VerifyResponse = { grantedUntil: string };

export const JoinBody = z.object({ code: SessionCode });
/**
 * `code` (optional) names one of the caller's own sessions, which is then
 * returned as is (spec §4). Any other code, free or someone else's, is
 * ignored: the caller gets their open session or a new random code, so the
 * answer never tells whether a code exists (issue 13 §8). It must have the
 * generated shape.
 */
export const CreateSessionBody = z
  .object({ code: SessionCode.refine(isReadableSessionCode, { error: SESSION_MESSAGES.unreadableCode }).optional() })
  .default({});
export const VerifyBody = z.object({
  password: z
    .string({ error: "Le mot de passe est obligatoire." })
    .min(1, { error: "Le mot de passe est obligatoire." })
    .max(128, { error: "Ce mot de passe est trop long." }),
});

/** Server → browser events, with those of issues 27 (`clipboard-protocol.ts`) and 36 §4 (`elevation-protocol.ts`). */
export type ServerToClientEvents = import("./clipboard-protocol.ts").ClipboardServerToClientEvents &
  import("./chat-protocol.ts").ChatServerToClientEvents &
  import("./file-protocol.ts").FileServerToClientEvents & {
    /**
     * A session the receiver may see changed (created, joined, disconnected):
     * sent to its customer and to its joined technician only. The dashboard
     * applies it as is (issue 14), without asking the API again.
     */
    "session:updated": (session: SessionView) => void;
    /**
     * Some session changed (any customer's, any technician's): sent to every
     * technician, without data. Since issue 14 no screen listens to it: the
     * dashboard applies `session:updated`, which carries the session.
     */
    "sessions:changed": () => void;
    /** Issue 18 §1: an appointment of shop date `date` changed (booked, moved, confirmed, cancelled); to technicians. */
    "agenda:changed": (change: { date: string }) => void;
    /** A signaling message from the other participant of `code` (validated by the server). */
    signal: (message: { code: string; data: SignalData }) => void;
    /** The account's sign-in session ended (signed out elsewhere, account deleted): leave the area. */
    "auth:ended": () => void;
    /**
     * Issue 13 §4: this server process is stopping (deploy, restart); the
     * connection closes right after and the client reconnects by itself, to
     * the next process. Sessions go on: nothing ends because of a restart.
     */
    "server:restarting": () => void;
    /**
     * Issue 15: the desktop app of session `code` changed (paired, connected,
     * consent, shared surface, control on or off): sent to the session's
     * customer and joined technician, as `GET /api/sessions/:code/device` answers.
     */
    "session:device": (device: DeviceView & { code: string }) => void;
    /**
     * Issue 26 (`screen-protocol.ts`): a picture frame of session `code` from
     * its desktop app, to the joined technician only. Answer `screen:ack` once drawn.
     */
    "screen:frame": (frame: ScreenFrame & { code: string }) => void;
  } & import("./elevation-protocol.ts").ElevationServerToClientEvents &
  import("./reboot-protocol.ts").RebootServerToClientEvents;

export type SignalAck = { ok: true } | { ok: false; message: string };

/** Browser → server events, with those of issues 27 (`clipboard-protocol.ts`) and 36 §4 (`elevation-protocol.ts`). */
export type ClientToServerEvents = import("./clipboard-protocol.ts").ClipboardClientToServerEvents &
  import("./chat-protocol.ts").ChatClientToServerEvents &
  import("./file-protocol.ts").FileClientToServerEvents & {
    /** Relays `data` (offer, answer, ICE candidate…) to the other participant of `code`, storing it. */
    signal: (message: { code: string; data: SignalData }, ack: (result: SignalAck) => void) => void;
    /**
     * Issue 15, technician only: input for the desktop app of `batch.code`,
     * relayed by the server to the app when the sender is that session's
     * technician, the toggle is on, the customer consents, the app is
     * connected and can inject, and a whole screen is shared; within
     * `INPUT_LIMITS`. Acknowledged `{ ok: true }` or `{ ok: false, message }`
     * (`DEVICE_MESSAGES`).
     */
    input: (batch: InputBatch, ack: (result: InputAck) => void) => void;
    /** Issue 26, joined technician only: frame `seq` is drawn (paces the app). */
    "screen:ack": (ack: ScreenAck) => void;
    /** Issue 26, joined technician only: show another monitor (a full picture follows). */
    "screen:select": (select: ScreenSelect) => void;
    /** Issue 26, joined technician only: send a full picture again. */
    "screen:refresh": (refresh: ScreenRefresh) => void;
  } & import("./elevation-protocol.ts").ElevationClientToServerEvents &
  import("./reboot-protocol.ts").RebootClientToServerEvents;

/** Largest signaling message, characters of JSON: far above any SDP of one video track and one data channel. */
export const MAX_SIGNAL_CHARS = 65_536;

/**
 * Issue 6 (spec §4 "Peer connection", §7 "Peer-to-peer"): what travels in
 * `signal`, relayed by the server between the two participants.
 * - `ready` (technician): my viewer is open, send me an offer. The customer
 *   answers it with a fresh offer whenever it is sharing.
 * - `offer` (customer only; the technician never offers) and `answer`
 *   (technician only), each for one peer connection, named by `peer`: a new
 *   id for each connection the customer opens, so an answer or a candidate
 *   of an older one is recognised and dropped. An offer for the current
 *   `peer` is a renegotiation (ICE restart).
 * - `candidate` (either side, trickle ICE): one ICE candidate of `peer`.
 */
const PeerId = z.string().min(1).max(64);
export const SignalData = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ready") }),
  z.object({ type: z.literal("offer"), peer: PeerId, sdp: z.string().min(1).max(MAX_SIGNAL_CHARS) }),
  z.object({ type: z.literal("answer"), peer: PeerId, sdp: z.string().min(1).max(MAX_SIGNAL_CHARS) }),
  z.object({
    type: z.literal("candidate"),
    peer: PeerId,
    candidate: z.object({
      candidate: z.string().max(2048),
      sdpMid: z.string().max(64).nullable().optional(),
      sdpMLineIndex: z.number().int().min(0).max(255).nullable().optional(),
      usernameFragment: z.string().max(256).nullable().optional(),
    }),
  }),
]);
export type SignalData = z.infer<typeof SignalData>;

/** Who may send each kind of signal: the sharing side offers, the technician answers (spec §4). */
export const SIGNAL_SENDER = {
  ready: "technician",
  offer: "customer",
  answer: "technician",
  candidate: "either",
} as const satisfies Record<SignalData["type"], "customer" | "technician" | "either">;

export const SignalMessage = z.object({
  code: SessionCode,
  data: z
    .unknown()
    .refine((value) => value !== null && typeof value === "object" && !Array.isArray(value), {
      error: SESSION_MESSAGES.badSignal,
      abort: true,
    })
    .refine((value) => (JSON.stringify(value) ?? "").length <= MAX_SIGNAL_CHARS, {
      error: "Message de signalisation trop volumineux.",
      abort: true,
    })
    .pipe(SignalData),
});

/**
 * `GET /api/sessions/:code/ice-servers` (issue 6): the ICE servers for this
 * session's peer connection, as `RTCConfiguration.iceServers` takes them.
 * TURN credentials are time-limited (coturn REST scheme) and stop working
 * at `expiresAt` (ISO 8601); `null` without TURN.
 */
export type IceServer = { urls: string[]; username?: string; credential?: string };
export type IceServersResponse = { iceServers: IceServer[]; expiresAt: string | null };

/**
 * The session's record (issue 6): its audit trail and the chat, kept by the
 * server. `joined` and `ended` are written by the server itself; the others
 * are reported by the participant who did them, each kind by one role only
 * (`SESSION_EVENT_SENDER`). Times ISO 8601.
 */
export const SESSION_EVENT_KINDS = [
  "joined",
  "sharing-started",
  "sharing-stopped",
  "control-on",
  "control-off",
  "chat",
  "ended",
  // Issue 15, written by the server (actor: the customer, or null for the server): the desktop app paired,
  // control allowed or withdrawn (page or app), the app unpaired (replaced, or the session ended).
  "device-paired",
  "control-allowed",
  "control-withdrawn",
  "device-unpaired",
  // Issue 26, written by the server (actor: the customer): seeing the screen allowed or withdrawn in the app.
  "view-allowed",
  "view-withdrawn",
  // Issue 27, written by the server (actor: who sent it): plain text went from the technician's clipboard to the
  // customer's computer, or from the customer's clipboard to the technician. The text itself is never stored.
  "clipboard-to-customer",
  "clipboard-to-technician",
] as const;
export type SessionEventKind = (typeof SESSION_EVENT_KINDS)[number];
export const SESSION_EVENT_SENDER = {
  "sharing-started": "customer",
  "sharing-stopped": "customer",
  "control-on": "technician",
  "control-off": "technician",
  chat: "either",
} as const satisfies Partial<Record<SessionEventKind, "customer" | "technician" | "either">>;
export type ReportedEventKind = keyof typeof SESSION_EVENT_SENDER;
/** Longest chat message, characters. */
export const CHAT_MAX_CHARS = 1000;

export type SessionEventView = {
  id: string;
  kind: SessionEventKind;
  /** Who did it: the session's customer or technician; null for the server. */
  actor: "customer" | "technician" | null;
  /** The chat message (kind `chat`), else null. */
  text: string | null;
  at: string;
};
/** `GET /api/sessions/:code/events`: oldest first. `POST` answers `{ event }` (201). */
export type SessionEventsResponse = { events: SessionEventView[] };
export type SessionEventResponse = { event: SessionEventView };

export const SessionEventBody = z.discriminatedUnion(
  "kind",
  [
    z.object({
      kind: z.literal("chat"),
      // Typable text only (issue 13 §7): PostgreSQL refuses a NUL, a lone surrogate would be mangled.
      text: typedString({ error: "Le message est vide." })
        .trim()
        .min(1, { error: "Le message est vide." })
        .max(CHAT_MAX_CHARS, { error: `Le message dépasse ${CHAT_MAX_CHARS} caractères.` }),
    }),
    z.object({ kind: z.enum(["sharing-started", "sharing-stopped", "control-on", "control-off"]) }),
  ],
  { error: "Type d'événement inconnu." },
);
export type SessionEventBody = z.infer<typeof SessionEventBody>;

/** How long the dashboard waits for a lost peer connection to recover (ICE restart) before ending the session, ms. */
export const PEER_RECOVERY_GRACE_MS = 8_000;
/**
 * Issue 13 §4, Socket.IO client reconnection backoff, ms: first try after
 * about 0.5 s, doubling up to 2 s, each ±50 %, so every tab is back within
 * about 3 s of a restarted server listening, and the tabs of a busy shop do
 * not all knock at the same instant. Used by the browser and by `bench/restart.ts`.
 */
export const RECONNECT_OPTIONS = {
  reconnectionDelay: 500,
  reconnectionDelayMax: 2_000,
  randomizationFactor: 0.5,
} as const;

// Issue 6's data channel `control` (its messages, label, options and ping) lives in `control-channel.ts`.
