/**
 * Issue 40: a link to a repair ticket in the dashboard, by its code. Its
 * address, `/soft-assist?reparation=UZFD-GY5Y`, opens the « Réparations »
 * view on that ticket (a new tab, a bookmark, a reload). Inside the
 * dashboard, which provides `ShowRepairContext`, a plain click switches
 * views in place instead: the page, its live connection and a remote
 * session in progress stay as they are.
 */
import { createContext, useContext, type ComponentPropsWithRef, type MouseEvent } from "react";
import { repairDashboardHref } from "./protocol.ts";

/** Shows ticket `code` in the dashboard's « Réparations » view; null outside the dashboard. */
export const ShowRepairContext = createContext<((code: string) => void) | null>(null);

type Props = Omit<ComponentPropsWithRef<"a">, "href"> & {
  /** The ticket's tracking code, "UZFD-GY5Y". */
  code: string;
};

/** An `<a>` to ticket `code` (its `ref` passed on, React 19); see the module comment. */
export function RepairLink({ code, onClick, ...props }: Props) {
  const show = useContext(ShowRepairContext);
  function follow(event: MouseEvent<HTMLAnchorElement>) {
    onClick?.(event);
    // A new tab or window (modifier keys, middle button) keeps the browser's own behaviour.
    if (!show || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    show(code);
  }
  return <a {...props} href={repairDashboardHref(code)} onClick={follow} />;
}
