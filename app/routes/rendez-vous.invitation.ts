/**
 * Issue 18 §1: /rendez-vous/invitation.ics?jeton=…, the appointment's
 * iCalendar invitation (RFC 5545) for the customer's calendar, behind the
 * same signed, expiring link as the manage page. 404 with a French text for
 * an invalid link.
 */
import type { Route } from "./+types/rendez-vous.invitation";
import { bookingServicesContext } from "#app/booking/context.ts";
import { BOOKING_MESSAGES } from "#app/booking/schemas.ts";
import { requireContext } from "#app/utils/server-context.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("jeton") ?? "";
  const services = requireContext(context, bookingServicesContext);
  const text = await services.invitationByToken(token).catch(() => null);
  const headers = { "Cache-Control": "no-store" };
  if (text === null) {
    return new Response(BOOKING_MESSAGES.linkInvalid, {
      status: 404,
      headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  return new Response(text, {
    headers: {
      ...headers,
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'attachment; filename="rendez-vous.ics"',
    },
  });
}
