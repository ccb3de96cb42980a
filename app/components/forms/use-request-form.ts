/**
 * The state both request forms share (spec §4): idle, sending, and the
 * result of the last submission, read from the fetcher once hydrated or from
 * the route's action data after a JavaScript-free POST.
 */
import { useEffect, useEffectEvent, useRef, useState } from "react";
import { useFetcher } from "react-router";
import type { FormActionData } from "#app/requests/action-data.ts";

type Options = {
  /** The route's action data: set only when the page answers a form POST made without JavaScript. */
  actionData?: FormActionData;
  /** Runs once for each submission the server stored (e.g. to clear the fields). */
  onStored?: () => void;
};

/** True when focus went back to the page (its control was disabled or removed). */
function focusWasLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || !active.isConnected;
}

export function useRequestForm({ actionData, onStored }: Options) {
  const fetcher = useFetcher<FormActionData>();
  const sending = fetcher.state === "submitting";
  const latest = fetcher.data ?? actionData;
  // The result the visitor dismissed (contact form: by typing again); compared by identity, so the next one shows.
  const [dismissed, setDismissed] = useState<FormActionData>();
  // While a new submission is on its way the previous result is hidden (quote form: "cleared on the next submit").
  const shown = sending || latest === dismissed ? undefined : latest;

  const formRef = useRef<HTMLFormElement>(null);
  const successRef = useRef<HTMLDivElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  const stored = useEffectEvent(() => onStored?.());

  // Keyed on what is shown, not on `fetcher.data`: React Router can hand out a fetcher's new data in a render
  // where its state still says "submitting" (the data is kept in a ref, the state updated in a transition),
  // and the fields' errors only exist once the result is shown.
  const handled = useRef<FormActionData>(undefined);
  const fromFetcher = shown !== undefined && shown === fetcher.data;
  useEffect(() => {
    if (!shown || !fromFetcher || handled.current === shown) return;
    handled.current = shown;
    if (shown.result.status === "stored") {
      stored();
      if (focusWasLost()) successRef.current?.focus();
      return;
    }
    // Invalid fields: the first one takes focus; its error is its description.
    const firstInvalid = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (firstInvalid) firstInvalid.focus();
    else if (focusWasLost()) errorRef.current?.focus();
  }, [shown, fromFetcher]);

  return {
    fetcher,
    sending,
    /** The result to show, if any. */
    shown,
    fieldErrors: shown?.result.status === "invalid" ? shown.result.fieldErrors : {},
    /** Hides the shown result until the next one. */
    dismiss: () => {
      if (shown) setDismissed(shown);
    },
    formRef,
    successRef,
    errorRef,
  };
}
