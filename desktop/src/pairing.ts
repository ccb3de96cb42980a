/**
 * Pairing (issue 15, "How it reaches the computer"; protocol step 2 in
 * `device-protocol.ts`): `POST {server}/api/device/pair` with the pairing
 * code and what the app knows of the computer, answered by a device token.
 * Issue 26: `POST {server}/api/device/sessions`, a new session without an
 * account, answered the same way with the session code to read out.
 * Issue 36 §4: `POST {server}/api/device/resume`, the app relaunched as
 * administrator rejoining its session with a single-use ticket.
 * Issue 38 §4: the computer's facts (`facts/`) added to the session's or the pairing's body, read only when the
 * customer consented (`FactsSource`).
 * TLS is the runtime's, with its normal certificate checks (a test CA goes
 * through NODE_EXTRA_CA_CERTS, which Node and Bun both honour).
 */
import os from "node:os";
import {
  DEVICE_MESSAGES,
  type DevicePairBody,
  type DevicePairResponse,
  type DevicePlatform,
  type DeviceResumeBody,
  type DeviceSessionBody,
  type DeviceStatus,
} from "#app/remote-support/device-protocol.ts";
import { APP_VERSION } from "./version.ts";
import { withFacts, type FactsSource } from "./facts/consent.ts";

/** A refusal or failure of pairing, with a French message for the terminal. `retry`: a new code may work. */
export class PairingError extends Error {
  readonly retry: boolean;
  constructor(message: string, retry: boolean) {
    super(message);
    this.name = "PairingError";
    this.retry = retry;
  }
}

/** The protocol's name for this system, or null on a system the app does not support. */
export function devicePlatform(platform: NodeJS.Platform = process.platform): DevicePlatform | null {
  if (platform === "linux") return "linux";
  if (platform === "win32") return "windows";
  if (platform === "darwin") return "macos";
  return null;
}

/** The pairing request body for `code` and the injector's `status`. */
export function pairBody(code: string, status: DeviceStatus, platform: DevicePlatform): DevicePairBody {
  return {
    pairingCode: code,
    // The page shows it ("Logiciel connecté — PC-SALON"); the protocol caps it at 100 characters.
    computerName: (os.hostname().trim() || "Ordinateur").slice(0, 100),
    platform,
    arch: process.arch.slice(0, 20),
    appVersion: APP_VERSION,
    injection: status.injection,
    screens: status.screens,
    ...(status.capture ? { capture: status.capture } : {}),
    ...(status.elevated === undefined ? {} : { elevated: status.elevated }),
  };
}

const PAIR_TIMEOUT_MS = 15_000;

/**
 * Sends the pairing request. Resolves with the server's answer; rejects with
 * a `PairingError` (French) when the server refuses the code, cannot be
 * reached, or its certificate is not valid.
 */
export async function pairDevice(
  server: string,
  body: DevicePairBody,
  fetchImpl: typeof fetch = fetch,
  facts?: FactsSource,
): Promise<DevicePairResponse> {
  const sent = withFacts(body, await facts?.read());
  const answer = await postForToken(server, "/api/device/pair", sent, fetchImpl, DEVICE_MESSAGES.tooManyPairings);
  return { deviceToken: answer.deviceToken, customerName: answer.customerName, sessionCode: answer.sessionCode };
}

/** The body of `POST /api/device/sessions` (issue 26): the customer's name, if given, and the injector's `status`. */
export function sessionBody(
  customerName: string | null,
  status: DeviceStatus,
  platform: DevicePlatform,
): DeviceSessionBody {
  const { pairingCode: _unused, ...fields } = pairBody("", status, platform);
  return { ...fields, ...(customerName ? { customerName } : {}) };
}

/**
 * Issue 26: asks the server for a new session without an account (the app
 * run with no argument). Resolves with its code and the app's token; rejects
 * with a `PairingError` (French) when refused (too many sessions from this
 * address, `retry` false), unreachable, or its certificate is not valid. Issue 38 §4: `facts` are read (when
 * consented) and sent with it.
 */
export async function createSession(
  server: string,
  body: DeviceSessionBody,
  fetchImpl: typeof fetch = fetch,
  facts?: FactsSource,
): Promise<DevicePairResponse> {
  const answer = await postForToken(
    server,
    "/api/device/sessions",
    withFacts(body, await facts?.read()),
    fetchImpl,
    "Trop de sessions ouvertes depuis cette connexion. Réessayez plus tard ou appelez la boutique.",
  );
  if (!answer.sessionCode) throw new PairingError(UNEXPECTED, false);
  return answer;
}

/**
 * Issue 36 §4: the app relaunched as administrator redeems `ticket` for session `sessionCode` with what it knows
 * of the computer now. Resolves with the new token; rejects with a `PairingError` (French) when the server refuses
 * the ticket (used, expired, another session's: `retry` true, but a ticket cannot be asked again from here),
 * cannot be reached, or its certificate is not valid.
 */
export async function resumeDevice(
  server: string,
  ticket: { ticket: string; sessionCode: string },
  status: DeviceStatus,
  platform: DevicePlatform,
  fetchImpl: typeof fetch = fetch,
): Promise<DevicePairResponse> {
  const { pairingCode: _unused, ...fields } = pairBody("", status, platform);
  const body: DeviceResumeBody = { ...fields, ...ticket };
  return postForToken(server, "/api/device/resume", body, fetchImpl, DEVICE_MESSAGES.tooManyPairings);
}

const UNEXPECTED = "Réponse inattendue du serveur : ce logiciel n'est peut-être plus à jour.";

/** POSTs `body` to `server` + `path` and reads a device token answer; French `PairingError`s otherwise. */
async function postForToken(
  server: string,
  path: string,
  body: unknown,
  fetchImpl: typeof fetch,
  tooManyMessage: string,
): Promise<DevicePairResponse> {
  let response: Response;
  try {
    response = await fetchImpl(`${server}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(PAIR_TIMEOUT_MS),
      redirect: "error",
    });
  } catch (error) {
    throw new PairingError(networkErrorMessage(server, error), false);
  }
  const payload: unknown = await response.json().catch(() => null);
  const message =
    payload && typeof payload === "object" && "message" in payload && typeof payload.message === "string"
      ? payload.message
      : null;
  if (response.status === 429) throw new PairingError(message ?? tooManyMessage, false);
  if (response.status >= 400 && response.status < 500) {
    throw new PairingError(message ?? DEVICE_MESSAGES.pairingInvalid, true);
  }
  if (!response.ok) {
    throw new PairingError(
      `Le serveur a répondu par une erreur (${response.status}). Réessayez dans un instant.`,
      false,
    );
  }
  if (
    !payload ||
    typeof payload !== "object" ||
    !("deviceToken" in payload) ||
    typeof payload.deviceToken !== "string" ||
    !payload.deviceToken
  ) {
    throw new PairingError(UNEXPECTED, false);
  }
  const answer = payload as Partial<DevicePairResponse> & { deviceToken: string };
  return {
    deviceToken: answer.deviceToken,
    customerName: typeof answer.customerName === "string" ? answer.customerName : "",
    sessionCode: typeof answer.sessionCode === "string" ? answer.sessionCode : "",
  };
}

/** French explanation of a failed fetch: certificate problems are named as such. */
export function networkErrorMessage(server: string, error: unknown): string {
  const chain: string[] = [];
  for (let current: unknown = error; current && chain.length < 5; current = (current as { cause?: unknown }).cause) {
    const { code, message, name } = current as { code?: unknown; message?: unknown; name?: unknown };
    chain.push([code, name, message].filter((part) => typeof part === "string").join(" "));
  }
  const text = chain.join(" | ");
  if (/TimeoutError|timed out|ETIMEDOUT/i.test(text)) {
    return `Le serveur ${server} ne répond pas. Vérifiez votre connexion à Internet et réessayez.`;
  }
  if (/CERT|certificate|SSL|TLS|self[- ]signed|issuer|VERIFY/i.test(text)) {
    return (
      `Le certificat de sécurité du serveur ${server} n'est pas valide : connexion refusée pour votre sécurité. ` +
      "Vérifiez la date et l'heure de l'ordinateur, puis réessayez."
    );
  }
  return `Impossible de joindre le serveur ${server}. Vérifiez votre connexion à Internet et réessayez.`;
}
