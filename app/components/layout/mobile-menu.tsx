/**
 * Full-screen mobile menu (spec §2 "Shared layout", issue 2).
 *
 * A native modal `<dialog>` opened by an invoker command, so it works from the
 * first paint, before hydration: the rest of the page becomes inert, Escape
 * closes it, and page scrolling is locked by CSS (`app.css`, `:has(dialog[open])`).
 * Once hydrated, Tab is wrapped inside it (focus never reaches the browser
 * chrome), it closes on every navigation, and the toggle's `aria-expanded`
 * follows the dialog. The dialog's own `open` state is the only state.
 * On the content pages, which are not hydrated (issue 16), `mobile-menu-dom.ts` gives the same
 * server-rendered markup the same behaviour (it closes by itself there: every link loads a page).
 */
import { Menu, X } from "lucide-react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { NavLink, useLocation } from "react-router";
import { AddressLink } from "#app/components/ui/address-link.tsx";
import { footerNav, mainNav, servicesNav, WAYS_IN_TITLE, waysInNav, type NavLinkItem } from "#app/config/navigation.ts";
import { mailtoHref, telHref } from "#app/config/shop.ts";
import { useShop } from "#app/shop/use-shop.ts";
import { cn } from "#app/utils/cn.ts";
import { supportsInvokerCommands, wrapFocus } from "./mobile-menu-dom.ts";

type GroupProps = { title: string; items: readonly NavLinkItem[]; onNavigate: () => void; children?: ReactNode };

function Group({ title, items, onNavigate, children }: GroupProps) {
  const id = `menu-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <nav aria-labelledby={id} className="flex flex-col gap-2">
      <h2 id={id} className="text-sm font-semibold tracking-wider text-sky-300 uppercase">
        {title}
      </h2>
      <ul className="flex flex-col">
        {items.map((item) => (
          <li key={item.to}>
            <NavLink
              to={item.to}
              end
              onClick={onNavigate}
              className={({ isActive }) => cn(plainLink, isActive && "bg-slate-800 text-sky-200")}
            >
              {item.label}
            </NavLink>
          </li>
        ))}
        {children}
      </ul>
    </nav>
  );
}

const plainLink = "block rounded-lg px-3 py-2.5 text-lg break-words text-slate-100 hover:bg-slate-800";

export function MobileMenu() {
  const shop = useShop();
  const [open, setOpen] = useState(false);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const location = useLocation();

  // The dialog is the source of truth: it may even have been opened before hydration.
  // (React's onToggle is not wired for <dialog>, hence the native listener.)
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const sync = () => setOpen(dialog.open);
    sync();
    dialog.addEventListener("toggle", sync);
    return () => dialog.removeEventListener("toggle", sync);
  }, []);

  // Close on every navigation (including Back/Forward), not only on link clicks. Not on the
  // first run: hydration must not close a menu the visitor opened before it.
  const shownLocation = useRef(location.key);
  useEffect(() => {
    if (shownLocation.current === location.key) return;
    shownLocation.current = location.key;
    if (dialogRef.current?.open) dialogRef.current.close();
  }, [location.key]);

  const close = () => dialogRef.current?.close();

  return (
    <>
      <button
        ref={toggleRef}
        type="button"
        command="show-modal"
        commandfor="menu-mobile"
        className="inline-flex size-11 items-center justify-center rounded-lg text-slate-100 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-sky-300 lg:hidden"
        aria-expanded={open}
        aria-controls="menu-mobile"
        aria-label="Ouvrir le menu"
        onClick={() => {
          // Browsers without invoker commands open it here.
          if (!supportsInvokerCommands() && !dialogRef.current?.open) dialogRef.current?.showModal();
        }}
      >
        <Menu aria-hidden="true" className="size-6" />
      </button>
      <dialog
        id="menu-mobile"
        ref={dialogRef}
        aria-label="Menu principal"
        onClose={() => {
          setOpen(false);
          toggleRef.current?.focus();
        }}
        onKeyDown={(event) => dialogRef.current && wrapFocus(event, dialogRef.current)}
        className="m-0 h-dvh max-h-none w-screen max-w-none overflow-y-auto bg-slate-950 text-slate-100 backdrop:bg-slate-950"
      >
        <div className="mx-auto flex min-h-full max-w-lg flex-col gap-8 px-6 py-5">
          <div className="flex items-center justify-between">
            <span className="text-lg font-bold text-white">{shop.name}</span>
            <button
              type="button"
              command="close"
              commandfor="menu-mobile"
              onClick={() => {
                if (!supportsInvokerCommands()) close();
              }}
              aria-label="Fermer le menu"
              className="inline-flex size-11 items-center justify-center rounded-lg hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-sky-300"
            >
              <X aria-hidden="true" className="size-6" />
            </button>
          </div>
          <Group title="Navigation" items={mainNav} onNavigate={close} />
          <Group title={WAYS_IN_TITLE} items={waysInNav} onNavigate={close} />
          <Group title="Nos services" items={servicesNav} onNavigate={close} />
          <Group title="Informations" items={footerNav} onNavigate={close}>
            <li>
              <a className={plainLink} href={telHref(shop)}>
                Appeler le {shop.phone.display}
              </a>
            </li>
            <li>
              <a className={plainLink} href={mailtoHref(shop)}>
                {shop.email}
              </a>
            </li>
            <li>
              <AddressLink className={plainLink} />
            </li>
          </Group>
        </div>
      </dialog>
    </>
  );
}
