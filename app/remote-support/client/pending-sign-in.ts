/**
 * Issue 30 (decision 029): a sign-in sent from the signed-out /soft-assist, an islands page whose forms
 * post natively, lands on a freshly loaded signed-in page; that page, not the form, tells the other tabs
 * (spec §4 "Auth events"). The `sign-in` enhancer notes the attempt in `sessionStorage` (this tab only);
 * the signed-in page announces it once and forgets it. A failed attempt leaves a note that the next
 * signed-in load of this tab announces: the other tabs reload their view once, which is harmless.
 */
import { announceAuthChange } from "./auth-broadcast.ts";

/** `sessionStorage` key of a sign-in or sign-up sent from this tab and not yet announced. */
export const PENDING_SIGN_IN_KEY = "atelier-soft-assist-sign-in-sent";

/** Announces « signed-in » to the other tabs if this tab sent a sign-in; true when it did. */
export function announcePendingSignIn(): boolean {
  try {
    if (sessionStorage.getItem(PENDING_SIGN_IN_KEY) === null) return false;
    sessionStorage.removeItem(PENDING_SIGN_IN_KEY);
  } catch {
    return false;
  }
  announceAuthChange("signed-in");
  return true;
}
