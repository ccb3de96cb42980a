/**
 * Issue 36 §4, « Past UAC »: the desktop app relaunched as administrator, in one module shared by the browser,
 * the server and the app (`desktop/`). Pure: zod only.
 *
 * - The app says whether it runs elevated (`DeviceStatus.elevated`, Windows only; absent elsewhere and from apps
 *   older than issue 36) and whether Windows shows its secure desktop now (`DeviceStatus.secureDesktop`: a UAC
 *   prompt, Ctrl+Alt+Suppr, the lock screen; the capture fails then). The technician's view says both
 *   (`ELEVATION_MESSAGES.notElevated`, `.secureDesktop`).
 * - The technician asks « Relancer en administrateur »: browser `device:elevate` (`ElevateRequest`, joined
 *   technician only, a Windows app not elevated and connected) → app `device:elevate`. The customer accepts in
 *   the app (key A, a button, a dialog) or declines.
 * - Accepted: the app asks the server for a resume ticket on its authenticated `/device` socket
 *   (`device:resume-ticket`, acknowledged with `ResumeTicketAck`): random (256 bits), stored hashed, single use,
 *   valid `RESUME_TICKET_TTL_S`, bound to that session and that pairing. The app writes it to a file in a private
 *   folder, starts itself again through `ShellExecuteExW` with the verb `runas` (one UAC prompt) and the file's
 *   path on the command line (`--reprendre`), never the ticket itself, never in the environment.
 * - The new process reads and deletes the file, then `POST /api/device/resume` (`DeviceResumeBody`) →
 *   201 `DevicePairResponse`: a new device token for the same session, consent and view not allowed (asked
 *   again). The old pairing is replaced: its app is told `device:replaced` and exits without leaving (a session
 *   it started goes on). 400 `ELEVATION_MESSAGES.ticketInvalid` for a ticket unknown, used, expired or for
 *   another session (the same sentence for each); 429 past the pairing failures' limit per IP address.
 * - The app reports what became of the request (`device:elevation`, `ElevationReport`): declined by the
 *   customer, UAC refused (`ERROR_CANCELLED`), failed, or started. The server tells the technician
 *   (`device:elevation` with the French sentence of `elevationMessage`).
 */
import { z } from "zod";

/** How long a resume ticket may be redeemed, s. */
export const RESUME_TICKET_TTL_S = 120;

/** What both sides say (French, shown as is). */
export const ELEVATION_MESSAGES = {
  notElevated: "Le logiciel fonctionne sans droits d'administrateur",
  elevated: "Le logiciel fonctionne avec les droits d'administrateur.",
  button: "Relancer en administrateur",
  asked: "Demande envoyée : le client doit l'accepter dans le logiciel, puis répondre à la fenêtre de Windows.",
  declined: "Le client n'a pas accepté de relancer le logiciel en administrateur.",
  cancelled: "Le client a refusé la fenêtre de Windows : le logiciel continue sans droits d'administrateur.",
  failed: "Le logiciel n'a pas pu être relancé en administrateur : il continue sans ces droits.",
  started: "Le logiciel se relance en administrateur : il revient dans quelques secondes.",
  notPossible: "Le logiciel ne peut pas être relancé en administrateur maintenant.",
  ticketInvalid:
    "Ce ticket de reprise n'est pas valide, a déjà servi ou a expiré : relancez le logiciel et saisissez un nouveau code.",
  secureDesktop: "Le client doit répondre à la fenêtre de Windows (contrôle de compte d'utilisateur)",
  paused: "Image en pause : fenêtre de sécurité de Windows",
} as const;

/** A resume ticket as the server issues it: 32 random bytes, base64url (43 characters). */
export const ResumeTicket = z.string().regex(/^[A-Za-z0-9_-]{43}$/, { error: ELEVATION_MESSAGES.ticketInvalid });

/** App → server `device:resume-ticket` answer: the ticket and when it expires (ISO 8601), or why not (French). */
export type ResumeTicketAck = { ok: true; ticket: string; expiresAt: string } | { ok: false; message: string };

/** What became of a request, as the app reports it. */
export const ELEVATION_OUTCOMES = ["declined", "cancelled", "failed", "started"] as const;
export type ElevationOutcome = (typeof ELEVATION_OUTCOMES)[number];
/** App → server `device:elevation`. */
export const ElevationReport = z.object({ outcome: z.enum(ELEVATION_OUTCOMES) });
export type ElevationReport = z.infer<typeof ElevationReport>;

/** The technician's sentence for an outcome. */
export function elevationMessage(outcome: ElevationOutcome): string {
  return ELEVATION_MESSAGES[outcome];
}

/** Browser → server `device:elevate`: for the app of session `code`. */
export const ElevateRequest = z.object({ code: z.string().max(32) });
export type ElevateRequest = z.infer<typeof ElevateRequest>;
/** Its answer: sent to the app, or why not (French). */
export type ElevateAck = { ok: true } | { ok: false; message: string };

/** Browser → server events of issue 36 §4 (joined technician only). */
export type ElevationClientToServerEvents = {
  "device:elevate": (request: ElevateRequest, ack: (result: ElevateAck) => void) => void;
};

/** Server → browser events of issue 36 §4: what became of the request, to the session's joined technician. */
export type ElevationServerToClientEvents = {
  "device:elevation": (news: { code: string; outcome: ElevationOutcome; message: string }) => void;
};
