// @vitest-environment happy-dom
/**
 * Issue 18 §2 and issue 30, the ticket on /suivi: status, the steps done
 * (fr-FR date and time in the shop's time zone) and to come, the current one
 * `aria-current="step"`; the quote's answer in two steps, the question
 * showing the amount and nothing posted before « Confirmer », with the code,
 * contact and amount posted then; the warranty once "Rendu"; the bonus
 * réparation's explanation beside its line. Issue 40: the price is the
 * accepted quote's, the announced one struck as « Estimation initiale ».
 */
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { describe, expect, it, vi } from "vitest";
import type { PublicRepairTicket } from "./protocol.ts";
import type { QuoteDecision } from "./statuses.ts";
import { TicketView } from "./ticket-view.tsx";

const TICKET: PublicRepairTicket = {
  code: "R7K3-QXMA",
  modelName: "iPhone 12",
  repairLabel: "Écran",
  priceEuros: 89,
  priceFromQuote: false,
  estimateEuros: null,
  afterBonus: null,
  status: "quote-pending",
  events: [
    { status: "received", note: null, at: "2026-11-24T09:05:00.000Z", quote: null },
    {
      status: "quote-pending",
      note: "La nappe est abîmée aussi.",
      at: "2026-11-24T13:30:00.000Z",
      quote: { description: "Nappe de l'écran", amountEuros: 149 },
    },
  ],
  quote: { description: "Nappe de l'écran", amountEuros: 149, decision: null, decidedAt: null },
  warrantyUntil: null,
};

/** Renders the ticket at /suivi; `posted` receives every form the page's action gets. */
function show(ticket: PublicRepairTicket, asking: QuoteDecision | null = null) {
  const posted: Record<string, string>[] = [];
  const action = vi.fn(async ({ request }: { request: Request }) => {
    posted.push(Object.fromEntries(new URLSearchParams(await request.text())));
    return null;
  });
  const Stub = createRoutesStub([
    {
      path: "/suivi",
      action,
      Component: () => <TicketView ticket={ticket} contact="lea@exemple.fr" asking={asking} />,
    },
  ]);
  return { ...render(<Stub initialEntries={["/suivi"]} />), posted, action };
}

const steps = () => within(screen.getByRole("region", { name: "Étapes" })).getAllByRole("listitem");

describe("TicketView", () => {
  it("lists the steps done with their time, then the steps to come, the current one marked", async () => {
    show(TICKET);
    expect(await screen.findByRole("heading", { name: "Réparation R7K3-QXMA" })).toBeInTheDocument();
    expect(screen.getByTestId("statut")).toHaveTextContent("Devis à valider");
    expect(within(screen.getByRole("region", { name: "Étapes" })).getByRole("list").tagName).toBe("OL");
    expect(steps().map((step) => step.textContent?.replace(/\s/gu, " "))).toEqual([
      "Reçu24/11/2026 à 10:05",
      "Devis à valider (étape actuelle)24/11/2026 à 14:30La nappe est abîmée aussi.Devis : Nappe de l'écran · 149 €",
      "En réparation (à venir)",
      "Prêt à récupérer (à venir)",
      "Rendu (à venir)",
    ]);
    expect(steps().map((step) => step.getAttribute("aria-current"))).toEqual([null, "step", null, null, null]);
    expect(screen.getByText(/Montant : 149\s€ TTC/)).toBeInTheDocument();
    expect(screen.queryByText(/Garantie/)).toBeNull();
  });

  it("asks « Accepter le devis de 149 € ? » and posts nothing before « Confirmer l'acceptation »", async () => {
    const { posted, action } = show(TICKET);
    fireEvent.click(await screen.findByRole("button", { name: "Accepter le devis" }));
    const question = screen.getByRole("group", { name: /^Accepter le devis de 149\s€\s?\?$/u });
    expect(question).toHaveTextContent("Nous poursuivrons la réparation pour ce montant TTC.");
    await waitFor(() => expect(document.activeElement).toHaveTextContent(/^Accepter le devis de 149/u));
    expect(screen.queryByRole("button", { name: "Accepter le devis" })).toBeNull();
    expect(action).not.toHaveBeenCalled();

    // « Annuler » goes back to the two buttons, focus on the one clicked, still without a request.
    fireEvent.click(within(question).getByRole("button", { name: "Annuler" }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("button", { name: "Accepter le devis" })));
    expect(action).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole("button", { name: "Accepter le devis" }));
    fireEvent.click(screen.getByRole("button", { name: "Confirmer l'acceptation" }));
    await waitFor(() => expect(action).toHaveBeenCalledTimes(1));
    expect(posted).toEqual([
      { code: "R7K3-QXMA", contact: "lea@exemple.fr", amountEuros: "149", decision: "accepted" },
    ]);
  });

  it("asks the same before refusing", async () => {
    const { posted, action } = show(TICKET);
    fireEvent.click(await screen.findByRole("button", { name: "Refuser le devis" }));
    const question = screen.getByRole("group", { name: /^Refuser le devis de 149\s€\s?\?$/u });
    expect(action).not.toHaveBeenCalled();
    fireEvent.click(within(question).getByRole("button", { name: "Confirmer le refus" }));
    await waitFor(() => expect(action).toHaveBeenCalledTimes(1));
    expect(posted[0]).toMatchObject({ decision: "refused", amountEuros: "149" });
  });

  it("works without JavaScript: the first step and « Annuler » post back to #devis, the server's question shows", async () => {
    const { container } = show(TICKET);
    const accept = await screen.findByRole("button", { name: "Accepter le devis" });
    expect(accept).toHaveAttribute("name", "confirm");
    expect(accept).toHaveAttribute("value", "accepted");
    expect(accept.getAttribute("formaction")).toMatch(/\/suivi#devis$/);
    expect(screen.getByRole("button", { name: "Refuser le devis" })).toHaveAttribute("value", "refused");
    expect(container.querySelector('input[name="contact"]')).toHaveValue("lea@exemple.fr");
    expect(container.querySelector("#devis")).toBe(screen.getByRole("region", { name: "Devis" }));

    show(TICKET, "accepted");
    const question = (await screen.findAllByRole("group", { name: /^Accepter le devis de 149/u }))[0]!;
    expect(within(question).getByRole("button", { name: "Confirmer l'acceptation" })).toHaveAttribute(
      "value",
      "accepted",
    );
    expect(within(question).getByRole("button", { name: "Annuler" }).getAttribute("formaction")).toMatch(/#devis$/);
  });

  it("shows the answer instead of the buttons, and the warranty once « Rendu », with nothing to come", async () => {
    show({
      ...TICKET,
      status: "returned",
      quote: { ...TICKET.quote!, decision: "accepted", decidedAt: "2026-11-24T15:00:00.000Z" },
      warrantyUntil: "2027-11-26",
    });
    expect(await screen.findByText("Devis accepté le 24/11/2026 à 16:00.")).toBeInTheDocument();
    expect(screen.queryByRole("button")).toBeNull();
    expect(screen.getByText(/Garantie jusqu'au 26 novembre 2027/)).toBeInTheDocument();
    expect(steps().at(-1)).toHaveAttribute("aria-current", "step");
    expect(screen.queryByText(/à venir/)).toBeNull();
  });

  // Issue 40: a 149 € quote accepted for a repair announced at 119 € makes 149 € the price.
  it("shows the accepted quote's amount as the price, the announced one struck as « Estimation initiale »", async () => {
    show({
      ...TICKET,
      status: "repairing",
      priceEuros: 149,
      priceFromQuote: true,
      estimateEuros: 119,
      quote: { ...TICKET.quote!, decision: "accepted", decidedAt: "2026-11-24T15:00:00.000Z" },
    });
    const repair = (await screen.findByText("Réparation", { selector: "dt" })).nextElementSibling!;
    expect(repair.textContent).toMatch(/^Écran \(149\s€, devis accepté\)Estimation initiale : 119\s€$/u);
    expect(within(repair as HTMLElement).getByText(/^119\s€$/u).tagName).toBe("S");
    expect(screen.queryByText(/annoncée/u)).toBeNull();
  });

  it("says that a new quote after an accepted one replaces the agreed price, rather than adding to it", async () => {
    show({
      ...TICKET,
      priceEuros: 149,
      priceFromQuote: true,
      estimateEuros: 89,
      quote: { ...TICKET.quote!, amountEuros: 199 },
    });
    expect(
      await screen.findByText(
        /^Si vous l'acceptez, ce montant devient le prix total de la réparation, à la place de 149\s€\.$/u,
      ),
    ).toBeVisible();
  });

  it("says nothing of it for a first quote", async () => {
    show(TICKET);
    await screen.findByText(/Montant : 149\s€ TTC/u);
    expect(screen.queryByText(/prix total de la réparation/u)).toBeNull();
  });

  it("says the announced price while no quote was accepted, with nothing struck", async () => {
    show(TICKET);
    const repair = (await screen.findByText("Réparation", { selector: "dt" })).nextElementSibling!;
    expect(repair.textContent).toMatch(/^Écran \(annoncée 89\s€\)$/u);
    expect(screen.queryByText(/Estimation initiale/u)).toBeNull();
  });

  it("explains the bonus réparation where its line shows, with the official link", async () => {
    show({ ...TICKET, afterBonus: "64 € après bonus réparation" });
    expect(await screen.findByText("64 € après bonus réparation")).toBeInTheDocument();
    expect(screen.getByText(/^Qu'est-ce que le bonus réparation/u).closest("details")).not.toBeNull();
    expect(screen.getByRole("link", { name: /site officiel/u })).toHaveAttribute(
      "href",
      "https://www.ecologie.gouv.fr/politiques-publiques/bonus-reparation",
    );
  });

  it("has no bonus explanation without the line", async () => {
    show(TICKET);
    await screen.findByRole("heading", { name: "Réparation R7K3-QXMA" });
    expect(screen.queryByText(/bonus réparation/u)).toBeNull();
  });
});
