/**
 * Issue 18 §1: /rendez-vous/invitation.ics answers the appointment's calendar file for a valid link,
 * never cached, and a French 404 for any other token.
 */
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { bookingServicesContext, type BookingServices } from "#app/booking/context.ts";
import { BOOKING_MESSAGES } from "#app/booking/schemas.ts";
import type { Route } from "./+types/rendez-vous.invitation";
import { loader } from "./rendez-vous.invitation";

function load(token: string) {
  const context = new RouterContextProvider();
  const services = {
    invitationByToken: async (given: string) => (given === "bon" ? "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n" : null),
  } as unknown as BookingServices;
  context.set(bookingServicesContext, services);
  const request = new Request(`http://127.0.0.1/rendez-vous/invitation.ics?jeton=${encodeURIComponent(token)}`);
  return loader({ request, context, params: {} } as unknown as Route.LoaderArgs);
}

describe("the invitation download", () => {
  it("gives the calendar file of a valid link as an attachment, never cached", async () => {
    const response = await load("bon");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="rendez-vous.ics"');
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(await response.text()).toContain("BEGIN:VCALENDAR");
  });

  it("answers any other token with the French refusal", async () => {
    const response = await load("faux");
    expect(response.status).toBe(404);
    expect(await response.text()).toBe(BOOKING_MESSAGES.linkInvalid);
  });
});
