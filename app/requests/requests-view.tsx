/**
 * The technicians' "Demandes" view (issue 5; beside the requests since issue
 * 14, shown in the remote-support dashboard): contact messages and quote
 * requests received by the site, newest first, with the delivery state of
 * their mail to the shop (the outbox: sent, or pending with its attempts and
 * last error), so a request whose mail failed is still seen.
 *
 * Issue 40: a staff member marks a request « Traité » (who and when are kept) or « Remettre à traiter »; the
 * view shows those « À traiter » or the « Traitées » (a filter, « À traiter » first), and tells the dashboard
 * (`onChanged`) so the tab's count follows. After a click the request leaves the list shown: the focus goes to
 * the view's heading and a polite line says what was done.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { getRequests, setRequestTreated } from "#app/remote-support/client/api.ts";
import { FreshReads } from "#app/utils/fresh-reads.ts";
import { formatDateTime } from "#app/remote-support/client/format.ts";
import { describeMailboxPlan, findMailboxPlan } from "#app/config/mailbox-plans.ts";
import { useShop } from "#app/shop/use-shop.ts";
import { useMailStatus } from "#app/go-live/use-mail-status.ts";
import { fullDomain } from "./schemas.ts";
import type { DeliveryView, RequestView } from "./views";
import { TREATMENT_MESSAGES } from "./treatment.ts";
import { requestTitle, TreatmentControl } from "./treatment-control.tsx";

/**
 * The delivery line in French. Issue 40: `mailConfigured` false (mail only written as files on the server),
 * a delivered mail is said not sent: nobody received it.
 */
export function deliveryText(delivery: DeliveryView | null, mailConfigured = true): string {
  if (!delivery) return "Aucun e-mail en file";
  if (delivery.status === "sent" && !mailConfigured)
    return `E-mail non envoyé : l'envoi d'e-mails n'est pas configuré (écrit dans un fichier sur le serveur le ${formatDateTime(delivery.sentAt)})`;
  if (delivery.status === "sent") return `E-mail envoyé le ${formatDateTime(delivery.sentAt)}`;
  const attempts = `${delivery.attempts} tentative${delivery.attempts > 1 ? "s" : ""}`;
  return `E-mail en attente (${attempts}${delivery.lastError ? `, dernière erreur : ${delivery.lastError}` : ""})`;
}

/** Issue 40: which requests the list shows. */
type Shown = "to-treat" | "treated";

/** `onChanged`: called after a request was marked or put back, or the list read again (the tab counts follow). */
export function RequestsView({ onChanged }: { onChanged?: () => void } = {}) {
  const [requests, setRequests] = useState<RequestView[] | null>(null);
  const [error, setError] = useState("");
  const [shown, setShown] = useState<Shown>("to-treat");
  const [notice, setNotice] = useState("");
  const headingRef = useRef<HTMLHeadingElement>(null);
  // A list read before a « Traité » and answered after it would bring the request back (`fresh-reads.ts`).
  const [freshReads] = useState(() => new FreshReads());
  const load = useCallback(async (): Promise<void> => {
    setError("");
    const ticket = freshReads.begin();
    const result = await getRequests();
    const verdict = freshReads.verdict(ticket);
    if (verdict === "again") return load();
    if (verdict === "drop") return;
    if (result.ok) setRequests(result.data.requests);
    else setError(result.message);
  }, [freshReads]);
  useEffect(() => {
    void load();
  }, [load]);
  async function setTreated(request: RequestView, treated: boolean) {
    setError("");
    setNotice("");
    const result = await setRequestTreated(request.id, { kind: request.kind, treated });
    freshReads.changed();
    if (!result.ok) {
      setError(result.message);
      // Deleted meanwhile (the retention purge): it will never come back.
      if (result.status === 404) setRequests((current) => current?.filter((item) => item !== request) ?? null);
      return;
    }
    const updated = result.data.request;
    setRequests(
      (current) =>
        current?.map((item) => (item.kind === updated.kind && item.id === updated.id ? updated : item)) ?? null,
    );
    setNotice(`${requestTitle(updated)} : ${treated ? "marquée traitée" : "remise à traiter"}.`);
    // Its card leaves the list shown, with the button that had the focus.
    headingRef.current?.focus();
    onChanged?.();
  }
  const toTreat = requests?.filter((request) => request.treated === null) ?? [];
  const treated = requests?.filter((request) => request.treated !== null) ?? [];
  const list = shown === "to-treat" ? toTreat : treated;
  return (
    <section aria-labelledby="demandes-titre" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="demandes-titre" ref={headingRef} tabIndex={-1} className="text-2xl font-bold text-white">
          Demandes
        </h2>
        <Button
          type="button"
          variant="secondary"
          onClick={() => {
            void load();
            onChanged?.();
          }}
        >
          Actualiser
        </Button>
      </div>
      <div className="flex flex-wrap gap-2" role="group" aria-label="Demandes affichées">
        {(
          [
            ["to-treat", TREATMENT_MESSAGES.toTreat, toTreat.length],
            ["treated", TREATMENT_MESSAGES.treatedFilter, treated.length],
          ] as const
        ).map(([key, label, count]) => (
          <Button
            key={key}
            type="button"
            variant={shown === key ? "primary" : "secondary"}
            aria-pressed={shown === key}
            onClick={() => setShown(key)}
          >
            {label} ({new Intl.NumberFormat("fr-FR").format(count)})
          </Button>
        ))}
      </div>
      <p role="status" className="text-slate-200">
        {notice}
      </p>
      <p role="alert" className="font-medium text-red-300">
        {error}
      </p>
      {requests === null ? (
        <p className="text-slate-300">Chargement…</p>
      ) : requests.length === 0 ? (
        <p className="text-slate-300">Aucune demande pour l'instant.</p>
      ) : list.length === 0 ? (
        <p className="text-slate-300">
          {shown === "to-treat" ? "Aucune demande à traiter." : "Aucune demande traitée pour l'instant."}
        </p>
      ) : (
        <ul className="flex flex-col gap-4">
          {list.map((request) => (
            <li key={`${request.kind}-${request.id}`}>
              <RequestCard request={request} onSetTreated={(value) => setTreated(request, value)} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Issue 40: the mailbox plan as the customer chose it (« Boîte mail 10 Go – 4,99 € par mois »), not its id. */
export function mailboxText(id: string): string {
  const plan = findMailboxPlan(id);
  return plan ? describeMailboxPlan(plan) : id;
}

/** A `mailto:` answering `request`: its address, and a subject saying what it answers. */
export function replyHref(request: RequestView, shopName: string): string {
  const subject = request.kind === "contact" ? `Votre message à ${shopName}` : `Votre demande de devis à ${shopName}`;
  return `mailto:${encodeURIComponent(request.email).replace("%40", "@")}?subject=${encodeURIComponent(subject)}`;
}

function RequestCard({
  request,
  onSetTreated,
}: {
  request: RequestView;
  /** Issue 40: marks it « Traité » or puts it back. */
  onSetTreated: (treated: boolean) => Promise<void>;
}) {
  const shop = useShop();
  const mailConfigured = useMailStatus()?.configured !== false;
  const sent = request.delivery?.status === "sent" && mailConfigured;
  return (
    <Card className="flex flex-col gap-2">
      <h3 className="text-lg font-semibold text-white">
        {request.kind === "contact"
          ? `Message de ${request.name}`
          : `Devis : ${request.companyName} (${request.contactName})`}
      </h3>
      <p className="text-sm text-slate-300">
        Reçu le {formatDateTime(request.createdAt)} · <span className="break-all">{request.email}</span>
        {request.kind === "quote" ? ` · ${request.phone}` : null}
      </p>
      {request.kind === "quote" ? (
        <p className="text-slate-200">
          Domaine : {fullDomain(request.domain)} · Messagerie : {mailboxText(request.emailOption)} · Budget :{" "}
          {request.budget}
        </p>
      ) : null}
      <p className="whitespace-pre-line text-slate-100">
        {request.kind === "contact" ? request.message : request.description}
      </p>
      <p className={sent ? "text-sm text-emerald-300" : "text-sm text-amber-200"}>
        {deliveryText(request.delivery, mailConfigured)}
      </p>
      <p>
        {/* Issue 40: answered from the technician's own mail program, the subject already written. */}
        <a className="font-medium text-sky-300 underline-offset-4 hover:underline" href={replyHref(request, shop.name)}>
          Répondre par e-mail
          <span className="sr-only"> à {request.kind === "contact" ? request.name : request.contactName}</span>
        </a>
      </p>
      <TreatmentControl request={request} onSet={onSetTreated} />
    </Card>
  );
}
