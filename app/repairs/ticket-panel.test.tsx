// @vitest-environment happy-dom
/**
 * Issue 40, a ticket's panel in the dashboard against a stubbed API: the
 * price is the accepted quote's (149 €), the announced 119 € struck as
 * « Estimation initiale »; « État au dépôt » and « Accessoires laissés »,
 * « — » on a ticket opened without them, are filled in with a small form
 * (« Enregistrer » posts both to the drop-off path) and then shown; the
 * server's French refusal shows by its field, the values unchanged; no form
 * once the ticket is closed.
 */
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { forgetMailStatus } from "#app/go-live/use-mail-status.ts";
import type { StaffRepairTicket } from "./protocol.ts";
import { TicketPanel } from "./ticket-panel.tsx";
import { STAFF_TICKET } from "./ticket-testing.ts";

/** The shared just-opened ticket, opened from an appointment, with its first step and the catalogue's price. */
const TICKET: StaffRepairTicket = {
  ...STAFF_TICKET,
  events: [{ status: "received", note: null, at: "2026-11-24T09:05:00.000Z", quote: null, authorName: "Camille Tech" }],
  appointmentId: "5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  catalogue: { model: "iPhone 13", repair: "Écran", price: "119 €" },
};

/** The panel as the « Réparations » view keeps it: the server's answers replace the ticket. */
function Panel({ initial }: { initial: StaffRepairTicket }) {
  const [ticket, setTicket] = useState(initial);
  return <TicketPanel ticket={ticket} onChanged={setTicket} />;
}

/** A fetch stub: the panel's mail status read (issue 40) answers « configured », every other call `answer`. */
function stubApi(answer: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>) {
  forgetMailStatus();
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) =>
    String(input).includes("/api/mail/status") ? Response.json({ configured: true }) : answer(input, init),
  );
}

// No test reaches a network: a call nobody stubbed is answered 404.
beforeEach(() => stubApi(async () => Response.json({ message: "non prévu" }, { status: 404 })));

/** The `<dd>` after the `<dt>` named `term`. */
const definition = (term: string) => screen.getByText(term, { selector: "dt" }).nextElementSibling as HTMLElement;

describe("TicketPanel", () => {
  it("shows the accepted quote's 149 € as the price, the announced 119 € struck as « Estimation initiale »", () => {
    render(
      <Panel
        initial={{
          ...TICKET,
          status: "repairing",
          priceEuros: 149,
          priceFromQuote: true,
          estimateEuros: 119,
          quote: { description: "Écran et nappe", amountEuros: 149, decision: "accepted", decidedAt: TICKET.createdAt },
          quoteDecidedBy: "client",
        }}
      />,
    );
    expect(definition("Appareil").textContent).toMatch(
      /^iPhone 13 · Écran · 149\s€, devis accepté\s*Estimation initiale : 119\s€$/u,
    );
    expect(within(definition("Appareil")).getByText(/^119\s€$/u).tagName).toBe("S");
  });

  it("fills in « État au dépôt » and « Accessoires laissés », then shows them instead of « — »", async () => {
    const user = userEvent.setup();
    const posted: { url: string; body: unknown }[] = [];
    stubApi(async (input, init) => {
      const body = JSON.parse(String(init?.body)) as { conditionNotes: string; accessories: string };
      posted.push({ url: String(input), body });
      return Response.json({ ticket: { ...TICKET, ...body, updatedAt: "2026-11-24T10:00:00.000Z" } });
    });
    render(<Panel initial={TICKET} />);
    expect(definition("État au dépôt")).toHaveTextContent(/^—$/u);
    expect(definition("Accessoires laissés")).toHaveTextContent(/^—$/u);

    const toggle = screen.getByRole("button", { name: "Modifier l'état au dépôt et les accessoires" });
    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    const form = screen.getByRole("form", { name: "État au dépôt et accessoires" });
    const state = within(form).getByRole("textbox", { name: "État au dépôt" });
    expect(state).toHaveFocus();
    await user.type(state, "Coin supérieur fissuré");
    await user.type(within(form).getByRole("textbox", { name: "Accessoires laissés" }), "Chargeur, coque");
    await user.click(within(form).getByRole("button", { name: "Enregistrer" }));

    expect(await screen.findByText("État au dépôt et accessoires enregistrés.")).toHaveAttribute("role", "status");
    expect(posted).toEqual([
      {
        url: `/api/repairs/${TICKET.id}/drop-off`,
        body: { conditionNotes: "Coin supérieur fissuré", accessories: "Chargeur, coque" },
      },
    ]);
    expect(definition("État au dépôt")).toHaveTextContent(/^Coin supérieur fissuré$/u);
    expect(definition("Accessoires laissés")).toHaveTextContent(/^Chargeur, coque$/u);
    expect(screen.queryByRole("form", { name: "État au dépôt et accessoires" })).toBeNull();
    expect(toggle).toHaveFocus();

    // Opened again, the form holds the values as saved.
    await user.click(toggle);
    expect(screen.getByRole("textbox", { name: "Accessoires laissés" })).toHaveValue("Chargeur, coque");
  });

  it("shows the server's refusal by its field and keeps the values shown", async () => {
    const user = userEvent.setup();
    const message = "Ce champ ne doit pas dépasser 500 caractères.";
    stubApi(async () => Response.json({ message, fieldErrors: { accessories: message } }, { status: 400 }));
    render(<Panel initial={{ ...TICKET, accessories: "Coque" }} />);
    await user.click(screen.getByRole("button", { name: "Modifier l'état au dépôt et les accessoires" }));
    await user.click(screen.getByRole("button", { name: "Enregistrer" }));
    const accessories = screen.getByRole("textbox", { name: "Accessoires laissés" });
    await waitFor(() => expect(accessories).toHaveAttribute("aria-invalid", "true"));
    expect(screen.getAllByRole("alert").map((alert) => alert.textContent)).toContain(message);
    expect(accessories).toHaveAccessibleDescription(message);
    expect(definition("Accessoires laissés")).toHaveTextContent(/^Coque$/u);
  });

  it("offers no edit once the device is given back", () => {
    render(<Panel initial={{ ...TICKET, status: "returned", accessories: "Coque", warrantyUntil: "2027-11-24" }} />);
    expect(definition("Accessoires laissés")).toHaveTextContent(/^Coque$/u);
    expect(screen.queryByRole("button", { name: /Modifier l'état au dépôt/u })).toBeNull();
  });
});

describe("the status note's label (issue 40, mail honesty)", () => {
  beforeEach(() => forgetMailStatus());

  it("promises a mail only when mail leaves the server", async () => {
    vi.spyOn(globalThis, "fetch").mockResolvedValue(Response.json({ configured: true }));
    render(<Panel initial={TICKET} />);
    expect(await screen.findByLabelText(/^Note pour le client \(facultative, envoyée par e-mail\)$/u)).toBeVisible();
  });

  it("says plainly that mail is not configured, and to call the customer", async () => {
    vi.spyOn(globalThis, "fetch").mockResolvedValue(Response.json({ configured: false }));
    render(<Panel initial={TICKET} />);
    expect(await screen.findByLabelText(/l'envoi d'e-mails n'est pas configuré : appelez le client/u)).toBeVisible();
    expect(screen.queryByLabelText(/envoyée par e-mail/u)).toBeNull();
  });
});

describe("after a change without mail (issue 40, mail honesty)", () => {
  it("says no mail left and to call the customer, instead of « Le client a reçu un e-mail »", async () => {
    forgetMailStatus();
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input) =>
      String(input).includes("/api/mail/status")
        ? Response.json({ configured: false })
        : Response.json({ ticket: { ...TICKET, status: "diagnosis" } }),
    );
    render(<Panel initial={TICKET} />);
    await screen.findByLabelText(/appelez le client/u);
    await userEvent.click(screen.getByRole("button", { name: "Changer le statut" }));
    expect(await screen.findByText(/^Statut : Diagnostic\. Aucun e-mail n'est parti : prévenez/u)).toBeVisible();
    expect(screen.queryByText(/a reçu un e-mail/u)).toBeNull();
  });
});

describe("a second quote (issue 40)", () => {
  const accepted = { description: "Écran et nappe", amountEuros: 149 };
  const repairing: StaffRepairTicket = {
    ...TICKET,
    status: "repairing",
    priceEuros: 149,
    priceFromQuote: true,
    estimateEuros: 119,
    quote: { ...accepted, decision: "accepted", decidedAt: "2026-11-24T15:00:00.000Z" },
    quoteDecidedBy: "client",
    events: [
      ...TICKET.events,
      {
        status: "quote-pending",
        note: null,
        at: "2026-11-24T14:00:00.000Z",
        quote: accepted,
        authorName: "Camille Tech",
      },
      {
        status: "repairing",
        note: "Devis accepté par le client.",
        at: "2026-11-24T15:00:00.000Z",
        quote: accepted,
        authorName: null,
      },
    ],
  };

  it("says that the accepted 149 € stays the price until the new quote is accepted", () => {
    render(<Panel initial={repairing} />);
    const form = screen.getByRole("form", { name: "Saisir un devis" });
    expect(
      within(form).getByText(/^Le client a accepté un devis de 149\s€\. .*149\s€ reste le prix convenu tant que/u),
    ).toBeVisible();
  });

  it("keeps each quote under the step that sent or answered it", () => {
    render(<Panel initial={repairing} />);
    const steps = within(screen.getByRole("list", { name: "Étapes de la réparation" })).getAllByRole("listitem");
    expect(
      steps.map((step) =>
        within(step)
          .queryByText(/^Devis : /u)
          ?.textContent?.replace(/\s/gu, " "),
      ),
    ).toEqual([undefined, "Devis : Écran et nappe · 149 €", "Devis : Écran et nappe · 149 €"]);
  });
});
