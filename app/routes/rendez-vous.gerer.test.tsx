// @vitest-environment happy-dom
/**
 * Issue 40, the customer's appointment page (`/rendez-vous/gerer`) as its visitor sees it: one heading;
 * « À confirmer » explained; what to bring; the shop's address and number from its current identity (the
 * one the manager edits, not the defaults); the move grid folded under « Déplacer le rendez-vous » (open
 * after a week link or a refused move, the pages the server renders without JavaScript); cancelling an
 * outlined button, the filled one being « Déplacer à ce créneau ».
 */
import { render, screen, within } from "@testing-library/react";
import { createRoutesStub, Outlet } from "react-router";
import { describe, expect, it } from "vitest";
import type { ManagedAppointment } from "#app/booking/context.ts";
import { APPOINTMENT_STATUS_HELP, REQUESTED_HELP_WITHOUT_MAIL } from "#app/booking/schemas.ts";
import { TEST_DAYS } from "#app/booking/test-week.ts";
import { defaultShop, type ShopIdentity } from "#app/config/shop.ts";
import type { Route } from "./+types/rendez-vous.gerer";
import ManageAppointment from "./rendez-vous.gerer";

/** An identity edited in « Boutique »: another number and address than the defaults. */
const SHOP: ShopIdentity = {
  ...defaultShop,
  phone: { display: "04 72 11 22 33", e164: "+33472112233" },
  address: { ...defaultShop.address, street: "12 quai de Saône", postalCode: "69002", city: "Lyon" },
};

const APPOINTMENT: ManagedAppointment = {
  status: "requested",
  startsAt: TEST_DAYS[0]!.slots[0]!.start,
  endsAt: TEST_DAYS[0]!.slots[1]!.start,
  modelName: "iPhone 13",
  repairLabel: "Écran",
  priceEuros: 89,
  priceEstimate: false,
};

type Data = Route.ComponentProps["loaderData"];

/**
 * The page for `changes` of a requested appointment's data, and `actionData` after a refused post;
 * `mailConfigured` as the root loader says it (issue 40: whether the site e-mails customers).
 */
async function show(
  changes: Partial<Data> = {},
  actionData?: Route.ComponentProps["actionData"],
  mailConfigured = true,
) {
  const loaderData = {
    appointment: APPOINTMENT,
    cancelled: false,
    token: "jeton",
    week: { days: TEST_DAYS },
    notice: null,
    moving: false,
    ...changes,
  } as Data;
  const Stub = createRoutesStub([
    {
      id: "root",
      path: "/",
      loader: () => ({ shop: SHOP, mailConfigured }),
      Component: Outlet,
      HydrateFallback: () => null,
      children: [
        {
          path: "rendez-vous/gerer",
          Component: () => <ManageAppointment {...({ loaderData, actionData } as unknown as Route.ComponentProps)} />,
        },
      ],
    },
  ]);
  render(<Stub initialEntries={["/rendez-vous/gerer?jeton=jeton"]} />);
  await screen.findByRole("heading", { level: 1 });
}

const movePicker = () => screen.getByRole("group", { name: "Choisissez un nouveau créneau" });

describe("the appointment's page (issue 40)", () => {
  it("has one heading, explains « À confirmer », says what to bring, the shop's address and number", async () => {
    await show();
    expect(screen.getAllByRole("heading")).toHaveLength(1);
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent("Votre rendez-vous");
    expect(screen.queryByText("Mon rendez-vous")).toBeNull();
    expect(screen.getByText("À confirmer")).toBeVisible();
    expect(screen.getByText(APPOINTMENT_STATUS_HELP.requested)).toBeVisible();
    expect(screen.getByText(/Vous recevrez un e-mail de confirmation\.$/u)).toBeInTheDocument();
    expect(screen.getByText(/chargeur/u)).toBeVisible();
    expect(screen.getByText(/code de déverrouillage/u)).toBeVisible();
    expect(screen.getByRole("link", { name: /12 quai de Saône, 69002 Lyon/u })).toBeVisible();
    expect(screen.getByRole("link", { name: "04 72 11 22 33" })).toHaveAttribute("href", "tel:+33472112233");
    expect(screen.queryByText(new RegExp(defaultShop.phone.display))).toBeNull();
  });

  it("promises no mail when the site sends none: « À confirmer » and cancelling say what to do instead", async () => {
    await show({}, undefined, false);
    expect(screen.getByText(REQUESTED_HELP_WITHOUT_MAIL)).toBeVisible();
    expect(screen.queryByText(APPOINTMENT_STATUS_HELP.requested)).toBeNull();
    expect(screen.getByText("Le créneau sera libéré pour un autre client.")).toBeInTheDocument();
    expect(screen.queryByText(/e-mail/u)).toBeNull();
  });

  it("says the shop confirmed it once it has", async () => {
    await show({ appointment: { ...APPOINTMENT, status: "confirmed" } });
    expect(screen.getByText("Confirmé")).toBeVisible();
    expect(screen.getByText(APPOINTMENT_STATUS_HELP.confirmed)).toBeVisible();
    expect(screen.queryByText(APPOINTMENT_STATUS_HELP.requested)).toBeNull();
  });

  it("folds the move grid under « Déplacer le rendez-vous »", async () => {
    await show();
    expect(screen.getByText("Déplacer le rendez-vous")).toBeVisible();
    expect(movePicker()).not.toBeVisible();
    expect(screen.getByRole("button", { name: "Déplacer à ce créneau" })).not.toBeVisible();
  });

  it("opens it on another week (a week link)", async () => {
    await show({ moving: true });
    expect(movePicker()).toBeVisible();
  });

  it("opens it after a refused move, with the refusal in it", async () => {
    await show({}, { intent: "move", message: "Choisissez un créneau." });
    expect(movePicker()).toBeVisible();
    expect(within(movePicker()).getByRole("alert")).toHaveTextContent("Choisissez un créneau.");
  });

  it("makes cancelling an outlined button, moving the filled one", async () => {
    await show();
    const cancel = screen.getByRole("button", { name: "Confirmer l'annulation" });
    const move = screen.getByRole("button", { name: "Déplacer à ce créneau" });
    expect(move).toHaveClass("bg-sky-400");
    expect(cancel).not.toHaveClass("bg-sky-400");
    expect(cancel).toHaveClass("border");
  });

  it("shows a refused cancellation in the cancel fold, open", async () => {
    await show({}, { intent: "cancel", message: "Ce rendez-vous est passé : il ne peut plus être modifié en ligne." });
    const alert = screen.getByRole("alert");
    expect(alert).toHaveTextContent("Ce rendez-vous est passé");
    expect(alert).toBeVisible();
    expect(screen.getByRole("button", { name: "Confirmer l'annulation" })).toBeVisible();
    expect(movePicker()).not.toBeVisible();
  });
});
