/**
 * Issue 27, copy–paste in the technician's remote view, shown only while control is allowed (the remote view
 * mounts it then): « Coller chez le client » sends the technician's clipboard to the customer's computer, which
 * pastes it where its cursor is; the text the customer sends (from their app) shows here, said to come from
 * the customer, with « Copier ». Results are announced (`role="status"`), errors assertively (`role="alert"`).
 */
import { SHOP_TIME_ZONE } from "#app/booking/time-zone.ts";
import { ClipboardPaste, Copy } from "lucide-react";
import { useId } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { characterCount } from "#app/remote-support/client/clipboard-transfer.ts";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";
import { useClipboardTransfer } from "#app/remote-support/client/use-clipboard-transfer.ts";

const clock = new Intl.DateTimeFormat("fr-FR", {
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  timeZone: SHOP_TIME_ZONE,
});

type Props = { code: string; socket: RealtimeSocket | null; customerName: string };

export function ClipboardPanel({ code, socket, customerName }: Props) {
  const id = useId();
  const { busy, outcome, received, paste, copy } = useClipboardTransfer(code, socket);
  return (
    <section aria-labelledby={`${id}-titre`} className="flex flex-col gap-2 rounded-lg border border-slate-700 p-3">
      <h3 id={`${id}-titre`} className="text-lg font-semibold text-white">
        Presse-papiers
      </h3>
      <p id={`${id}-aide`} className="text-sm text-slate-300">
        Texte seulement, 64 Ko au plus. Il est collé là où se trouve le curseur chez le client.
      </p>
      <Button type="button" variant="secondary" onClick={paste} disabled={busy} aria-describedby={`${id}-aide`}>
        <ClipboardPaste aria-hidden="true" className="size-5" />
        Coller chez le client
      </Button>
      <p role="status" className="text-sm text-slate-200">
        {outcome?.ok ? outcome.message : ""}
      </p>
      <p role="alert" className="text-sm font-medium text-amber-200">
        {outcome && !outcome.ok ? outcome.message : ""}
      </p>
      {received ? (
        <div className="flex flex-col gap-2">
          <label htmlFor={`${id}-recu`} className="text-sm text-slate-200">
            Reçu du client ({customerName}) à {clock.format(received.at)} · {characterCount(received.text)}
          </label>
          <textarea
            id={`${id}-recu`}
            readOnly
            rows={4}
            value={received.text}
            className="w-full resize-y rounded-md border border-slate-600 bg-slate-950 p-2 font-mono text-sm text-slate-100 focus-visible:outline-2 focus-visible:outline-sky-300"
          />
          <Button type="button" variant="secondary" onClick={copy}>
            <Copy aria-hidden="true" className="size-5" />
            Copier
          </Button>
        </div>
      ) : null}
    </section>
  );
}
