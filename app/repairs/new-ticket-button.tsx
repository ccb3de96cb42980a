/**
 * Issue 18 §2, for the agenda (issue 18 §1): « Ouvrir une réparation » on an
 * appointment. One click opens a repair ticket whose model, repair, price
 * and contact are copied from the appointment (`POST /api/repairs` with
 * `{ appointmentId }`), mails the customer "Reçu" with the tracking code,
 * and says the code to write on the receipt. The server's French refusal
 * (unknown appointment, not a technician) is shown in place.
 */
import { useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import type { StaffRepairTicket } from "./protocol.ts";
import { openRepair } from "./repairs-client.ts";

type Props = {
  appointmentId: string;
  /** Called with the new ticket (e.g. to switch to the "Réparations" view). */
  onOpened?: (ticket: StaffRepairTicket) => void;
};

/** The button and its outcome line; see the module comment. */
export function NewTicketButton({ appointmentId, onOpened }: Props) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);

  async function open() {
    setBusy(true);
    const result = await openRepair({ appointmentId });
    setBusy(false);
    if (!result.ok) return setOutcome({ ok: false, text: result.message });
    setOutcome({
      ok: true,
      text: `Réparation ${result.data.ticket.code} ouverte : le client a reçu son code de suivi.`,
    });
    onOpened?.(result.data.ticket);
  }

  return (
    <div className="flex flex-col gap-1">
      <div>
        <Button type="button" variant="secondary" disabled={busy || outcome?.ok === true} onClick={() => void open()}>
          Ouvrir une réparation
        </Button>
      </div>
      <p role="status" className={outcome?.ok === false ? "font-medium text-red-300" : "text-emerald-200"}>
        {outcome?.text ?? ""}
      </p>
    </div>
  );
}
