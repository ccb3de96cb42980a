/**
 * Issue 30 (decision 029): the plan choice of the /dev-web quote form on its islands page
 * (`data-enhance="quote-plan"` on the plan `<select>`), in plain DOM code. The page is rendered once
 * for every visitor, so its HTML cannot know the plan a « Choisir » link names (`?offre=`, see
 * `mailboxPlanQuoteHref`):
 * - on load, the plan named by the address is selected;
 * - a « Choisir » link followed on this page selects its plan without loading the page again, puts
 *   the address in the history, brings the form into view and moves focus to the plan list, so that
 *   keyboard and screen reader users land on the plan they chose.
 * An unknown plan changes nothing.
 */

/** The search parameter of the plan cards' links (`PLAN_PARAM` of `quote-form.tsx`). */
const PLAN_PARAM = "offre";

/** Selects `plan` if `select` offers it; true when it did. */
function choose(select: HTMLSelectElement, plan: string | null): boolean {
  if (!plan || ![...select.options].some((option) => option.value === plan)) return false;
  select.value = plan;
  select.dispatchEvent(new Event("change", { bubbles: true }));
  return true;
}

/** Enhances the plan list `element` (see the module comment). */
export function enhance(element: HTMLElement): void {
  if (!(element instanceof HTMLSelectElement)) return;
  const select = element;
  choose(select, new URLSearchParams(location.search).get(PLAN_PARAM));
  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    const link = (event.target as Element | null)?.closest?.("a[href]");
    if (!(link instanceof HTMLAnchorElement)) return;
    const url = new URL(link.href);
    if (url.origin !== location.origin || url.pathname !== location.pathname) return;
    if (!choose(select, url.searchParams.get(PLAN_PARAM))) return;
    event.preventDefault();
    history.pushState(null, "", url);
    const section = url.hash ? document.getElementById(decodeURIComponent(url.hash.slice(1))) : null;
    (section ?? select).scrollIntoView({ block: "start" });
    select.focus({ preventScroll: true });
  });
}
