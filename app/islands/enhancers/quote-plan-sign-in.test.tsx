// @vitest-environment happy-dom
/**
 * Issue 30 (docs/decisions/029-forms-as-islands-pages.md): the islands pages' enhancers, plain DOM code
 * run on the server-rendered forms (`data-enhance`), against the real markup of the components. Each
 * component is rendered to HTML as the server renders an islands page (`renderToString`, React never
 * runs in the document), so what is observed here is the enhancer's work alone:
 * - `quote-plan`: the plan named by `?offre=` selected, a « Choisir » link of the same page followed
 *   without a page load (the plan selected, the address updated, focus on the list), other links left alone;
 * - `sign-in`: a sign-in or sign-up sent from this tab noted for the signed-in page
 *   (`announcePendingSignIn`, once), and another tab's sign-in or sign-out reloading this page.
 * The enhancers add listeners to `window`, `document` and the tab's auth channel that no page ever removes:
 * each test removes those it added, so that no test sees another's detached form.
 */
import { describe, expect, it, vi } from "vitest";
import { QuoteForm } from "#app/components/forms/quote-form.tsx";
import { announcePendingSignIn } from "#app/remote-support/client/pending-sign-in.ts";
import { SignInPanel, type SignInMode } from "#app/remote-support/ui/sign-in.tsx";
import { enhance as enhanceQuotePlan } from "./quote-plan.ts";
import { enhance as enhanceSignIn } from "./sign-in.ts";

import { AUTH_CHANNEL, enhanced, renderPage, sandboxEachTest, submit } from "./test-page.tsx";

sandboxEachTest();

describe("quote-plan enhancer", () => {
  function renderQuoteForm() {
    renderPage("/dev-web", () => (
      <section id="devis">
        <QuoteForm />
      </section>
    ));
    const select = enhanced<HTMLSelectElement>("quote-plan");
    expect(select.value).toBe("");
    return select;
  }

  /** Clicks `link` (main button); true when the page's own listeners cancelled the navigation. */
  function click(link: HTMLAnchorElement, init: MouseEventInit = {}): boolean {
    let cancelled = false;
    // Last listener: reads what the page decided, then stops the test window from navigating.
    const read = (event: Event) => {
      cancelled = event.defaultPrevented;
      event.preventDefault();
    };
    document.addEventListener("click", read);
    link.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, button: 0, ...init }));
    document.removeEventListener("click", read);
    return cancelled;
  }

  function addLink(href: string): HTMLAnchorElement {
    const link = document.createElement("a");
    link.href = href;
    link.textContent = "Choisir";
    document.body.prepend(link);
    return link;
  }

  it("selects the plan named by ?offre= when the page loads", () => {
    const select = renderQuoteForm();
    history.replaceState(null, "", "/dev-web?offre=mail-10");
    enhanceQuotePlan(select);
    expect(select.value).toBe("mail-10");
    expect(new FormData(select.form!).get("emailOption")).toBe("mail-10");
  });

  it("changes nothing for an unknown ?offre=", () => {
    const select = renderQuoteForm();
    history.replaceState(null, "", "/dev-web?offre=mail-999");
    enhanceQuotePlan(select);
    expect(select.value).toBe("");
  });

  it("follows a « Choisir » link of the same page without loading it: plan selected, address kept, focus on the list", () => {
    const select = renderQuoteForm();
    history.replaceState(null, "", "/dev-web");
    enhanceQuotePlan(select);
    const changes: string[] = [];
    select.form!.addEventListener("change", () => changes.push(select.value));

    expect(click(addLink("/dev-web?offre=mail-50#devis"))).toBe(true);
    expect(select.value).toBe("mail-50");
    expect(changes).toEqual(["mail-50"]);
    expect(location.pathname).toBe("/dev-web");
    expect(location.search).toBe("?offre=mail-50");
    expect(location.hash).toBe("#devis");
    expect(select).toHaveFocus();

    // Another plan's link after it: that plan.
    expect(click(addLink("/dev-web?offre=mail-5#devis"))).toBe(true);
    expect(select.value).toBe("mail-5");
    expect(location.search).toBe("?offre=mail-5");
  });

  it("leaves other links alone: another page, an unknown plan, a click with a modifier", () => {
    const select = renderQuoteForm();
    history.replaceState(null, "", "/dev-web");
    enhanceQuotePlan(select);

    expect(click(addLink("/contact?offre=mail-50"))).toBe(false);
    expect(click(addLink("/dev-web?offre=mail-999#devis"))).toBe(false);
    expect(click(addLink("/dev-web?offre=mail-50#devis"), { ctrlKey: true })).toBe(false);
    expect(select.value).toBe("");
    expect(location.pathname + location.search).toBe("/dev-web");
    expect(select).not.toHaveFocus();
  });
});

describe("sign-in enhancer", () => {
  function renderPanel(mode: SignInMode) {
    renderPage("/soft-assist", () => <SignInPanel mode={mode} />);
    const panel = enhanced<HTMLElement>("sign-in");
    return { panel, post: panel.querySelector<HTMLFormElement>('form[method="post"]')! };
  }

  /** The next message another tab's channel receives. */
  function nextMessage(channel: BroadcastChannel): Promise<unknown> {
    return new Promise((resolve) =>
      channel.addEventListener("message", (event) => resolve((event as MessageEvent).data), { once: true }),
    );
  }

  it("notes a sign-in sent from this tab, which the signed-in page announces to the other tabs once", async () => {
    const { panel, post } = renderPanel("sign-in");
    expect(new FormData(post).get("intent")).toBe("sign-in");
    enhanceSignIn(panel);
    expect(announcePendingSignIn()).toBe(false);

    submit(post);
    const otherTab = new BroadcastChannel(AUTH_CHANNEL);
    try {
      const heard = nextMessage(otherTab);
      expect(announcePendingSignIn()).toBe(true);
      expect(await heard).toBe("signed-in");
      expect(announcePendingSignIn()).toBe(false);
    } finally {
      otherTab.close();
    }
  });

  it("notes a sign-up too", () => {
    const { panel, post } = renderPanel("sign-up");
    expect(new FormData(post).get("intent")).toBe("sign-up");
    enhanceSignIn(panel);
    submit(post);
    expect(announcePendingSignIn()).toBe(true);
    expect(announcePendingSignIn()).toBe(false);
  });

  it("notes nothing for a forgotten password, nor for a switch to another form", () => {
    const { panel, post } = renderPanel("forgot");
    expect(new FormData(post).get("intent")).toBe("forgot");
    enhanceSignIn(panel);
    submit(post);
    for (const form of panel.querySelectorAll<HTMLFormElement>('form[method="get"]')) submit(form);
    expect(announcePendingSignIn()).toBe(false);
  });

  it("reloads the page when another tab signs in or out", async () => {
    const { panel } = renderPanel("sign-in");
    let reloaded!: () => void;
    const reload = new Promise<void>((resolve) => (reloaded = resolve));
    const spy = vi.spyOn(location, "reload").mockImplementation(() => reloaded());
    enhanceSignIn(panel);
    expect(spy).not.toHaveBeenCalled();

    const otherTab = new BroadcastChannel(AUTH_CHANNEL);
    try {
      otherTab.postMessage("signed-out");
      await reload;
      expect(spy).toHaveBeenCalled();
    } finally {
      otherTab.close();
    }
  });
});
