/**
 * The technicians' "Demandes" view (issue 5; beside the requests since issue
 * 14, shown in the remote-support dashboard): contact messages and quote
 * requests received by the site, newest first, with the delivery state of
 * their mail to the shop (the outbox: sent, or pending with its attempts and
 * last error), so a request whose mail failed is still seen.
 */
import { useEffect, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { getRequests } from "#app/remote-support/client/api.ts";
import { formatDateTime } from "#app/remote-support/client/format.ts";
import { describeMailboxPlan, findMailboxPlan } from "#app/config/mailbox-plans.ts";
import { useShop } from "#app/shop/use-shop.ts";
import { fullDomain } from "./schemas.ts";
import type { DeliveryView, RequestView } from "./views";

/** The delivery line in French. */
export function deliveryText(delivery: DeliveryView | null): string {
  if (!delivery) return "Aucun e-mail en file";
  if (delivery.status === "sent") return `E-mail envoyé le ${formatDateTime(delivery.sentAt)}`;
  const attempts = `${delivery.attempts} tentative${delivery.attempts > 1 ? "s" : ""}`;
  return `E-mail en attente (${attempts}${delivery.lastError ? `, dernière erreur : ${delivery.lastError}` : ""})`;
}

export function RequestsView() {
  const [requests, setRequests] = useState<RequestView[] | null>(null);
  const [error, setError] = useState("");
  async function load() {
    setError("");
    const result = await getRequests();
    if (result.ok) setRequests(result.data.requests);
    else setError(result.message);
  }
  useEffect(() => {
    void load();
  }, []);
  return (
    <section aria-labelledby="demandes-titre" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="demandes-titre" className="text-2xl font-bold text-white">
          Demandes
        </h2>
        <Button type="button" variant="secondary" onClick={() => void load()}>
          Actualiser
        </Button>
      </div>
      <p role="alert" className="font-medium text-red-300">
        {error}
      </p>
      {requests === null ? (
        <p className="text-slate-300">Chargement…</p>
      ) : requests.length === 0 ? (
        <p className="text-slate-300">Aucune demande pour l'instant.</p>
      ) : (
        <ul className="flex flex-col gap-4">
          {requests.map((request) => (
            <li key={`${request.kind}-${request.id}`}>
              <RequestCard request={request} />
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

function RequestCard({ request }: { request: RequestView }) {
  const shop = useShop();
  const sent = request.delivery?.status === "sent";
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
      <p className={sent ? "text-sm text-emerald-300" : "text-sm text-amber-200"}>{deliveryText(request.delivery)}</p>
      <p>
        {/* Issue 40: answered from the technician's own mail program, the subject already written. */}
        <a className="font-medium text-sky-300 underline-offset-4 hover:underline" href={replyHref(request, shop.name)}>
          Répondre par e-mail
          <span className="sr-only"> à {request.kind === "contact" ? request.name : request.contactName}</span>
        </a>
      </p>
    </Card>
  );
}
