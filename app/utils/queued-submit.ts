/**
 * Issue 39 §2: a form of the signed-in area sent before its page's scripts have run (Entrée pressed in
 * « Tapez votre message... » as the page appears) is queued, shown as « envoi… », and sent once, when
 * React is ready; before, the browser either did nothing or reloaded the page, and the question was lost.
 *
 * `QUEUED_SUBMIT_SCRIPT` is inlined in the page's HTML (`QueuedSubmitScript`), so it runs as soon as it
 * is parsed, whatever the scripts' delay; the CSP allows it by its SHA-256 (`server/app.ts`). It catches
 * Entrée in a text field and the `submit` event of a form marked `data-queue-submit="<key>"` that React
 * has not marked ready yet: the default action is cancelled, the form's `[data-queued-status]` shown, and
 * `<key>` written on `<html data-submit-queued>`, where `use-queued-submit.ts` finds it once hydrated
 * (on the same form, or on the one React mounts in its place). Framework-free.
 */

/** On a form: its submission made before hydration is queued under this key (unique on the page). */
export const QUEUE_SUBMIT_ATTRIBUTE = "data-queue-submit";
/** Set by React (a layout effect) on a form whose own handler now runs: nothing is queued any more. */
export const SUBMIT_READY_ATTRIBUTE = "data-submit-ready";
/** On `<html>`: the key of the form whose submission waits for React. */
export const SUBMIT_QUEUED_ATTRIBUTE = "data-submit-queued";
/** On the element inside the form that says « envoi… » while the submission waits. */
export const QUEUED_STATUS_ATTRIBUTE = "data-queued-status";

/** The inline script's source: kept byte-identical, since the CSP names its hash. */
export const QUEUED_SUBMIT_SCRIPT = `(() => {
  const queue = (form, event) => {
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("${QUEUE_SUBMIT_ATTRIBUTE}")) return;
    if (form.hasAttribute("${SUBMIT_READY_ATTRIBUTE}")) return;
    event.preventDefault();
    document.documentElement.setAttribute("${SUBMIT_QUEUED_ATTRIBUTE}", form.getAttribute("${QUEUE_SUBMIT_ATTRIBUTE}"));
    const status = form.querySelector("[${QUEUED_STATUS_ATTRIBUTE}]");
    if (status) status.hidden = false;
  };
  document.addEventListener("keydown", (event) => {
    const field = event.target;
    if (event.key !== "Enter" || event.isComposing || !(field instanceof HTMLInputElement)) return;
    queue(field.form, event);
  }, true);
  document.addEventListener("submit", (event) => queue(event.target, event), true);
})();`;
