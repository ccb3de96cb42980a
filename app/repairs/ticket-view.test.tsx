// @vitest-environment happy-dom
/**
 * Issue 18 §2, the ticket on /suivi: status, steps with fr-FR date and time
 * in the shop's time zone, the quote's two buttons only while it waits (with
 * the code and contact to check again), and the warranty once "Rendu".
 */
import { render, screen, within } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { PublicRepairTicket } from "./protocol.ts";
import { TicketView } from "./ticket-view.tsx";

const TICKET: PublicRepairTicket = {
  code: "R7K3-QXMA",
  modelName: "iPhone 12",
  repairLabel: "Écran",
  priceEuros: 89,
  afterBonus: null,
  status: "quote-pending",
  events: [
    { status: "received", note: null, at: "2026-11-24T09:05:00.000Z" },
    { status: "quote-pending", note: "La nappe est abîmée aussi.", at: "2026-11-24T13:30:00.000Z" },
  ],
  quote: { description: "Nappe de l'écran", amountEuros: 35, decision: null, decidedAt: null },
  warrantyUntil: null,
};

function show(ticket: PublicRepairTicket) {
  const Stub = createRoutesStub([
    { path: "/suivi", Component: () => <TicketView ticket={ticket} contact="lea@exemple.fr" /> },
  ]);
  return render(<Stub initialEntries={["/suivi"]} />);
}

describe("TicketView", () => {
  it("shows the steps in the shop's time and the quote's buttons while it waits", async () => {
    const { container } = show(TICKET);
    expect(await screen.findByRole("heading", { name: "Réparation R7K3-QXMA" })).toBeInTheDocument();
    expect(screen.getByTestId("statut")).toHaveTextContent("Devis à valider");
    const steps = within(screen.getByRole("list")).getAllByRole("listitem");
    expect(steps.map((step) => step.textContent)).toEqual([
      "Reçu24/11/2026 à 10:05",
      "Devis à valider24/11/2026 à 14:30La nappe est abîmée aussi.",
    ]);
    expect(screen.getByText(/Montant : 35\s€ TTC/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Accepter le devis" })).toHaveAttribute("value", "accepted");
    expect(screen.getByRole("button", { name: "Refuser le devis" })).toHaveAttribute("value", "refused");
    expect(container.querySelector('input[name="contact"]')).toHaveValue("lea@exemple.fr");
    expect(screen.queryByText(/Garantie/)).toBeNull();
  });

  it("shows the answer instead of the buttons, and the warranty once « Rendu »", async () => {
    show({
      ...TICKET,
      status: "returned",
      quote: { ...TICKET.quote!, decision: "accepted", decidedAt: "2026-11-24T15:00:00.000Z" },
      warrantyUntil: "2027-11-26",
    });
    expect(await screen.findByText("Devis accepté le 24/11/2026 à 16:00.")).toBeInTheDocument();
    expect(screen.queryByRole("button")).toBeNull();
    expect(screen.getByText(/Garantie jusqu'au 26 novembre 2027/)).toBeInTheDocument();
  });
});
