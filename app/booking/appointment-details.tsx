/**
 * Issue 18 §1: the customer's appointment on its manage page (`/rendez-vous/gerer`): date, repair and
 * price, status, and the `.ics` invitation.
 *
 * Issue 40: what a customer needs to come: what the status means (« À confirmer » alone said nothing of
 * who confirms, nor how the customer learns it), what to bring, and the shop's address (a map link) and
 * phone number, read from the current identity the manager edits in « Boutique » (`useShop`).
 */
import { AddressLink } from "#app/components/ui/address-link.tsx";
import { formatPrice } from "#app/catalogue/format.ts";
import { telHref } from "#app/config/shop.ts";
import { useShop } from "#app/shop/use-shop.ts";
import type { ManagedAppointment } from "./context.ts";
import { formatWhen } from "./format.ts";
import { useCustomerMail } from "./customer-mail.ts";
import { APPOINTMENT_STATUS_HELP, APPOINTMENT_STATUS_LABELS, REQUESTED_HELP_WITHOUT_MAIL } from "./schemas.ts";

/**
 * What to bring to the shop, one line each: what a repair shop needs to repair a device and to check it
 * works before giving it back (a locked phone or computer cannot be tested).
 */
export const WHAT_TO_BRING = [
  "L'appareil, avec son chargeur ou son câble d'alimentation.",
  "Son code de déverrouillage ou son mot de passe, s'il en a un, pour tester l'appareil après la réparation (ou désactivez-le avant de venir).",
] as const;

/** What to do before coming, under the list. */
export const BEFORE_COMING = "Si l'appareil démarre encore, sauvegardez vos données avant de venir.";

const link =
  "text-sky-300 underline underline-offset-4 hover:text-sky-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300";

/**
 * The appointment's card: a `<dl>` (Date, Réparation, Statut with what it means, Adresse, Téléphone,
 * À apporter) and the invitation link. `token`: the page's signed token, for the `.ics` link.
 */
export function AppointmentDetails({ appointment, token }: { appointment: ManagedAppointment; token: string }) {
  const shop = useShop();
  const start = new Date(appointment.startsAt);
  const mailed = useCustomerMail();
  const help =
    appointment.status === "cancelled"
      ? null
      : appointment.status === "requested" && !mailed
        ? REQUESTED_HELP_WITHOUT_MAIL
        : APPOINTMENT_STATUS_HELP[appointment.status];
  return (
    <div className="flex flex-col gap-4 rounded-2xl border border-slate-700/80 bg-slate-900/80 p-5">
      <dl className="grid gap-x-6 gap-y-1 sm:grid-cols-[auto_1fr] sm:gap-y-3 [&>dd]:mb-2 sm:[&>dd]:mb-0">
        <dt className="text-slate-300">Date</dt>
        <dd className="font-semibold text-white first-letter:uppercase">{formatWhen(start)}</dd>
        <dt className="text-slate-300">Réparation</dt>
        <dd className="text-white">
          {appointment.repairLabel}
          {appointment.modelName ? ` – ${appointment.modelName}` : ""}
          {appointment.priceEuros !== null ? ` (${formatPrice(appointment.priceEuros)})` : ""}
        </dd>
        <dt className="text-slate-300">Statut</dt>
        <dd className="text-white">
          <span className="font-semibold">{APPOINTMENT_STATUS_LABELS[appointment.status]}</span>
          {help ? <p className="mt-1 text-slate-300">{help}</p> : null}
        </dd>
        <dt className="text-slate-300">Adresse</dt>
        <dd className="text-white">
          {shop.name}, <AddressLink className={link} />
        </dd>
        <dt className="text-slate-300">Téléphone</dt>
        <dd className="text-white">
          <a className={link} href={telHref(shop)}>
            {shop.phone.display}
          </a>
        </dd>
        <dt className="text-slate-300">À apporter</dt>
        <dd className="text-white">
          <ul className="flex list-disc flex-col gap-1 pl-5 marker:text-slate-400">
            {WHAT_TO_BRING.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <p className="mt-2 text-slate-300">{BEFORE_COMING}</p>
        </dd>
      </dl>
      <a
        href={`/rendez-vous/invitation.ics?jeton=${encodeURIComponent(token)}`}
        download="rendez-vous.ics"
        className="inline-flex min-h-11 w-fit items-center rounded-full border border-slate-600 px-4 text-slate-100 hover:border-sky-300 hover:text-sky-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300"
      >
        Ajouter à mon agenda (.ics)
      </a>
    </div>
  );
}
