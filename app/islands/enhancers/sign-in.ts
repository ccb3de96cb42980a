/**
 * Issue 30 (decision 029): the signed-out /soft-assist on its islands page (`data-enhance="sign-in"` on
 * the sign-in panel), in plain DOM code. Its forms post natively (the route's action signs in and
 * redirects to the signed-in page, which hydrates in full); this keeps the tabs of one browser together
 * (spec §4 "Auth events"), as the hydrated page did:
 * - another tab signing in or out reloads this page, which then shows that tab's account;
 * - a sign-in or sign-up sent from here is noted for the session (`PENDING_SIGN_IN_KEY`), so the
 *   signed-in page it leads to tells the other tabs (`announcePendingSignIn`).
 */
import { onAuthChangeElsewhere } from "#app/remote-support/client/auth-broadcast.ts";
import { PENDING_SIGN_IN_KEY } from "#app/remote-support/client/pending-sign-in.ts";

/** Enhances the sign-in panel `element` (see the module comment). */
export function enhance(element: HTMLElement): void {
  onAuthChangeElsewhere(() => location.reload());
  element.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.method.toLowerCase() !== "post") return;
    const intent = new FormData(form).get("intent");
    if (intent !== "sign-in" && intent !== "sign-up") return;
    try {
      sessionStorage.setItem(PENDING_SIGN_IN_KEY, "1");
    } catch {
      // Storage disabled: the other tabs learn of the sign-in at their next load.
    }
  });
}
