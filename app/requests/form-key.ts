/**
 * Issue 28 "a retried booking must not book twice": the hidden field by which a form carries its
 * one-time key, so that a POST sent again (a browser retrying on a reset connection, a double click)
 * answers the first result instead of storing twice. The booking form's key is drawn by the server
 * when the page is rendered; the contact and quote forms' (pages kept in memory, one HTML for every
 * visitor) by the browser: `FormKeyField` once hydrated, the `form` enhancer on an islands page (issue 30).
 * Apart from `schemas.ts` so that the enhancer carries no zod.
 */
export const FORM_KEY_FIELD = "cle";

/** 128 random bits as 32 hex digits (`getRandomValues` also works outside secure contexts, unlike `randomUUID`). */
export function newFormKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
