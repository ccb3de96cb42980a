/**
 * Issue 27, "the technician's code field": what a person types into a
 * server-rendered field before React takes it over must survive, even when
 * React throws the server's HTML away.
 *
 * A signed-in screen is a lazy chunk inside a Suspense boundary (decision
 * 014). When anything renders that boundary again before its chunk has
 * arrived, React drops the server's HTML and renders the screen afresh in
 * the browser: a new, empty field, and the half-typed session code is gone
 * (seen in CI with the ids of the field going from the server's `_R_…_` to
 * the browser's `_r_…_`). So `recordTypedBeforeHydration`, run by
 * `entry.client.tsx` before hydrating, keeps the text of every field marked
 * `data-keep-typed="<key>"` (its value at that moment, then every `input`
 * event, then what its component's state says), and the field's component
 * takes it back when it mounts (`use-typed-before-hydration.ts`). The same
 * holds when a signed-in screen is mounted again once in use (seen in a CI
 * rehearsal: the technician's typed code gone with a re-mounted dashboard).
 * Only marked fields: never a password.
 * Framework-free; the text stays in this page's memory only.
 */

/** The attribute naming a field whose typed text is kept, its value the field's key (unique on a page). */
export const KEEP_TYPED_ATTRIBUTE = "data-keep-typed";

type Typed = { value: string; element: Element; focused: boolean };
const typed = new Map<string, Typed>();
let recording = false;

function isField(target: unknown): target is HTMLInputElement | HTMLTextAreaElement {
  const view = (target as Node | null)?.ownerDocument?.defaultView;
  return !!view && (target instanceof view.HTMLInputElement || target instanceof view.HTMLTextAreaElement);
}

function keep(element: HTMLInputElement | HTMLTextAreaElement): void {
  const key = element.getAttribute(KEEP_TYPED_ATTRIBUTE);
  if (!key) return;
  typed.set(key, { value: element.value, element, focused: element.ownerDocument.activeElement === element });
}

/**
 * Starts keeping the text of `document`'s marked fields: what they hold now
 * (typed before any script ran), then every change. Idempotent.
 */
export function recordTypedBeforeHydration(document: Document): void {
  if (recording) return;
  recording = true;
  for (const element of document.querySelectorAll(`[${KEEP_TYPED_ATTRIBUTE}]`)) if (isField(element)) keep(element);
  document.addEventListener("input", (event) => void (isField(event.target) && keep(event.target)), true);
}

/**
 * What was typed into another field of key `key` (the server's, now gone),
 * and whether that field had the focus; `null` when there is nothing to take
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
