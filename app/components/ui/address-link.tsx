/**
 * The shop's postal address as a link to its map (spec §2 "Contact"), opened
 * in a new tab, which screen readers are told about. Used by the contact page
 * and the mobile menu (issue 14: one block for both).
 */
import { formatAddress, mapsUrl } from "#app/config/shop.ts";
import { useShop } from "#app/shop/use-shop.ts";

/** `className` styles the link as its surroundings want (a body link, a menu entry). */
export function AddressLink({ className }: { className: string }) {
  const shop = useShop();
  return (
    <a className={className} href={mapsUrl(shop.address)} target="_blank" rel="noopener">
      {formatAddress(shop.address)}
      <span className="sr-only"> (ouvre un plan dans un nouvel onglet)</span>
    </a>
  );
}
