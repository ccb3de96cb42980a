/**
 * Issue 18 §1 and §3: what is being booked, beside the booking form: the
 * model and repair, the "à partir de" price with its estimate note, the
 * bonus line when the shop shows it (with what the bonus is, issue 30 §3),
 * the shop's address, and a way back to the prices.
 */
import { Link } from "react-router";
import { BonusExplainer } from "#app/catalogue/bonus-explainer.tsx";
import { formatPrice } from "#app/catalogue/format.ts";
import { formatAddress } from "#app/config/shop.ts";
import { useShop } from "#app/shop/use-shop.ts";
import type { BookedRepair } from "./booked-repair.server.ts";
import { bookingPath } from "./paths.ts";

const linkClass =
  "font-medium text-sky-300 underline underline-offset-4 hover:text-sky-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300";

/**
 * The summary card; `bonus` is the line "64 € après bonus réparation" (`bonusLine`), or null when the shop
 * does not show the bonus or the repair is not eligible.
 */
export function BookingSummary({ booked, bonus }: { booked: BookedRepair; bonus: string | null }) {
  const shop = useShop();
  return (
    <aside
      aria-labelledby="resume-titre"
      className="flex flex-col gap-3 rounded-2xl border border-slate-700/80 bg-slate-900/80 p-5 lg:sticky lg:top-24"
    >
      <h3 id="resume-titre" className="text-xl font-semibold text-white">
        {booked.repairLabel}
        {booked.modelName ? ` – ${booked.modelName}` : ""}
      </h3>
      {booked.euros !== null ? (
        <p className="text-lg font-semibold text-white">
          {formatPrice(booked.euros)}
          {booked.estimate ? (
            <span className="block text-sm font-normal text-slate-300">Prix estimé, confirmé après le diagnostic.</span>
          ) : null}
        </p>
      ) : (
        <p className="text-slate-200">Le diagnostic est gratuit : nous vous donnons un devis avant toute réparation.</p>
      )}
      {bonus ? (
        <div className="flex flex-col gap-1">
          <p className="font-semibold text-emerald-200">{bonus}</p>
          <BonusExplainer />
        </div>
      ) : null}
      {booked.choices.length > 0 && booked.modelSlug ? (
        <nav aria-label="Choisir la réparation">
          <p className="text-slate-200">Vous connaissez la panne ? Choisissez la réparation :</p>
          <ul className="mt-2 flex flex-col gap-1">
            {booked.choices.map((choice) => (
              <li key={choice.id}>
                <Link to={bookingPath(booked.modelSlug, choice.id)} className={linkClass}>
                  {choice.label} ({formatPrice(choice.euros)})
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <p className="text-sm text-slate-300">
        Prix TTC, pièces et main-d'œuvre comprises, confirmé après le diagnostic gratuit.
      </p>
      <p className="text-sm text-slate-300">
        À l'atelier : {shop.name}, {formatAddress(shop.address)}.
      </p>
      {booked.brandPath && booked.modelSlug ? (
        <Link to={`${booked.brandPath}#${booked.modelSlug}`} className={linkClass} reloadDocument>
          Voir les autres réparations du modèle
        </Link>
      ) : (
        <Link to="/repair" className={linkClass} reloadDocument>
          Voir nos tarifs de réparation
        </Link>
      )}
    </aside>
  );
}
