/**
 * Issue 30 (decision 029): what JavaScript adds to a server-rendered form of an islands page
 * (`data-enhance="form"`), in plain DOM code. The form itself posts natively and the server renders
 * the answer, the same page with or without JavaScript; this only adds:
 * - the one-time key (`FORM_KEY_FIELD`) of a form rendered once for every visitor, when empty;
 * - the sending state (spec §4): the submit button reads its `data-sending-label` (« Envoi en cours... »)
 *   and a second submission is ignored until the page changes; restored when the page comes back from
 *   the back-forward cache;
 * - with `data-dismiss-results` on the form (the contact form, spec §4): typing after a result empties the
 *   result's live regions (`data-form-result`).
 * The focus after a post (first invalid field, or the message) is `main.ts`'s `focusOnLoad`.
 */
import { FORM_KEY_FIELD, newFormKey } from "#app/requests/form-key.ts";

/** Attribute of a submit button: its text while the form is being sent. */
export const SENDING_LABEL_ATTRIBUTE = "data-sending-label";

/** The button's own text node (after its icon), the one the sending label replaces. */
function labelNode(button: HTMLElement): Text | undefined {
  const texts = [...button.childNodes].filter((node): node is Text => node.nodeType === Node.TEXT_NODE);
  return texts.findLast((node) => node.data.trim() !== "");
}

/** Enhances `form` (see the module comment). */
export function enhance(element: HTMLElement): void {
  if (!(element instanceof HTMLFormElement)) return;
  const form = element;
  for (const key of form.querySelectorAll<HTMLInputElement>(`input[type="hidden"][name="${FORM_KEY_FIELD}"]`)) {
    if (!key.value) key.value = newFormKey();
  }

  let sending = false;
  const restored: (() => void)[] = [];
  form.addEventListener("submit", (event) => {
    if (event.defaultPrevented) return;
    if (sending) {
      event.preventDefault();
      return;
    }
    sending = true;
    form.setAttribute("aria-busy", "true");
    const button =
      (event.submitter as HTMLButtonElement | null) ?? form.querySelector<HTMLButtonElement>('[type="submit"]');
    const label = button?.getAttribute(SENDING_LABEL_ATTRIBUTE);
    const text = button ? labelNode(button) : undefined;
    if (text && label) {
      const before = text.data;
      text.data = label;
      restored.push(() => (text.data = before));
    }
    // After this event: the browser reads the form (and the button's name and value) first.
    setTimeout(() => {
      if (!button || !sending) return;
      button.disabled = true;
      restored.push(() => (button.disabled = false));
    }, 0);
  });
  // Back to a page kept in the back-forward cache: the form is usable again.
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    sending = false;
    form.removeAttribute("aria-busy");
    for (const restore of restored.splice(0)) restore();
  });

  if (form.hasAttribute("data-dismiss-results")) {
    form.addEventListener("input", () => {
      for (const region of form.querySelectorAll("[data-form-result]")) region.replaceChildren();
    });
  }
}
