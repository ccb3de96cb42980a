/**
 * Issue 18 §1 and §3: what is being booked, beside the booking form: the
 * model and repair, the "à partir de" price with its terms, the bonus line
 * when the shop shows it (with what the bonus is, issue 30 §3), the shop's
 * address, and a way back to the prices.
 *
 * Issue 40: short enough that a phone shows the first day's slots under it on
 * its first screen: the price's terms in one sentence (« confirmé après le
 * diagnostic gratuit » was said twice), and a link naming the model only folds
 * its repairs under « Vous connaissez la panne ? » (plain `<details>`).
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
      className="flex flex-col gap-2 rounded-2xl border border-slate-700/80 bg-slate-900/80 p-4 sm:gap-3 sm:p-5 lg:sticky lg:top-24"
    >
      <h2 id="resume-titre" className="text-xl font-semibold text-white">
        {booked.repairLabel}
        {booked.modelName ? ` – ${booked.modelName}` : ""}
      </h2>
      {booked.euros !== null ? (
        <>
          <p className="text-lg font-semibold text-white">{formatPrice(booked.euros)}</p>
          <p className="text-sm text-slate-300">
            {booked.estimate ? "Prix estimé" : "Prix"} TTC, pièces et main-d'œuvre comprises, confirmé après le
            diagnostic gratuit.
          </p>
        </>
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
        <details>
          <summary className="flex min-h-11 cursor-pointer items-center text-slate-100 hover:text-sky-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300">
            Vous connaissez la panne ? Choisissez la réparation
          </summary>
          <nav aria-label="Choisir la réparation">
            <ul className="mt-1 flex flex-col gap-1">
              {booked.choices.map((choice) => (
                <li key={choice.id}>
                  <Link to={bookingPath(booked.modelSlug, choice.id)} className={linkClass}>
                    {choice.label} ({formatPrice(choice.euros)})
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        </details>
      ) : null}
      <p className="text-sm text-slate-300">
        À l'atelier : {shop.name}, {formatAddress(shop.address)}.
      </p>
      {booked.brandPath && booked.modelSlug ? (
        <Link to={`${booked.brandPath}#${booked.modelSlug}`} className={`${linkClass} text-sm`} reloadDocument>
          Voir les autres réparations du modèle
        </Link>
      ) : (
        <Link to="/repair" className={`${linkClass} text-sm`} reloadDocument>
          Voir nos tarifs de réparation
        </Link>
      )}
    </aside>
  );
}
