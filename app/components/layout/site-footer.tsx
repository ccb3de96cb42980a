/** Footer (spec §2): company name, phone, e-mail, address, hours, © current year. */
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { servicesNav, WAYS_IN_TITLE, waysInNav } from "#app/config/navigation.ts";
import { formatAddress, formatOpeningHours, mailtoHref, mapsUrl, telHref } from "#app/config/shop.ts";
import { useShop } from "#app/shop/use-shop.ts";

/**
 * @param renderedYear the year the HTML was rendered (pre-rendered pages are
 * built once); the browser then shows its own current year.
 */
export function SiteFooter({ renderedYear }: { renderedYear: number }) {
  const shop = useShop();
  const [year, setYear] = useState(renderedYear);
  useEffect(() => setYear(new Date().getFullYear()), []);
  return (
    <footer className="border-t border-slate-800 bg-slate-950 text-slate-300">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-2 lg:grid-cols-4 lg:px-8">
        <div className="flex flex-col gap-2">
          <p className="text-lg font-bold text-white">{shop.name}</p>
          <p>{shop.tagline}</p>
          <address className="flex flex-col gap-1 not-italic">
            <a
              className="underline-offset-4 hover:underline"
              href={mapsUrl(shop.address)}
              rel="noopener"
              target="_blank"
            >
              {formatAddress(shop.address)}
              <span className="sr-only"> (ouvre un plan dans un nouvel onglet)</span>
            </a>
            <a className="underline-offset-4 hover:underline" href={telHref(shop)}>
              Tél. {shop.phone.display}
            </a>
            <a className="underline-offset-4 hover:underline" href={mailtoHref(shop)}>
              {shop.email}
            </a>
          </address>
        </div>
        <div>
          <h2 className="font-semibold text-white">Horaires</h2>
          <ul className="mt-2 flex flex-col gap-1">
            {formatOpeningHours(shop.openingHours).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
        <nav aria-label={WAYS_IN_TITLE}>
          <h2 className="font-semibold text-white">{WAYS_IN_TITLE}</h2>
          <ul className="mt-2 flex flex-col gap-1">
            {waysInNav.map((item) => (
              <li key={item.to}>
                <Link className="underline-offset-4 hover:underline" to={item.to}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-label="Nos services">
          <h2 className="font-semibold text-white">Nos services</h2>
          <ul className="mt-2 flex flex-col gap-1">
            {servicesNav.map((item) => (
              <li key={item.to}>
                <Link className="underline-offset-4 hover:underline" to={item.to}>
                  {item.label}
                </Link>
              </li>
            ))}
            <li>
              <Link className="underline-offset-4 hover:underline" to="/mentions-legales">
                Mentions légales
              </Link>
            </li>
          </ul>
        </nav>
      </div>
      <p className="border-t border-slate-800 py-5 text-center text-sm">
        © <span data-current-year>{year}</span> {shop.name}. Tous droits réservés.
      </p>
    </footer>
  );
}
