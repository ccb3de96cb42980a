// @vitest-environment happy-dom
/**
 * Issue 40, mail honesty in the agenda: cancelling an appointment says the customer is told by e-mail only
 * when mail leaves the server; otherwise that they will not be, and to call them.
 */
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRoutesStub } from "react-router";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { forgetMailStatus } from "#app/go-live/use-mail-status.ts";
import { AppointmentCard } from "./appointment-card.tsx";
import type { AgendaAppointment } from "./context.ts";

const APPOINTMENT: AgendaAppointment = {
  id: "7b0c6c1e-8f0a-4d55-9d6b-1f1b0b7c9a11",
  status: "confirmed",
  startsAt: new Date(Date.now() + 3 * 24 * 3_600_000).toISOString(),
  endsAt: new Date(Date.now() + 3 * 24 * 3_600_000 + 1_800_000).toISOString(),
  modelSlug: null,
  modelName: "iPhone 12",
  repairId: null,
  repairLabel: "Écran",
  priceEuros: 89,
  priceEstimate: false,
  customerName: "Inès Morel",
  email: "ines@exemple.fr",
  phone: "06 12 34 56 78",
  note: null,
  cancelledBy: null,
  createdAt: new Date().toISOString(),
  repairCode: null,
};

async function askToCancel(configured: boolean) {
  vi.spyOn(globalThis, "fetch").mockResolvedValue(Response.json({ configured }));
  const Stub = createRoutesStub([
    {
      path: "/",
      Component: () => (
        <ul>
          <AppointmentCard
            appointment={APPOINTMENT}
            onConfirm={async () => true}
            onCancel={async () => true}
            onChanged={() => {}}
          />
        </ul>
      ),
    },
  ]);
  render(<Stub initialEntries={["/"]} />);
  await userEvent.click(await screen.findByRole("button", { name: "Annuler" }));
}

beforeEach(() => forgetMailStatus());

describe("cancelling an appointment", () => {
  it("says the customer is told by e-mail when mail leaves the server", async () => {
    await askToCancel(true);
    expect(
      await screen.findByText(/^Annuler ce rendez-vous \? Le client est prévenu par e-mail\.$/),
    ).toBeInTheDocument();
  });

  it("says the customer will not be told, and to call them, when mail is not configured", async () => {
    await askToCancel(false);
    expect(
      await screen.findByText(
        /Annuler ce rendez-vous \? L'envoi d'e-mails n'est pas configuré : le client ne sera pas prévenu, appelez-le\./,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/prévenu par e-mail/)).toBeNull();
  });
});
