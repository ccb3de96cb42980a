/**
 * The remote-support protocol (issue 5; spec §3, §4, §5, §7 "Backend data",
 * §8), in one module shared by the browser and the server: session codes,
 * the JSON shapes of `/api/sessions…`, the Socket.IO events, the French
 * messages and the duration formats. Pure: no server or browser APIs.
 */
import { z } from "zod";

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
  notParticipant: "Vous ne participez pas à cette session.",
  reportLocked: "Vérifiez d'abord votre mot de passe pour ouvrir les rapports.",
  ownSession: "Vous ne pouvez pas rejoindre votre propre session.",
  sessionEnded: "Session terminée",
  codeTaken: "Ce code de session est déjà utilisé.",
  unreadableCode: "Ce code de session n'est pas valide.",
  notConnected: "La session n'est pas connectée.",
  tooManyAttempts: "Trop de tentatives. Réessayez dans une minute.",
  failed: "Une erreur est survenue. Veuillez réessayer.",
  badJson: "Le contenu envoyé n'est pas du JSON valide.",
  badBody: "Le contenu envoyé doit être un objet JSON.",
  badSignal: "Message de signalisation invalide.",
  tooLarge: "Le contenu envoyé est trop volumineux.",
} as const;

export type SessionStatus = "disconnected" | "connected";

/** Spec §3 "Session" as the API answers it (times ISO 8601, duration in whole seconds). */
export type SessionView = {
  id: string;
  code: string;
  status: SessionStatus;
  userId: string;
  technicianId: string | null;
  startTime: string | null;
  endTime: string | null;
  durationSeconds: number | null;
  createdAt: string;
  userName: string;
  userEmail: string;
};

/** Spec §3 "Report data (derived)". */
export type SessionReport = {
  code: string;
  startTime: string | null;
  endTime: string | null;
  durationSeconds: number | null;
  userName: string;
  userEmail: string;
};

/** Every error answer of the API: a French message to show as is. */
export type ApiError = { message: string };

/** The signed-in account, `GET /api/me`. */
export type AccountView = { id: string; name: string; email: string; isTechnician: boolean };
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

/** The outbox delivery of a request's mail (technicians' "Demandes" view). */
export type DeliveryView = {
  status: "pending" | "sent";
  attempts: number;
  lastError: string | null;
  sentAt: string | null;
};
/** A contact message or quote request (spec §3) as `GET /api/requests` lists it; `delivery` null if no mail was queued. */
export type RequestView =
  | { kind: "contact"; id: string; createdAt: string; name: string; email: string; message: string; delivery: DeliveryView | null }
  | {
      kind: "quote";
      id: string;
      createdAt: string;
      companyName: string;
      contactName: string;
      email: string;
      phone: string;
      description: string;
      domain: string;
      emailOption: string;
      budget: string;
      delivery: DeliveryView | null;
    };
export type RequestListResponse = { requests: RequestView[] };

export const JoinBody = z.object({ code: SessionCode });
/** A code chosen by the creator must have the generated shape, so it stays easy to read aloud. */
export const CreateSessionBody = z
  .object({ code: SessionCode.refine(isReadableSessionCode, { error: SESSION_MESSAGES.unreadableCode }).optional() })
  .default({});
export const VerifyBody = z.object({
  password: z
    .string({ error: "Le mot de passe est obligatoire." })
    .min(1, { error: "Le mot de passe est obligatoire." })
    .max(128, { error: "Ce mot de passe est trop long." }),
});

/** Server → browser events. */
export type ServerToClientEvents = {
  /**
   * A session the receiver may see changed (created, joined, disconnected):
   * sent to its customer and to its joined technician only.
   */
  "session:updated": (session: SessionView) => void;
  /**
   * Some session changed (any customer's, any technician's): sent to every
   * technician, without data, so dashboards refetch their active session and
   * history through the API (which only shows their own).
   */
  "sessions:changed": () => void;
  /** A signaling message from the other participant of `code`. */
  signal: (message: { code: string; data: unknown }) => void;
  /** The account's sign-in session ended (signed out elsewhere, account deleted): leave the area. */
  "auth:ended": () => void;
};

export type SignalAck = { ok: true } | { ok: false; message: string };

/** Browser → server events. */
export type ClientToServerEvents = {
  /** Relays `data` (offer, answer, ICE candidate…) to the other participant of `code`, storing it. */
  signal: (message: { code: string; data: unknown }, ack: (result: SignalAck) => void) => void;
};

export const SignalMessage = z.object({
  code: SessionCode,
  // A peer-connection message is an object; 64 KB is far above any SDP.
  data: z.record(z.string(), z.unknown()).refine((value) => JSON.stringify(value).length <= 65_536, {
    error: "Message de signalisation trop volumineux.",
  }),
});

const two = (value: number) => String(value).padStart(2, "0");

/** Spec §9 timer: "hh:mm:ss" from whole seconds (hours not capped at 24). */
export function formatTimer(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return `${two(Math.floor(seconds / 3600))}:${two(Math.floor((seconds % 3600) / 60))}:${two(seconds % 60)}`;
}

/** Spec §9 history: "Xm Ys" (minutes not capped at 60). */
export function formatHistoryDuration(totalSeconds: number | null): string {
  if (totalSeconds === null) return "—";
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
}

/** Spec §9 report: "Xh Ym Zs". */
export function formatReportDuration(totalSeconds: number | null): string {
  if (totalSeconds === null) return "—";
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return `${Math.floor(seconds / 3600)}h ${Math.floor((seconds % 3600) / 60)}m ${seconds % 60}s`;
}
