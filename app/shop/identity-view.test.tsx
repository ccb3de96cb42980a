// @vitest-environment happy-dom
/**
 * Issue 40: after « Enregistrer » in « Boutique », the page's own footer shows the new phone number at once
 * (the root loader is read again), and nothing around the view is remounted: the dashboard's open view and
 * what was typed elsewhere stay. Under the form, « Envoyer un e-mail de test » says what the server answered.
 */
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { createMemoryRouter, Outlet, RouterProvider } from "react-router";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { SiteFooter } from "#app/components/layout/site-footer.tsx";
import { defaultShop, type ShopIdentity } from "#app/config/shop.ts";
import { ShopIdentitySchema, toIdentityInput } from "#app/config/shop-schema.ts";
import { forgetMailStatus } from "#app/go-live/use-mail-status.ts";
import ShopIdentityView from "./identity-view.tsx";

/** What the fake server holds; the PUT replaces it, as `server/shop/identity.ts` does. */
let stored: ShopIdentity;
let rootLoads = 0;

function fakeServer(testMail: { status: number; body: unknown } = { status: 200, body: {} }) {
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = String(input);
    if (url === "/api/shop/identity" && init?.method === "PUT") {
      stored = ShopIdentitySchema.parse(JSON.parse(String(init.body)));
      return Response.json({ identity: { values: toIdentityInput(stored), updatedAt: new Date().toISOString() } });
    }
    if (url === "/api/shop/identity")
      return Response.json({ identity: { values: toIdentityInput(stored), updatedAt: null } });
    if (url === "/api/mail/status") return Response.json({ configured: false });
    if (url === "/api/mail/test") return Response.json(testMail.body, { status: testMail.status });
    return Response.json({ message: "inconnu" }, { status: 404 });
  });
}

/** A dashboard-like page: its own state (the open view, a note being typed), the view, and the real footer. */
function Dashboard() {
  const [view, setView] = useState("sessions");
  return (
    <>
      <button type="button" aria-pressed={view === "shop"} onClick={() => setView("shop")}>
        Boutique
      </button>
      <label>
        Note <input />
      </label>
      {view === "shop" ? <ShopIdentityView /> : null}
    </>
  );
}

function renderPage() {
  const router = createMemoryRouter([
    {
      id: "root",
      path: "/",
      loader: () => {
        rootLoads += 1;
        return { shop: stored };
      },
      Component: () => (
        <>
          <Outlet />
          <SiteFooter renderedYear={2026} />
        </>
      ),
      children: [{ index: true, Component: Dashboard }],
    },
  ]);
  return render(<RouterProvider router={router} />);
}

beforeEach(() => {
  stored = defaultShop;
  rootLoads = 0;
  forgetMailStatus();
});

describe("« Boutique » and the page around it", () => {
  it("shows the saved phone in the footer at once, keeping the open view and what was typed", async () => {
    const user = userEvent.setup();
    fakeServer();
    renderPage();
    const footer = await screen.findByRole("contentinfo");
    expect(within(footer).getByText("Tél. 01 99 00 12 34")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Boutique" }));
    await user.type(screen.getByRole("textbox", { name: "Note" }), "rappeler M. Morel");
    const phone = await screen.findByRole("textbox", { name: /^Téléphone\s*\*?$/ });
    await user.clear(phone);
    await user.type(phone, "0472112233");
    const loadsBefore = rootLoads;
    await user.click(screen.getByRole("button", { name: "Enregistrer" }));

    await waitFor(() => expect(within(footer).getByText("Tél. 04 72 11 22 33")).toBeInTheDocument());
    expect(rootLoads).toBe(loadsBefore + 1);
    expect(screen.getByRole("button", { name: "Boutique" })).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByRole("textbox", { name: "Note" })).toHaveValue("rappeler M. Morel");
    expect(screen.getByText("Les informations de la boutique sont enregistrées.")).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: /^Téléphone\s*\*?$/ })).toHaveValue("04 72 11 22 33");
  });

  it("says plainly that mail is not configured, and what the test mail's answer was", async () => {
    const user = userEvent.setup();
    const message = "L'envoi d'e-mails n'est pas configuré : aucun e-mail de test n'a été envoyé.";
    fakeServer({ status: 409, body: { outcome: "not-configured", message } });
    renderPage();
    await user.click(await screen.findByRole("button", { name: "Boutique" }));
    const panel = await screen.findByRole("region", { name: "Envoi des e-mails" });
    expect(
      await within(panel).findByText(/^L'envoi d'e-mails n'est pas configuré : les e-mails sont seulement écrits/),
    ).toBeInTheDocument();
    await user.click(within(panel).getByRole("button", { name: "Envoyer un e-mail de test" }));
    expect(await within(panel).findByRole("alert")).toHaveTextContent(message);
  });
});
