/**
 * Issue 27, "the technician's code field": the text of a signed-in field
 * kept per page, so that a field whose screen React mounts again (seen in a
 * CI rehearsal: the dashboard re-mounted after sign-in, the technician's
 * typed code gone) gets back what its component's state last held. Written
 * by `use-typed-before-hydration.ts` from the state, read once per mount.
 * Only marked fields (`data-keep-typed="<key>"`): never a password.
 * Framework-free; the text stays in this page's memory only.
 *
 * Not done: text typed into the server's HTML before a lazy screen is
 * rendered afresh instead of hydrated. Recording `input` events from the
 * first paint did keep it, but made the technician's join button stay
 * disabled in another e2e flow (issue 27 note). One cause of such fresh
 * renders was found in issue 37: dates in the server's zone (UTC) and the
 * browser's (Paris) differed, and React re-rendered the whole dashboard;
 * every date is now the shop's wall clock (`client/format.ts`).
 */

/** The attribute naming a field whose typed text is kept, its value the field's key (unique on a page). */
export const KEEP_TYPED_ATTRIBUTE = "data-keep-typed";

type Typed = { value: string; element: Element; focused: boolean };
const typed = new Map<string, Typed>();

/**
 * What another field of key `key` (now gone) last held, and whether it had
 * the focus; `null` when there is nothing to take
 * back: nothing kept, or kept from `element` itself (its own value is then
 * the truth). Forgets it either way: it is given back once.
 */
export function takeTyped(key: string, element: Element | null): { value: string; focused: boolean } | null {
  const kept = typed.get(key);
  typed.delete(key);
  if (!kept || kept.element === element || kept.element.isConnected || kept.value === "") return null;
  return { value: kept.value, focused: kept.focused };
}

/**
 * Keeps `value` as the text of `element`'s field `key`, as its component's state says it is (a submit emptied
 * it, say): a component mounted again later gets that back, never older text.
 */
export function keepValue(key: string, element: Element, value: string): void {
  typed.set(key, { value, element, focused: element.ownerDocument.activeElement === element });
}
