/**
 * Issue 30 §3: the `.ics` invitation says what the shop has settled. A booking « À confirmer » is
 * TENTATIVE in the customer's calendar, CONFIRMED only once the shop confirmed it, and CANCELLED (with a
 * CANCEL method) once cancelled; the mails' attachments and the page's download are the same text.
 */
import { describe, expect, it } from "vitest";
import { composeCustomerMail, invitation, type AppointmentRow, type BookingMailSettings } from "./mails.ts";

const SETTINGS: BookingMailSettings = { shopEmail: "atelier@exemple.fr", publicUrl: "https://atelier.example" };

/** A booking of Tuesday 24 November 2026, 09:00–09:30 in Paris, in state `status`. */
function row(status: AppointmentRow["status"]): AppointmentRow {
  const at = new Date("2026-11-23T08:00:00Z");
  return {
    id: "0b6f1f5e-3c1a-4c55-9a43-6d2d2b1f9a10",
    startsAt: new Date("2026-11-24T08:00:00Z"),
    endsAt: new Date("2026-11-24T08:30:00Z"),
    status,
    modelSlug: "iphone-13",
    modelName: "iPhone 13",
    repairId: "ecran",
    repairLabel: "Écran",
    priceEuros: 89,
    priceEstimate: false,
    customerName: "Léa Martin",
    email: "lea@exemple.fr",
    phone: "06 12 34 56 78",
    note: null,
    userId: null,
    confirmedAt: status === "confirmed" ? at : null,
    cancelledAt: status === "cancelled" ? at : null,
    cancelledBy: status === "cancelled" ? "customer" : null,
    revision: status === "requested" ? 0 : 1,
    linkVersion: 0,
    formKey: null,
    createdAt: at,
    updatedAt: at,
  };
}

/** The lines of an iCalendar text that start with `name:` (unfolded lines are short here). */
const property = (text: string, name: string) => text.split("\r\n").filter((line) => line.startsWith(`${name}:`));

describe("the invitation's event status", () => {
  it("is TENTATIVE while the booking awaits the shop's confirmation", () => {
    const text = invitation(row("requested"), SETTINGS, "jeton");
    expect(property(text, "STATUS")).toEqual(["STATUS:TENTATIVE"]);
    expect(property(text, "METHOD")).toEqual(["METHOD:PUBLISH"]);
  });

  it("is CONFIRMED once the shop confirmed it", () => {
    const text = invitation(row("confirmed"), SETTINGS, "jeton");
    expect(property(text, "STATUS")).toEqual(["STATUS:CONFIRMED"]);
    expect(property(text, "METHOD")).toEqual(["METHOD:PUBLISH"]);
  });

  it("is CANCELLED in a CANCEL invitation once cancelled", () => {
    const text = invitation(row("cancelled"), SETTINGS, null);
    expect(property(text, "STATUS")).toEqual(["STATUS:CANCELLED"]);
    expect(property(text, "METHOD")).toEqual(["METHOD:CANCEL"]);
  });

  it("is the same in the mails' attachments: tentative on booking, confirmed on confirmation", () => {
    const booked = composeCustomerMail("booked", row("requested"), SETTINGS, "jeton");
    const confirmed = composeCustomerMail("confirmed", row("confirmed"), SETTINGS, "jeton");
    expect(property(booked.calendar!.content, "STATUS")).toEqual(["STATUS:TENTATIVE"]);
    expect(property(confirmed.calendar!.content, "STATUS")).toEqual(["STATUS:CONFIRMED"]);
  });
});
