/**
 * Issue 39 §2, the React side of `queued-submit.ts`: a form of the signed-in area marks itself ready once
 * hydrated, and submits once what was queued before (with the text typed meanwhile, adopted by
 * `use-typed-before-hydration.ts` in the same commit).
 */
import { useCallback, useEffect, useLayoutEffect, useState, type RefObject } from "react";
import {
  QUEUE_SUBMIT_ATTRIBUTE,
  QUEUED_STATUS_ATTRIBUTE,
  QUEUED_SUBMIT_SCRIPT,
  SUBMIT_QUEUED_ATTRIBUTE,
  SUBMIT_READY_ATTRIBUTE,
} from "./queued-submit.ts";

/**
 * Marks the form `ref` with `key` (unique on the page; spread the returned props on the `<form>`) and, once
 * React runs, submits it (`requestSubmit`: its own `onSubmit` does the work) if Entrée or its button was
 * pressed before. Submits at most once per queued press, as soon as `ready` (e.g. the chat's connection is
 * up, the conversation loaded; « envoi… » stays shown until then). `queue()` does the same for a press made
 * once hydrated but before `ready`: the form's handler calls it instead of sending.
 */
export function useQueuedSubmit(
  key: string,
  ref: RefObject<HTMLFormElement | null>,
  ready = true,
): { formProps: Record<string, string>; queue: () => void } {
  const [queued, setQueued] = useState(false);
  useLayoutEffect(() => {
    const form = ref.current;
    if (!form) return;
    form.setAttribute(SUBMIT_READY_ATTRIBUTE, "");
    const root = form.ownerDocument.documentElement;
    if (root.getAttribute(SUBMIT_QUEUED_ATTRIBUTE) !== key) return;
    root.removeAttribute(SUBMIT_QUEUED_ATTRIBUTE);
    setQueued(true);
  }, [key, ref]);
  // A render after the one that adopted the typed text: `onSubmit` then reads the state that holds it.
  useEffect(() => {
    if (!queued || !ready) return;
    setQueued(false);
    const form = ref.current;
    form?.querySelector<HTMLElement>(`[${QUEUED_STATUS_ATTRIBUTE}]`)?.setAttribute("hidden", "");
    form?.requestSubmit();
  }, [queued, ready, ref]);
  const queue = useCallback(() => {
    ref.current?.querySelector<HTMLElement>(`[${QUEUED_STATUS_ATTRIBUTE}]`)?.removeAttribute("hidden");
    setQueued(true);
  }, [ref]);
  return { formProps: { [QUEUE_SUBMIT_ATTRIBUTE]: key }, queue };
}

/** « envoi… », hidden until the inline script shows it for a submission waiting for React. */
export function QueuedSubmitStatus() {
  return (
    <span {...{ [QUEUED_STATUS_ATTRIBUTE]: "" }} hidden className="self-center text-sm text-slate-300">
      envoi…
    </span>
  );
}

/** The inline script (`queued-submit.ts`), once per page, before the forms it serves. */
export function QueuedSubmitScript() {
  return <script dangerouslySetInnerHTML={{ __html: QUEUED_SUBMIT_SCRIPT }} />;
}
