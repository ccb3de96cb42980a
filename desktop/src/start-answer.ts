/**
 * The first prompt's answer (issue 26), read by `app.ts`: a pairing code for a site session, a name for a new
 * session, or a mistake. Moved out of `app.ts` (issue 38 §2) so that module stays under 400 lines.
 */
import { PairingCode } from "#app/remote-support/device-protocol.ts";

/** What the first prompt's answer means: a pairing code (site session), a name (new session), or a mistake. */
export type StartAnswer =
  { kind: "code"; code: string } | { kind: "name"; name: string | null } | { kind: "invalid"; message: string };

/**
 * Reads the first prompt's answer (issue 26): a pairing code as the page shows it ("ACDE-3479": its 8 symbols,
 * with a dash or a digit, so that a first name is never taken for one), else the customer's name (empty: none).
 */
export function readStartAnswer(typed: string): StartAnswer {
  const text = typed.trim();
  if (!text) return { kind: "name", name: null };
  const code = PairingCode.safeParse(text);
  if (code.success && /[-\d]/.test(text)) return { kind: "code", code: code.data };
  if (/\d/.test(text) && text.replace(/[\s-]/g, "").length === 8)
    return {
      kind: "invalid",
      message: "Ce code d'appairage n'est pas valide : vérifiez-le sur la page de votre session.",
    };
  if (text.length > 80) return { kind: "invalid", message: "Le nom ne doit pas dépasser 80 caractères." };
  return { kind: "name", name: text };
}
