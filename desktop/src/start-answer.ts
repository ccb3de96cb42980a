/**
 * The first question's answer (issue 26), read by `app.ts`: a pairing code for a site session, a name for a new
 * session, or a mistake. Moved out of `app.ts` (issue 38 §2) so that module stays under 400 lines.
 * Issue 40: the question asks the first name; the pairing code is the secondary way in (the window's and zenity's
 * « J'ai un code d'appairage » show a field of its own, `field` "code"), yet a code typed where the first name is
 * asked still pairs.
 */
import { PairingCode } from "#app/remote-support/device-protocol.ts";

/** What the customer typed, and in which field: the first name's (the terminal's only one) or the pairing code's. */
export type StartTyped = { text: string; field: "name" | "code" };

/** What the first prompt's answer means: a pairing code (site session), a name (new session), or a mistake. */
export type StartAnswer =
  { kind: "code"; code: string } | { kind: "name"; name: string | null } | { kind: "invalid"; message: string };

/** Said when what was typed as a pairing code is not one (French). */
export const CODE_INVALID_MESSAGE = "Ce code d'appairage n'est pas valide : vérifiez-le sur la page de votre session.";
/** Said when the pairing code's field was left empty (French). */
export const CODE_MISSING_MESSAGE = "Tapez le code d'appairage affiché sur la page de votre session.";

/**
 * Reads the first question's answer. In the pairing code's field: the code, else a mistake. In the first name's: a
 * pairing code as the page shows it ("ACDE-3479": its 8 symbols with a digit, which every code the server issues
 * holds and no first name does, so « Jean-Marc » stays a name), else the customer's name (empty: none).
 */
export function readStartAnswer(typed: string, field: StartTyped["field"] = "name"): StartAnswer {
  const text = typed.trim();
  const code = PairingCode.safeParse(text);
  if (field === "code") {
    if (code.success) return { kind: "code", code: code.data };
    return { kind: "invalid", message: text ? CODE_INVALID_MESSAGE : CODE_MISSING_MESSAGE };
  }
  if (!text) return { kind: "name", name: null };
  if (code.success && /\d/.test(text)) return { kind: "code", code: code.data };
  if (/\d/.test(text) && text.replace(/[\s-]/g, "").length === 8)
    return { kind: "invalid", message: CODE_INVALID_MESSAGE };
  if (text.length > 80) return { kind: "invalid", message: "Le nom ne doit pas dépasser 80 caractères." };
  return { kind: "name", name: text };
}
