/**
 * Issue 28 "a retried booking must not book twice", for the contact and
 * quote forms: the hidden field carrying the form's one-time key
 * (`FORM_KEY_FIELD`), which `server/requests.ts` uses to answer a
 * submission sent again with the first result. Those pages are pre-rendered
 * (one HTML for every visitor), so the key cannot be drawn by the server:
 * the field is empty in the HTML and the browser fills it once hydrated
 * (without JavaScript the form posts no key, and works as before). The
 * booking form, rendered per request, draws its key on the server instead.
 */
import { useEffect, useState } from "react";
import { FORM_KEY_FIELD, newFormKey } from "./form-key.ts";

export { newFormKey };

/**
 * The hidden key field, to put inside a request form. The key stays for the page's life: the server
 * tells a retry from the next message by the fields sent with it.
 */
export function FormKeyField() {
  // Empty in the pre-rendered HTML and at hydration (they must match), drawn right after; held in state so that
  // a form reset or a re-render never empties it.
  const [key, setKey] = useState("");
  useEffect(() => setKey(newFormKey()), []);
  return <input type="hidden" name={FORM_KEY_FIELD} value={key} />;
}
