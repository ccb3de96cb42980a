/**
 * Issue 38 §2, the technician's « Fichiers » panel in the remote view of a session with the desktop app: send a
 * file to the customer's computer (a button or a file dropped on the panel), ask the customer for one, receive the
 * customer's files (« Recevoir » downloads it once it arrived whole), and follow each transfer: a progress bar,
 * the speed and the time left, « Annuler ». The customer consents in the app for every file
 * (`client/file-transfers.ts` for the protocol, `use-file-transfers.ts` for the state).
 */
import { useId, useRef, useState, type DragEvent } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { cn } from "#app/utils/cn.ts";
import { formatFileSize } from "#app/remote-support/file-protocol.ts";
import type { TransferView } from "#app/remote-support/client/file-transfers.ts";
import { useFileTransfers } from "#app/remote-support/client/use-file-transfers.ts";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";

type Props = {
  code: string;
  socket: RealtimeSocket | null;
  /** The customer's name (« Marie veut vous envoyer… »). */
  customerName: string;
};

const STATE_TEXT: Record<TransferView["state"], string> = {
  offered: "propose de vous l'envoyer",
  waiting: "en attente de l'accord du client…",
  running: "en cours",
  checking: "vérification…",
  done: "terminé",
  declined: "refusé",
  cancelled: "annulé",
  failed: "échec",
};

/** « 8 s restantes », « 1 s restante », « 3 min restantes ». */
export function timeLeftText(seconds: number): string {
  const [count, unit] = seconds < 90 ? [Math.max(1, seconds), "s"] : [Math.round(seconds / 60), "min"];
  return `${count} ${unit} restante${count > 1 ? "s" : ""}`;
}

/** The panel (see the module comment). */
export function FilePanel({ code, socket, customerName }: Props) {
  const id = useId();
  const { transfers, actions } = useFileTransfers(code, socket);
  const [error, setError] = useState("");
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  async function send(files: Iterable<File>) {
    if (!actions) return;
    setError("");
    for (const file of files) {
      const refusal = await actions.send(file);
      if (refusal) setError(refusal);
    }
  }
  function drop(event: DragEvent<HTMLElement>) {
    event.preventDefault();
    setDragging(false);
    void send(event.dataTransfer.files);
  }

  return (
    <section
      aria-labelledby={`${id}-titre`}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={drop}
      className={cn(
        "flex flex-col gap-3 rounded-lg border border-slate-700 p-3",
        dragging && "border-sky-300 bg-sky-950/40",
      )}
    >
      <h3 id={`${id}-titre`} className="text-lg font-semibold text-white">
        Fichiers
      </h3>
      <p className="text-sm text-slate-300">
        Déposez un fichier ici ou choisissez-le : le client l'accepte dans le logiciel, qui l'enregistre dans son
        dossier Téléchargements.
      </p>
      <div className="flex flex-wrap gap-2">
        <input
          ref={input}
          id={`${id}-choix`}
          type="file"
          className="sr-only"
          tabIndex={-1}
          aria-label="Fichier à envoyer au client"
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = "";
            void send(files);
          }}
        />
        <Button type="button" variant="secondary" disabled={!actions} onClick={() => input.current?.click()}>
          Envoyer un fichier…
        </Button>
        <Button
          type="button"
          variant="secondary"
          disabled={!actions}
          onClick={() => void actions?.request().then((refusal) => setError(refusal ?? ""))}
        >
          Demander un fichier au client
        </Button>
      </div>
      <p role="alert" className="text-sm text-red-300">
        {error}
      </p>
      {transfers.length > 0 ? (
        <ul aria-label="Transferts de fichiers" className="flex flex-col gap-3">
          {transfers.map((transfer) => (
            <TransferRow key={transfer.id} transfer={transfer} customerName={customerName} actions={actions} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function TransferRow({
  transfer,
  customerName,
  actions,
}: {
  transfer: TransferView;
  customerName: string;
  actions: ReturnType<typeof useFileTransfers>["actions"];
}) {
  const over = ["done", "declined", "cancelled", "failed"].includes(transfer.state);
  const toCustomer = transfer.direction === "to-customer";
  const figures = [
    transfer.bytesPerSecond !== null ? `${formatFileSize(Math.round(transfer.bytesPerSecond))}/s` : null,
    transfer.secondsLeft !== null ? timeLeftText(transfer.secondsLeft) : null,
  ].filter(Boolean);
  return (
    <li className="flex flex-col gap-1 text-sm text-slate-100">
      <p>
        {toCustomer ? (
          "Vers le client : "
        ) : (
          <>
            <bdi>{customerName}</bdi> vous envoie{" "}
          </>
        )}
        «&nbsp;
        <bdi className="break-all">{transfer.name}</bdi>&nbsp;» ({formatFileSize(transfer.size)}) —{" "}
        {STATE_TEXT[transfer.state]}
      </p>
      {transfer.state === "running" || transfer.state === "checking" ? (
        <progress
          className="w-full"
          max={transfer.size}
          value={transfer.done}
          aria-label={`Progression de « ${transfer.name} »`}
        />
      ) : null}
      {figures.length > 0 ? <p className="text-slate-300">{figures.join(" · ")}</p> : null}
      {transfer.message ? <p className="text-red-300">{transfer.message}</p> : null}
      <div className="flex gap-2">
        {transfer.state === "offered" ? (
          <>
            <Button type="button" onClick={() => actions?.accept(transfer.id)}>
              Recevoir
            </Button>
            <Button type="button" variant="secondary" onClick={() => actions?.decline(transfer.id)}>
              Refuser
            </Button>
          </>
        ) : over ? (
          <Button type="button" variant="secondary" onClick={() => actions?.dismiss(transfer.id)}>
            Effacer
          </Button>
        ) : (
          <Button type="button" variant="secondary" onClick={() => actions?.cancel(transfer.id)}>
            Annuler
          </Button>
        )}
      </div>
    </li>
  );
}
