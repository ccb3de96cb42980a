/**
 * Issue 40, « Demandes »: a request's « Traité » state on its card: who marked it and when, and the button that
 * marks it (« Marquer traitée ») or puts it back (« Remettre à traiter »). The button names its request for
 * screen readers (several cards, one list). The call and what follows (the list, the tab's count) are the
 * view's (`requests-view.tsx`).
 */
import { useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { formatDateTime } from "#app/remote-support/client/format.ts";
import { TREATMENT_MESSAGES } from "./treatment.ts";
import type { RequestView, TreatmentView } from "./views.ts";

/** The card's title, also said with its buttons and in the view's status line. */
export function requestTitle(request: RequestView): string {
  return request.kind === "contact"
    ? `Message de ${request.name}`
    : `Devis : ${request.companyName} (${request.contactName})`;
}

/** « Traitée le 05/01/2026 10:00:00 par Camille Tech » (the shop's clock); « par un compte supprimé » once gone. */
export function treatedText(treated: TreatmentView): string {
  return `Traitée le ${formatDateTime(treated.at)} par ${treated.byName ?? "un compte supprimé"}`;
}

type Props = {
  request: RequestView;
  /** Marks the request (`treated` true) or puts it back; resolves once the server answered. */
  onSet: (treated: boolean) => Promise<void>;
};

export function TreatmentControl({ request, onSet }: Props) {
  const [busy, setBusy] = useState(false);
  const treated = request.treated !== null;
  async function toggle() {
    setBusy(true);
    await onSet(!treated);
    setBusy(false);
  }
  return (
    <div className="flex flex-wrap items-center gap-3">
      {request.treated ? <p className="text-sm font-medium text-emerald-300">{treatedText(request.treated)}</p> : null}
      <Button type="button" variant="secondary" disabled={busy} onClick={() => void toggle()}>
        {treated ? TREATMENT_MESSAGES.markUntreated : TREATMENT_MESSAGES.markTreated}
        <span className="sr-only"> : {requestTitle(request)}</span>
      </Button>
    </div>
  );
}
