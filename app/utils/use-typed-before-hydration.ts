/**
 * Issue 27, "the technician's code field": text typed into a server-rendered
 * field before React takes it over must survive, in two cases.
 *
 * - React hydrates the field: it leaves what the browser shows, but its
 *   state is still the initial "" and the component's next render writes ""
 *   back into the field (4 runs in 10 lost the technician's code, or kept
 *   it with a disabled « Se connecter »). The field's own value is adopted.
 * - React mounts the screen again once in use: the new field gets back what
 *   the last one's state held (`typed-before-hydration.ts`), and the focus
 *   when the old field had it.
 *
 * Either way in a layout effect of the first client render, before anything
 * can render again, so the field, the state and the submit button agree.
 */
import { useEffect, useLayoutEffect, type RefObject } from "react";
import { KEEP_TYPED_ATTRIBUTE, keepValue, takeTyped } from "./typed-before-hydration.ts";

/**
 * Hands `adopt` what the person already typed into the field `ref` (its DOM
 * value, else what the last field of the same `key` held) when
 * the component mounts, if it differs from `current` (the state's initial
 * value). Returns the props that mark the field (spread them on it): `key`
 * must be unique on the page.
 */
export function useTypedBeforeHydration(
  key: string,
  ref: RefObject<HTMLInputElement | HTMLTextAreaElement | null>,
  current: string,
  adopt: (typed: string) => void,
): { [KEEP_TYPED_ATTRIBUTE]: string } {
  useLayoutEffect(() => {
    const element = ref.current;
    const own = element?.value ?? "";
    const kept = takeTyped(key, element);
    if (own !== "") {
      if (own !== current) adopt(own);
    } else if (kept && kept.value !== current) {
      adopt(kept.value);
      const active = element?.ownerDocument.activeElement;
      if (kept.focused && element && (!active || active === element.ownerDocument.body)) {
        element.focus();
        // After React has written the adopted text: the caret goes after it, where the person was typing.
        requestAnimationFrame(() => element.setSelectionRange(element.value.length, element.value.length));
      }
    }
    // Only the first commit: afterwards the state is the source of the field.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // What the state says is what a re-mounted field gets back (emptied by a submit: nothing).
  useEffect(() => {
    if (ref.current) keepValue(key, ref.current, current);
  }, [key, ref, current]);
  return { [KEEP_TYPED_ATTRIBUTE]: key };
}
