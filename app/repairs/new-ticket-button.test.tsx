// @vitest-environment happy-dom
/**
 * Issue 40, « Ouvrir une réparation » on an appointment, against a stubbed
 * API: the sentence that says the ticket is open (a `role="status"` region)
 * links to it in the dashboard by its code, and the focus moves to that
 * link (the button is disabled once the ticket exists). Inside the
 * dashboard (`ShowRepairContext`) a click shows the ticket in place; a
 * refusal is said in the same region, without a link, and a 409 asks the
 * agenda to reload; an appointment that has its ticket links to it instead.
 */
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { StaffRepairTicket } from "./protocol.ts";
import { NewTicketButton } from "./new-ticket-button.tsx";
import { ShowRepairContext } from "./repair-link.tsx";

const APPOINTMENT = "5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
const opened = { ticket: { id: "0b6f3c1e-2d4a-4c8e-9f10-7a2b3c4d5e6f", code: "UZFD-GY5Y" } as StaffRepairTicket };

describe("NewTicketButton", () => {
  it("links the sentence to the new ticket by its code, and moves the focus to that link", async () => {
    const user = userEvent.setup();
    const fetch = vi.spyOn(globalThis, "fetch").mockResolvedValue(Response.json(opened, { status: 201 }));
    const show = vi.fn();
    render(
      <ShowRepairContext value={show}>
        <NewTicketButton appointmentId={APPOINTMENT} />
      </ShowRepairContext>,
    );
    await user.click(screen.getByRole("button", { name: "Ouvrir une réparation" }));

    const status = await screen.findByRole("status");
    await waitFor(() =>
      expect(status).toHaveTextContent(
        "Réparation UZFD-GY5Y ouverte : le client a reçu son code de suivi. Voir la réparation UZFD-GY5Y",
      ),
    );
    const link = within(status).getByRole("link", { name: "Voir la réparation UZFD-GY5Y" });
    expect(link).toHaveAttribute("href", "/soft-assist?reparation=UZFD-GY5Y");
    await waitFor(() => expect(link).toHaveFocus());
    expect(screen.getByRole("button", { name: "Ouvrir une réparation" })).toBeDisabled();
    expect(JSON.parse(String(fetch.mock.calls[0]![1]!.body))).toEqual({ appointmentId: APPOINTMENT });

    // In the dashboard, a click shows the ticket without leaving the page.
    await user.click(link);
    expect(show).toHaveBeenCalledWith("UZFD-GY5Y");
    expect(window.location.search).toBe("");
  });

  it("says the server's refusal in the same region, without a link, and lets the technician try again", async () => {
    const user = userEvent.setup();
    const message = "Une réparation est déjà ouverte pour ce rendez-vous (code UZFD-GY5Y).";
    vi.spyOn(globalThis, "fetch").mockResolvedValue(Response.json({ message }, { status: 409 }));
    render(<NewTicketButton appointmentId={APPOINTMENT} />);
    await user.click(screen.getByRole("button", { name: "Ouvrir une réparation" }));
    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent(message));
    expect(screen.queryByRole("link")).toBeNull();
    expect(screen.getByRole("button", { name: "Ouvrir une réparation" })).toBeEnabled();
  });

  it("asks the agenda to reload after that refusal: another technician opened the ticket meanwhile", async () => {
    const user = userEvent.setup();
    vi.spyOn(globalThis, "fetch").mockResolvedValue(Response.json({ message: "déjà ouverte" }, { status: 409 }));
    const reload = vi.fn();
    render(<NewTicketButton appointmentId={APPOINTMENT} onOpened={reload} />);
    await user.click(screen.getByRole("button", { name: "Ouvrir une réparation" }));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
  });

  it("links to the ticket already opened from the appointment instead of offering to open one (after a reload)", () => {
    const fetch = vi.spyOn(globalThis, "fetch");
    render(<NewTicketButton appointmentId={APPOINTMENT} openedCode="UZFD-GY5Y" />);
    expect(screen.queryByRole("button", { name: "Ouvrir une réparation" })).toBeNull();
    expect(screen.getByText(/^Réparation UZFD-GY5Y ouverte pour ce rendez-vous\./u)).toBeVisible();
    expect(screen.getByRole("link", { name: "Voir la réparation UZFD-GY5Y" })).toHaveAttribute(
      "href",
      "/soft-assist?reparation=UZFD-GY5Y",
    );
    expect(fetch).not.toHaveBeenCalled();
  });
});
