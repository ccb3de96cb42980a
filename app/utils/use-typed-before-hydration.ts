/**
 * Issue 27, "the technician's code field": text typed into a server-rendered
 * field before React hydrates it must survive.
 *
 * React hydrates a controlled `<input value={state}>` without touching what
 * the browser shows, but its state is still the initial "" and the next
 * render of that component writes "" back into the field: the technician's
 * half-typed session code, or the customer's question, vanished (4 runs in
 * 10). This hook adopts the field's value into the state in a layout effect
 * of the first client render, before anything can render again, so the
 * field, the state and the submit button agree.
 */
import { useLayoutEffect, type RefObject } from "react";

/**
 * On mount, hands `adopt` what the person already typed into `ref`'s field
 * (its DOM value), when there is something and it differs from `current`
 * (the state's initial value). Nothing happens for a field first rendered in
 * the browser, which holds no text of its own.
 */
export function useTypedBeforeHydration(
  ref: RefObject<HTMLInputElement | HTMLTextAreaElement | null>,
  current: string,
  adopt: (typed: string) => void,
): void {
  useLayoutEffect(() => {
    const typed = ref.current?.value ?? "";
    if (typed !== "" && typed !== current) adopt(typed);
    // Only the first commit: afterwards the state is the source of the field.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
