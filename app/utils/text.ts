/**
 * "Text a human typed" (issue 13 §7), one rule for every free-text field the
 * server accepts: contact and quote fields, assistant messages, session chat,
 * account names.
 *
 * Refused: NUL and the other C0 control characters except tab, line feed and
 * carriage return, lone UTF-16 surrogates (half of a character), and U+FFFD
 * (the replacement character). No keyboard produces them; PostgreSQL refuses
 * NUL in `text` (the insert failed, answered 503/500); a lone surrogate
 * cannot be written as UTF-8 (it would silently become U+FFFD in the database
 * or a mail); and U+FFFD is what a decoder writes where the bytes sent were
 * not UTF-8 (a form or JSON body with invalid bytes), i.e. corrupted input.
 *
 * Pure (no server or browser API): shared by the browser and the server.
 */
import { z } from "zod";

/** Shown under the field, or as the answer's message. */
export const UNTYPABLE_TEXT_MESSAGE =
  "Ce texte contient des caractères invisibles ou invalides : retapez-le sans copier-coller.";

// C0 controls minus \t (09), \n (0A), \r (0D); and U+FFFD. Matching control characters is the point here.
// eslint-disable-next-line no-control-regex
const UNTYPABLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFD]/;

/** Whether `value` could have been typed: no C0 control other than tab/newline/CR, no lone surrogate, no U+FFFD. */
export function isTypableText(value: string): boolean {
  return value.isWellFormed() && !UNTYPABLE.test(value);
}

/**
 * A zod string schema that refuses untypable text with
 * `UNTYPABLE_TEXT_MESSAGE`, before any check chained after it (`trim()`,
 * `min`, `max`…): a control character is refused, never silently trimmed.
 * `params` are `z.string`'s (e.g. the "not a string" message).
 */
export function typedString(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).refine(isTypableText, { error: UNTYPABLE_TEXT_MESSAGE, abort: true });
}

/** Shown when a one-line name holds a line break or an invisible formatting character (issue 37 §6, §7). */
export const NAME_CONTROL_MESSAGE =
  "Ce nom contient un retour à la ligne ou un caractère invisible (contrôle, sens d'écriture) : retapez-le.";

// C1 controls (U+0080–U+009F, among them U+0085 « next line »), line and paragraph separators, zero-width and
// direction marks, embeddings, overrides and isolates (U+200B–U+200F, U+202A–U+202E, U+2060–U+2069), the BOM.
// In a name shown beside other text they reorder or hide what follows (« Marie\u202E… »).
const NAME_CONTROLS = /[\r\n\t\u0080-\u009F\u2028\u2029\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/;

/** Whether `value` can be shown as a one-line name: typable, and none of the characters above. */
export function isNameText(value: string): boolean {
  return isTypableText(value) && !NAME_CONTROLS.test(value);
}

/**
 * A zod schema for a one-line name (a model's, a computer's, a person's) (issue 37 §6, §7): `typedString`'s rule,
 * then no line break, C1 control or invisible formatting character (`NAME_CONTROL_MESSAGE`), checked before any
 * `trim()` chained after it.
 */
export function nameString(params?: Parameters<typeof z.string>[0]) {
  return typedString(params).refine((value) => !NAME_CONTROLS.test(value), {
    error: NAME_CONTROL_MESSAGE,
    abort: true,
  });
}

/**
 * A one-line text written by a program (the desktop app's reasons, issue 37 §6): its line breaks and tabs become
 * spaces (an OS error message may hold some), then `nameString`'s rules apply: C1 controls and invisible direction
 * or width characters are refused. `max`: its length once cleaned.
 */
export function programWords(max: number) {
  return z
    .string()
    .transform((value) => value.replace(/[\r\n\t\u2028\u2029]+/gu, " ").trim())
    .pipe(nameString().min(1).max(max));
}
