/**
 * Browser calls to the remote-support API and to better-auth (issue 5; spec
 * §2 "/soft-assist", §7 "Backend data", §8), one typed function per endpoint
 * (issue 14), each at its path from `api-paths.ts`. Plain `fetch` on the same
 * origin: the sign-in cookie travels by itself and no token is ever held in
 * JavaScript. Every call resolves (never throws) with either the data or a
 * French message to show (the server's `{ message }`, else
 * `SESSION_MESSAGES.failed`; status 0 when no answer came), so screens only
 * branch on `ok`.
 */
import type { RequestListResponse, RequestResponse, TreatmentBody } from "#app/requests/views.ts";
import { requestTreatmentPath } from "#app/requests/treatment.ts";
import { DASHBOARD_COUNTS_PATH, type DashboardCounts } from "#app/remote-support/dashboard-counts.ts";
import type { SessionConversationResponse, SessionFromAssistantResponse } from "#app/assistant/session-conversation.ts";
import { authMessage, isFrenchAuthCode } from "#app/remote-support/account.ts";
import { API_PATHS } from "#app/remote-support/api-paths.ts";
import type { QueuePlaceResponse, QueueResponse } from "#app/remote-support/queue.ts";
import type { FactsResponse } from "#app/remote-support/facts-protocol.ts";
import type {
  DeviceResponse,
  DownloadsResponse,
  PairingCodeResponse,
  SurfaceBody,
} from "#app/remote-support/device-protocol.ts";
import {
  SESSION_MESSAGES,
  type ActiveSessionResponse,
  type ApiError,
  type IceServersResponse,
  type MeResponse,
  type ReportResponse,
  type SessionEventBody,
  type SessionEventResponse,
  type SessionEventsResponse,
  type SessionListResponse,
  type SessionResponse,
  type VerifyResponse,
} from "#app/remote-support/protocol.ts";

export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: number; message: string; /** better-auth's error code, when it sent one. */ code?: string };

async function call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers:
        body === undefined
          ? { Accept: "application/json" }
          : { Accept: "application/json", "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    // Offline or server down: status 0 tells callers no answer came.
    return { ok: false, status: 0, message: SESSION_MESSAGES.failed };
  }
  const payload: unknown = await response.json().catch(() => null);
  if (response.ok) return { ok: true, status: response.status, data: payload as T };
  const message =
    payload && typeof payload === "object" && "message" in payload && typeof (payload as ApiError).message === "string"
      ? (payload as ApiError).message
      : SESSION_MESSAGES.failed;
  const code =
    payload &&
    typeof payload === "object" &&
    "code" in payload &&
    typeof (payload as { code: unknown }).code === "string"
      ? (payload as { code: string }).code
      : undefined;
  return { ok: false, status: response.status, message, code };
}

const apiGet = <T>(path: string) => call<T>("GET", path);
const apiPost = <T>(path: string, body: unknown = {}) => call<T>("POST", path, body);

/** The signed-in account (401 "Utilisateur non connecté" when signed out). */
export const getMe = () => apiGet<MeResponse>(API_PATHS.me);
/** Starts a session, or gives back the caller's open one (201 new, 200 existing). */
export const createSession = () => apiPost<SessionResponse>(API_PATHS.sessions);
/** The caller's own sessions as customer, newest first. */
export const getMySessions = () => apiGet<SessionListResponse>(API_PATHS.mine);
/** Technician: joins the session of `code` as typed (the server normalises it). */
export const joinSession = (code: string) => apiPost<SessionResponse>(API_PATHS.join, { code });
/** Ends session `code` (its customer or joined technician); answers the ended session. */
export const disconnectSession = (code: string) => apiPost<SessionResponse>(API_PATHS.disconnect(code));
/** Technician: their connected session, if any. */
export const getActiveSession = () => apiGet<ActiveSessionResponse>(API_PATHS.active);
/** Technician: the sessions they joined, newest first. */
export const getHistory = () => apiGet<SessionListResponse>(API_PATHS.history);
/** Technician: the report of session `code`; 423 until `verifyPassword` opened reports. */
export const getReport = (code: string) => apiGet<ReportResponse>(API_PATHS.report(code));
/** Technician: checks their own account password, opening reports for a while. */
export const verifyPassword = (password: string) => apiPost<VerifyResponse>(API_PATHS.verify, { password });
/** A participant: the ICE servers for session `code`'s peer connection. */
export const getIceServers = (code: string) => apiGet<IceServersResponse>(API_PATHS.iceServers(code));
/** A participant: session `code`'s record, oldest first. */
export const getSessionEvents = (code: string) => apiGet<SessionEventsResponse>(API_PATHS.events(code));
/** A participant: adds what they did (or said) to session `code`'s record. */
export const postSessionEvent = (code: string, event: SessionEventBody) =>
  apiPost<SessionEventResponse>(API_PATHS.events(code), event);
/** Customer, issue 18 §4: starts a session (or gives back the open one) with their assistant conversation attached. */
export const createSessionFromAssistant = () => apiPost<SessionFromAssistantResponse>(API_PATHS.fromAssistant);
/** A participant, issue 18 §4: the assistant conversation attached to session `code` (null when none). */
export const getSessionConversation = (code: string) =>
  apiGet<SessionConversationResponse>(API_PATHS.conversation(code));
/** Technician, issue 27: the customers waiting for a technician, oldest first (`queue.ts`). */
export const getWaitingQueue = () => apiGet<QueueResponse>(API_PATHS.queue);
/** Technician, issue 27: « Prendre en charge » the waiting session `code` (409 when another technician was first). */
export const claimWaitingSession = (code: string) => apiPost<SessionResponse>(API_PATHS.claim(code));
/** Customer, issue 27: their place in the queue while session `code` waits (null otherwise). */
export const getQueuePlace = (code: string) => apiGet<QueuePlaceResponse>(API_PATHS.place(code));
/** Technician: the contact and quote requests ("Demandes"), newest first. */
export const getRequests = () => apiGet<RequestListResponse>(API_PATHS.requests);
/** Issue 40: marks request `id` « Traité » (`treated` true) or « À traiter » again; answers the request as it now is. */
export const setRequestTreated = (id: string, body: TreatmentBody) =>
  apiPost<RequestResponse>(requestTreatmentPath(id), body);
/** Issue 40: the dashboard tabs' counts. */
export const getDashboardCounts = () => apiGet<DashboardCounts>(DASHBOARD_COUNTS_PATH);

/** Customer: a single-use pairing code for the desktop app in session `code` (issue 15). */
export const requestPairingCode = (code: string) => apiPost<PairingCodeResponse>(API_PATHS.pairing(code));
/** Customer: allows or withdraws the control of their computer through the app. */
export const setConsent = (code: string, allowed: boolean) =>
  apiPost<DeviceResponse>(API_PATHS.consent(code), { allowed });
/** Customer: what their browser shares (a whole screen or not, its size), so input maps to the right monitor. */
export const reportSurface = (code: string, surface: SurfaceBody) =>
  apiPost<DeviceResponse>(API_PATHS.surface(code), surface);
/** A participant: the desktop app of session `code`, paired or not. */
export const getDevice = (code: string) => apiGet<DeviceResponse>(API_PATHS.device(code));
/** Issue 38 §4, the session's technician: what the app said of the computer (`facts: null` when nothing was sent). */
export const getComputerFacts = (code: string) => apiGet<FactsResponse>(API_PATHS.facts(code));
/** The builds of the desktop app offered for download (empty when none was built). */
export const getDownloads = () => apiGet<DownloadsResponse>(API_PATHS.downloads);

/**
 * POST to better-auth (`/api/auth/...`); errors mapped to French. Refusals
 * of our own server layers (limits with their wait, field rules, body
 * bounds: `FRENCH_AUTH_CODES`) are already French and shown as sent.
 */
export async function authPost(
  path: string,
  body: unknown,
  fallback: string = SESSION_MESSAGES.failed,
): Promise<ApiResult<unknown>> {
  const result = await call<unknown>("POST", `${API_PATHS.auth}${path}`, body);
  if (result.ok || result.status === 0 || isFrenchAuthCode(result.code)) return result;
  return {
    ok: false,
    status: result.status,
    code: result.code,
    message: authMessage(result.status, result.code, fallback),
  };
}
