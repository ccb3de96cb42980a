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
