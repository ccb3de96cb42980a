/**
 * Issue 18 §1: /rendez-vous, booking a slot at the shop from a price
 * (`?modele=<model slug>&reparation=<repair id>`, the "Prendre rendez-vous"
 * links of the brand pages and the finder) or for a free diagnosis (no
 * query). No account: name, e-mail, phone, optional note, the forms'
 * honeypot. Rendered on the server at each request (slots change); works
 * without JavaScript: week links are GETs, the form a POST whose success
 * redirects to the manage page (`/rendez-vous/gerer?jeton=…&nouveau=1`).
 *
 * Issue 28: each rendering draws a one-time form key (hidden field `cle`),
 * so a POST sent again (a retry after a reset connection, a second click)
 * redirects to the booking the first one made instead of booking twice; a
 * booking past the caps per customer (§5) is refused with the shop's number.
 *
 * Issue 40: one heading, then what is booked and the slots: on a 390×844 phone the first day's times are
 * on the first screen (the hero, a second title and the intro used to fill it).
 */
import { data, redirect } from "react-router";
import type { Route } from "./+types/rendez-vous";
import { bookedRepair } from "#app/booking/booked-repair.server.ts";
import { catalogueOf } from "#app/catalogue/context.ts";
import { bookingServicesContext, type BookingResult, type SlotView } from "#app/booking/context.ts";
import { BOOKING_MESSAGES, FORM_KEY_FIELD } from "#app/booking/schemas.ts";
import { weekOf } from "#app/booking/week.server.ts";
import { BOOKING_FORM_ID, BookingForm, type BookingActionData } from "#app/booking/booking-form.tsx";
import { BookingSummary } from "#app/booking/booking-summary.tsx";
import { bonusLine } from "#app/booking/bonus.server.ts";
import { PageFrame } from "#app/booking/page-frame.tsx";
import { formFields, unreadableForm } from "#app/requests/submit.server.ts";
import { rateLimitedMessage, REQUEST_MESSAGES } from "#app/requests/schemas.ts";
import { getMeta } from "#app/utils/meta.ts";
import { optionalContext, requestOriginContext, requireContext } from "#app/utils/server-context.ts";
import { defaultShop } from "#app/config/shop.ts";
import { shopIdentityContext } from "#app/shop/use-shop.ts";
import { ISLANDS_HANDLE } from "#app/islands/names.ts";

/** Issue 30 (decision 029): no React Router runtime; the form posts natively, enhanced by plain DOM code. */
export const handle = ISLANDS_HANDLE;

/**
 * The page's own address with the booked repair kept, and the week `semaine` if given; it opens at the
 * form (`#reservation`), so a week link or a refused booking keeps the slots in view.
 */
function pageUrl(model: string | null, repair: string | null, week?: string): string {
  const query = new URLSearchParams();
  if (model) query.set("modele", model);
  if (repair) query.set("reparation", repair);
  if (week) query.set("semaine", week);
  const text = query.toString();
  return `/rendez-vous${text ? `?${text}` : ""}#${BOOKING_FORM_ID}`;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  // Issue 29: today's prices (the server's catalogue, « Tarifs »).
  const booked = bookedRepair(url.searchParams.get("modele"), url.searchParams.get("reparation"), catalogueOf(context));
  const services = requireContext(context, bookingServicesContext);
  const week = await weekOf(services, url.searchParams.get("semaine"), (date) =>
    pageUrl(booked.modelSlug, booked.repairId, date),
  );
  const bonus = await bonusLine(services, booked);
  // Never cached: places change with every booking, and the form key must be this rendering's own.
  return data(
    { booked, week, bonus, action: pageUrl(booked.modelSlug, booked.repairId), formKey: crypto.randomUUID() },
    { headers: { "Cache-Control": "no-store" } },
  );
}

/** The loader's headers (never cached: places change with every booking). */
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  getMeta(matches, {
    title: loaderData?.booked.modelName
      ? `Rendez-vous : ${loaderData.booked.repairLabel} ${loaderData.booked.modelName}`
      : "Prendre rendez-vous",
    description:
      "Réservez un créneau à l'atelier pour votre réparation ou un diagnostic gratuit, sans créer de compte. Confirmation et rappel par e-mail.",
    path: "/rendez-vous",
  });

/** The French message and HTTP status of a failed booking; `phone`: the shop's, as displayed (issue 29). */
function refusal(
  result: Exclude<BookingResult, { status: "booked" }>,
  phone: string,
): {
  status: number;
  message: string;
  next?: SlotView[];
} {
  switch (result.status) {
    case "invalid":
      return {
        status: 400,
        message: result.fieldErrors._form ?? result.fieldErrors[FORM_KEY_FIELD] ?? REQUEST_MESSAGES.invalid,
      };
    case "slot-taken":
      return { status: 409, message: BOOKING_MESSAGES.slotTaken, next: result.next };
    case "slot-unavailable":
      return { status: 409, message: BOOKING_MESSAGES.slotUnavailable, next: result.next };
    case "spam":
      return { status: 400, message: REQUEST_MESSAGES.spam };
    case "rate-limited":
      return { status: 429, message: rateLimitedMessage(result.retryAfterSeconds) };
    case "contact-limit":
      return result.limit === "upcoming"
        ? { status: 409, message: BOOKING_MESSAGES.tooManyUpcoming(result.max, phone) }
        : { status: 429, message: BOOKING_MESSAGES.tooManyMails(phone) };
    case "key-used":
      return { status: 409, message: BOOKING_MESSAGES.keyUsed };
    default:
      return { status: 503, message: BOOKING_MESSAGES.failed };
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  let formData: FormData;
  try {
    formData = await request.formData();
  } catch {
    const { status, message } = unreadableForm(request);
    return data({ message, fieldErrors: {}, values: {} } satisfies BookingActionData, { status });
  }
  const fields = formFields(formData);
  const services = requireContext(context, bookingServicesContext);
  const result = await services.book(fields, requireContext(context, requestOriginContext));
  if (result.status === "booked") {
    // `#rendez-vous`: the confirmation's section (else the form's `#reservation` would carry over the redirect).
    throw redirect(`/rendez-vous/gerer?jeton=${encodeURIComponent(result.token)}&nouveau=1#rendez-vous`, 303);
  }
  const shop = optionalContext(context, shopIdentityContext) ?? defaultShop;
  const { status, message, next } = refusal(result, shop.phone.display);
  // The page rendered with this answer draws a new form key: the posted one is never echoed.
  const { slot: _slot, site_web: _trap, [FORM_KEY_FIELD]: _key, ...values } = fields;
  return data(
    {
      message,
      fieldErrors: result.status === "invalid" ? result.fieldErrors : {},
      values: { ...values, ...(status === 400 ? { slot: fields.slot ?? "" } : {}) },
      next,
    } satisfies BookingActionData,
    { status },
  );
}

export default function BookingPage({ loaderData, actionData }: Route.ComponentProps) {
  const { booked, week, bonus } = loaderData;
  return (
    <PageFrame title="Prendre rendez-vous" id="rendez-vous">
      {/*
        Issue 30 (CLS 0): the summary comes first in the document, where a phone shows it, and each column is
        placed explicitly on a wide screen. Reordered by CSS, the form painted first while the page streamed
        in, then moved down under the summary (Lighthouse mobile: CLS 0.145).
      */}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)] lg:gap-8">
        <div className="lg:col-start-2 lg:row-start-1">
          <BookingSummary booked={booked} bonus={bonus} />
        </div>
        <div className="lg:col-start-1 lg:row-start-1">
          {week ? (
            <BookingForm
              action={loaderData.action}
              formKey={loaderData.formKey}
              week={week}
              booked={booked}
              actionData={actionData}
            />
          ) : (
            <p role="alert" className="rounded-xl border border-rose-400/70 bg-rose-950/70 px-4 py-3 text-rose-50">
              {BOOKING_MESSAGES.failed}
            </p>
          )}
        </div>
      </div>
    </PageFrame>
  );
}
