/**
 * Issue 38 §3, « Reboot and reconnect »: the technician restarts the customer's computer and the desktop app comes
 * back by itself into the same session. One module shared by the browser, the server and the app (`desktop/`).
 * Pure: zod only.
 *
 * 1. The technician clicks « Redémarrer l'ordinateur » and confirms: browser `reboot:request` (`RebootRequest`,
 *    the session's joined technician only, an app paired and connected) → app `device:reboot`.
 * 2. The customer answers in the app (a key, a button, a dialog). Declined: app `device:reboot-report`
 *    `{ outcome: "declined" }`.
 * 3. Accepted: the app asks `device:reboot-ticket` (acknowledged `ResumeTicketAck`): a resume ticket as for the
 *    relaunch as administrator (`elevation-protocol.ts`: 256 random bits, stored hashed, single use, bound to the
 *    session and the pairing, never logged) but valid `REBOOT_TICKET_TTL_S`. It writes the ticket to a private
 *    file, registers itself to start once at the next sign-in with `--reprendre <file>` (Linux XDG autostart,
 *    Windows `RunOnce`, macOS a LaunchAgent), reports `restarting` and asks the system to restart. If anything
 *    fails, the entry and the file are removed and it reports `failed`.
 * 4. While the reboot ticket is pending the technician's view says « Redémarrage en cours… »
 *    (`DeviceView.rebootingUntil`), and the session is not abandoned for want of its app (`presence.ts`).
 * 5. At the next start, the app removes its entry at once, redeems the ticket (`POST /api/device/resume`), shows
 *    who is there and asks « voir l'écran » again (consents start withdrawn). The ticket expired or used: the entry
 *    is gone all the same and the app says why.
 * The server tells the technician what became of the request: `reboot:news` (`RebootNews`).
 */
import { z } from "zod";
import type { ResumeTicketAck } from "./elevation-protocol.ts";

/** How long a reboot's resume ticket may be redeemed, s: a restart and a sign-in, with a margin. */
export const REBOOT_TICKET_TTL_S = 15 * 60;

/** What the technician's view says (French, shown as is). */
export const REBOOT_MESSAGES = {
  button: "Redémarrer l'ordinateur",
  confirmTitle: "Redémarrer l'ordinateur du client ?",
  confirm:
    "Le client doit d'abord l'accepter dans le logiciel. Ses programmes ouverts seront fermés : demandez-lui " +
    "d'enregistrer son travail. Le logiciel revient seul dans la session après le redémarrage, une fois le client " +
    "reconnecté à sa session Windows, macOS ou Linux (au plus tard dans 15 minutes).",
  confirmButton: "Redémarrer",
  cancel: "Annuler",
  asked: "En attente de l'accord du client…",
  declined: "Le client a refusé le redémarrage.",
  failed: "Le redémarrage n'a pas pu être lancé sur l'ordinateur du client : la session continue.",
  restarting: "Redémarrage en cours…",
  back: "L'ordinateur a redémarré : le logiciel est de retour dans la session.",
  notPossible: "L'ordinateur ne peut pas être redémarré maintenant.",
} as const;

/** What became of a request, as the app reports it. */
export const REBOOT_OUTCOMES = ["declined", "failed", "restarting"] as const;
export type RebootOutcome = (typeof REBOOT_OUTCOMES)[number];

/** App → server `device:reboot-report`. */
export const RebootReport = z.object({ outcome: z.enum(REBOOT_OUTCOMES) });
export type RebootReport = z.infer<typeof RebootReport>;

/** The technician's sentence for an outcome. */
export function rebootMessage(outcome: RebootOutcome): string {
  return REBOOT_MESSAGES[outcome];
}

/** Browser → server `reboot:request`: for the app of session `code`. */
export const RebootRequest = z.object({ code: z.string().max(32) });
export type RebootRequest = z.infer<typeof RebootRequest>;
/** Its answer: sent to the app, or why not (French). */
export type RebootAck = { ok: true } | { ok: false; message: string };

/** Server → browser `reboot:news`, to the session's joined technician. */
export type RebootNews = { code: string; outcome: RebootOutcome; message: string };

/**
 * Whether the technician's view should say « Redémarrage en cours… » now: `rebootingUntil` (ISO 8601, from
 * `DeviceView`) is in the future of `now` (ms since the epoch).
 */
export function rebootPending(rebootingUntil: string | null | undefined, now = Date.now()): boolean {
  if (!rebootingUntil) return false;
  const until = Date.parse(rebootingUntil);
  return Number.isFinite(until) && until > now;
}

/** Browser → server events (merged into `ClientToServerEvents`). */
export type RebootClientToServerEvents = {
  "reboot:request": (request: RebootRequest, ack: (result: RebootAck) => void) => void;
};

/** Server → browser events (merged into `ServerToClientEvents`). */
export type RebootServerToClientEvents = {
  "reboot:news": (news: RebootNews) => void;
};

/** Server → app events (merged into `ServerToDeviceEvents`). */
export type RebootServerToDeviceEvents = {
  /** The technician asks to restart the computer; the customer answers in the app. */
  "device:reboot": () => void;
};

/** App → server events (merged into `DeviceToServerEvents`). */
export type RebootDeviceToServerEvents = {
  /** A single-use resume ticket valid `REBOOT_TICKET_TTL_S`, for this session and pairing (after the consent). */
  "device:reboot-ticket": (ack: (result: ResumeTicketAck) => void) => void;
  /** What became of the technician's request. */
  "device:reboot-report": (report: RebootReport) => void;
};
