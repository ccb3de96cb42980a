/**
 * The end of both request forms (spec §4): the submit button, disabled and
 * reading "Envoi en cours..." while sending, then the live regions of the
 * result. The quote form swaps itself for a success screen, so it passes no
 * `successRef` and gets only the error region.
 */
import { Send } from "lucide-react";
import type { RefObject } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { FormStatus } from "#app/components/ui/field.tsx";
import type { FormActionData } from "#app/requests/action-data.ts";
import { ResultError } from "./result-error";

type SubmitRowProps = {
  /** The button's text when idle, e.g. "Envoyer le message". */
  label: string;
  sending: boolean;
  /** The result to show, if any (`useRequestForm().shown`). */
  shown: FormActionData | undefined;
  errorRef: RefObject<HTMLDivElement | null>;
  /** Given: a success is announced here with the server's message. */
  successRef?: RefObject<HTMLDivElement | null>;
  /** Issue 40: said after the success message, e.g. when the shop answers. */
  storedNote?: string;
};

/** Spec §4: the submit button's text while the form is sent. */
export const SENDING_LABEL = "Envoi en cours...";

export function SubmitRow({ label, sending, shown, errorRef, successRef, storedNote }: SubmitRowProps) {
  const stored = shown?.result.status === "stored";
  return (
    <div>
      <Button type="submit" disabled={sending} className="w-full sm:w-auto" data-sending-label={SENDING_LABEL}>
        <Send aria-hidden="true" className="size-5" />
        {sending ? SENDING_LABEL : label}
      </Button>
      {/* Empty live regions take no room: the margin only applies once they have a message. */}
      {successRef ? (
        <FormStatus tone="success" ref={successRef} className="not-empty:mt-4">
          {/* One child or none: an empty region must stay empty (no icon, no margin). */}
          {stored ? (
            <>
              <p className="font-semibold">{shown.message}</p>
              {storedNote ? <p>{storedNote}</p> : null}
            </>
          ) : null}
        </FormStatus>
      ) : null}
      <FormStatus tone="error" ref={errorRef} className="not-empty:mt-4">
        {shown && !stored ? <ResultError data={shown} /> : null}
      </FormStatus>
    </div>
  );
}
