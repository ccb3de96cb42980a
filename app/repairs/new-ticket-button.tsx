/**
 * Issue 18 §2, for the agenda (issue 18 §1): « Ouvrir une réparation » on an
 * appointment. One click opens a repair ticket whose model, repair, price
 * and contact are copied from the appointment (`POST /api/repairs` with
 * `{ appointmentId }`), mails the customer "Reçu" with the tracking code,
 * and says the code to write on the receipt. The server's French refusal
 * (unknown appointment, not a technician) is shown in place.
 *
 * Issue 40: the sentence (a `role="status"` region, read out) links to the
 * new ticket in the « Réparations » view (`RepairLink`), where the device's
 * state and accessories are filled in; the focus moves to that link, as the
 * button it leaves is disabled once the ticket exists. An appointment that
 * already has its ticket (`openedCode`, from the agenda) shows a link to it
 * instead of the button, after a reload too; a second technician's click,
 * refused by the server, reloads the agenda to the same.
 */
import { useEffect, useRef, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import type { StaffRepairTicket } from "./protocol.ts";
import { RepairLink } from "./repair-link.tsx";
import { openRepair } from "./repairs-client.ts";

type Props = {
  appointmentId: string;
  /** The code of the ticket already opened from this appointment (« R7K3-QXMA »), or null. */
  openedCode?: string | null;
  /** Called once a ticket exists: opened here (with it), or by someone else meanwhile (the server's 409). */
  onOpened?: (ticket?: StaffRepairTicket) => void;
};

type Outcome = { ok: false; text: string } | { ok: true; code: string };

const linkClass =
  "font-semibold text-sky-300 underline underline-offset-4 hover:text-sky-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300";

/** The button and its outcome line; see the module comment. */
export function NewTicketButton({ appointmentId, openedCode = null, onOpened }: Props) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const link = useRef<HTMLAnchorElement>(null);
  const opened = outcome?.ok === true;

  useEffect(() => {
    if (opened) link.current?.focus();
  }, [opened]);

  async function open() {
    setBusy(true);
    const result = await openRepair({ appointmentId });
    setBusy(false);
    if (!result.ok) {
      if (result.status === 409) onOpened?.();
      return setOutcome({ ok: false, text: result.message });
    }
    setOutcome({ ok: true, code: result.data.ticket.code });
    onOpened?.(result.data.ticket);
  }

  if (!opened && openedCode)
    return (
      <p className="text-slate-200">
        Réparation {openedCode} ouverte pour ce rendez-vous.{" "}
        <RepairLink code={openedCode} className={linkClass}>
          Voir la réparation {openedCode}
        </RepairLink>
      </p>
    );

  return (
    <div className="flex flex-col gap-1">
      <div>
        <Button type="button" variant="secondary" disabled={busy || opened} onClick={() => void open()}>
          Ouvrir une réparation
        </Button>
      </div>
      <p role="status" className={outcome?.ok === false ? "font-medium text-red-300" : "text-emerald-200"}>
        {outcome === null ? (
          ""
        ) : outcome.ok ? (
          <>
            Réparation {outcome.code} ouverte : le client a reçu son code de suivi.{" "}
            <RepairLink ref={link} code={outcome.code} className={linkClass}>
              Voir la réparation {outcome.code}
            </RepairLink>
          </>
        ) : (
          outcome.text
        )}
      </p>
    </div>
  );
}
