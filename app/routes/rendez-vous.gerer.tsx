/**
 * Issue 18 §1: /rendez-vous/gerer?jeton=…, the customer's page for one
 * appointment, reached by the signed, expiring link of the confirmation
 * page and mails (no login). It shows the appointment and its status, the
 * `.ics` invitation, and lets the customer move it to another free slot or
 * cancel it. `&nouveau=1` adds the booking's confirmation message. An
 * invalid or expired link shows one French message, whatever is wrong;
 * so does a link from before a move (issue 28 §9: the move's mail carries
 * the new one). Neither the page nor its data carry the customer's name,
 * e-mail, phone or note, and once cancelled it says only that, and how to
 * book again (issue 28 §10).
 *
 * Issue 40: one heading (« Votre rendez-vous »; it sat under a « Mon rendez-vous » hero), the status
 * explained with what to bring, the shop's address and phone (`AppointmentDetails`); moving and cancelling
 * folded (`MoveFold`, `CancelFold`), cancelling an outlined button rather than the page's brightest one.
 */
import { useEffect, useRef } from "react";
import { data, Link, redirect, useLocation, useNavigationType } from "react-router";
import type { Route } from "./+types/rendez-vous.gerer";
import { AppointmentDetails } from "#app/booking/appointment-details.tsx";
import { bookingServicesContext, type SlotView } from "#app/booking/context.ts";
import { mailConfiguredContext } from "#app/booking/customer-mail.ts";
import { CancelFold, MOVE_FORM_ID, MoveFold, type ManageActionData } from "#app/booking/manage-forms.tsx";
import { PageFrame } from "#app/booking/page-frame.tsx";
import { BOOKING_MESSAGES } from "#app/booking/schemas.ts";
import { weekOf } from "#app/booking/week.server.ts";
import { telHref } from "#app/config/shop.ts";
import { useShop } from "#app/shop/use-shop.ts";
import { formFields, unreadableForm } from "#app/requests/submit.server.ts";
import { rateLimitedMessage } from "#app/requests/schemas.ts";
import { getMeta } from "#app/utils/meta.ts";
import { optionalContext, requestOriginContext, requireContext } from "#app/utils/server-context.ts";
import { ISLANDS_HANDLE } from "#app/islands/names.ts";

/** Issue 30 (decision 029): no React Router runtime; the forms post natively, enhanced by plain DOM code. */
export const handle = ISLANDS_HANDLE;

/**
 * The message after booking (`nouveau=1`), moving or cancelling (`fait=`), set by the redirects. Issue 40:
 * a mail is announced only when one leaves the server (`mailed`); else the page's link is to be kept.
 */
function noticeOf(query: URLSearchParams, mailed: boolean): { text: string; cancelled: boolean } | null {
  const done = query.get("fait");
  if (query.get("nouveau") === "1") {
    const detail = mailed ? BOOKING_MESSAGES.bookedDetail : BOOKING_MESSAGES.bookedDetailWithoutMail;
    return { text: `${BOOKING_MESSAGES.booked} ${detail}`, cancelled: false };
  }
  if (done === "annule")
    return { text: mailed ? BOOKING_MESSAGES.cancelled : BOOKING_MESSAGES.cancelledWithoutMail, cancelled: true };
  if (done === "deplace")
    return { text: mailed ? BOOKING_MESSAGES.moved : BOOKING_MESSAGES.movedWithoutMail, cancelled: false };
  return null;
}

const manageUrl = (token: string, extra = "") => `/rendez-vous/gerer?jeton=${encodeURIComponent(token)}${extra}`;

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("jeton") ?? "";
  const services = requireContext(context, bookingServicesContext);
  const found = await services.byToken(token).catch(() => ({ status: "link-invalid" as const }));
  const headers = { "Cache-Control": "no-store" };
  const said = noticeOf(url.searchParams, optionalContext(context, mailConfiguredContext) ?? true);
  const notice = said?.text ?? null;
  if (found.status === "link-invalid")
    return data(
      { appointment: null, cancelled: false, token: "", week: null, notice: null, moving: false },
      { status: 404, headers },
    );
  // Cancelled: nothing of the booking, not even the link (issue 28 §10).
  if (found.status === "cancelled") {
    const done = said?.cancelled ? notice : null;
    return data(
      { appointment: null, cancelled: true, token: "", week: null, notice: done, moving: false },
      { headers },
    );
  }
  const week = await weekOf(
    services,
    url.searchParams.get("semaine"),
    (date) => `${manageUrl(token)}&semaine=${date}#${MOVE_FORM_ID}`,
  );
  // Issue 40: a week link comes from the open move fold; the week it shows opens it again.
  const moving = url.searchParams.has("semaine");
  return data({ appointment: found.appointment, cancelled: false, token, week, notice, moving }, { headers });
}

/**
 * Issue 30 §1: the signed token is in this page's URL, so no other site may see it as a referrer; yet
 * `no-referrer` made Chromium send `Origin: null` with the page's own form posts (move, cancel), which
 * React Router refuses as a cross-site action. `strict-origin` sends only our origin, never the path:
 * the token reaches no one (not even a proxy's log of Referer), and a same-origin post keeps its Origin.
 * The header covers the page loaded from a mail's link (sent after helmet's, so it wins), the meta a
 * client-side visit after booking (a meta's policy then stays for the rest of the visit, hence one that
 * keeps every form's Origin).
 */
const TOKEN_PAGE_REFERRER_POLICY = "strict-origin";

/** The loader's headers (never cached) and the referrer policy that keeps the token to ourselves. */
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => {
  const headers = new Headers(loaderHeaders);
  headers.set("Referrer-Policy", TOKEN_PAGE_REFERRER_POLICY);
  return headers;
};

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "Mon rendez-vous",
    description: "Votre rendez-vous à l'atelier : date, invitation pour votre agenda, déplacement ou annulation.",
    path: "/rendez-vous/gerer",
  }).concat({ name: "robots", content: "noindex" }, { name: "referrer", content: TOKEN_PAGE_REFERRER_POLICY });

export async function action({ request, context }: Route.ActionArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("jeton") ?? "";
  let fields: Record<string, string>;
  try {
    fields = formFields(await request.formData());
  } catch {
    const { status, message } = unreadableForm(request);
    // Which form sent it is unknown: the message shows in the move fold, the page's main form.
    return data<ManageActionData>({ intent: "move", message }, { status });
  }
  const intent = fields.intent === "cancel" ? "cancel" : "move";
  const services = requireContext(context, bookingServicesContext);
  const origin = requireContext(context, requestOriginContext);
  const result =
    intent === "cancel"
      ? await services.cancelByToken(token, origin)
      : await services.moveByToken(token, fields.slot, origin);
  if (result.status === "booked") {
    const done = intent === "cancel" ? "annule" : "deplace";
    // `#rendez-vous`: the page opens at its notice (else the move form's `#deplacer` would carry over the redirect).
    throw redirect(`${manageUrl(result.token, `&fait=${done}`)}#rendez-vous`, 303);
  }
  // Issue 40: `intent` says which fold shows the message (and opens).
  const answer = (status: number, message: string, next?: SlotView[]) =>
    data<ManageActionData>({ intent, message, next }, { status });
  switch (result.status) {
    case "invalid":
      return answer(400, result.fieldErrors.slot ?? "Choisissez un créneau.");
    case "slot-taken":
      return answer(409, BOOKING_MESSAGES.slotTaken, result.next);
    case "slot-unavailable":
      return answer(409, BOOKING_MESSAGES.slotUnavailable, result.next);
    case "rate-limited":
      return answer(429, rateLimitedMessage(result.retryAfterSeconds));
    case "link-invalid":
      return answer(404, BOOKING_MESSAGES.linkInvalid);
    case "not-modifiable":
      return answer(409, result.reason === "cancelled" ? BOOKING_MESSAGES.alreadyCancelled : BOOKING_MESSAGES.past);
    default:
      return answer(503, BOOKING_MESSAGES.failed);
  }
}

/**
 * Issue 30 §2: the page reached by the redirect after booking, moving or cancelling with JavaScript kept
 * the scroll of the form that posted (its `preventScrollReset` keeps a refused slot in view), so the
 * confirmation opened off screen and « Déplacer à ce créneau » showed instead. When a navigation brings
 * a `notice`, the page goes back to its top and the notice takes the focus, so it is seen and read out.
 * A POP (the first load, Back and Forward) is left to the browser's own scroll. Returns the notice's ref.
 */
function useNoticeInView(notice: string | null) {
  const noticeRef = useRef<HTMLParagraphElement>(null);
  const { key } = useLocation();
  const navigationType = useNavigationType();
  useEffect(() => {
    if (!notice || navigationType === "POP") return;
    // Instant: the smooth scrolling of app.css would leave the notice moving while it is read out.
    window.scrollTo({ top: 0, behavior: "instant" });
    noticeRef.current?.focus();
  }, [key, notice, navigationType]);
  return noticeRef;
}

/** The focus ring of a notice that took the focus (issue 30 §2). */
const noticeFocus = "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300";

/** Issue 28 §10: a cancelled booking's page: that it is cancelled, and how to book again. */
function Cancelled({ notice }: { notice: string | null }) {
  const shop = useShop();
  const noticeRef = useNoticeInView(notice);
  return (
    <PageFrame title="Rendez-vous annulé" id="rendez-vous">
      <p
        ref={noticeRef}
        tabIndex={-1}
        role="status"
        data-focus-on-load={notice ? "" : undefined}
        className={`max-w-2xl text-lg text-slate-200 ${noticeFocus}`}
      >
        {notice ?? BOOKING_MESSAGES.cancelledPage}
      </p>
      <p className="mt-4 text-slate-300">
        Pour prendre un nouveau rendez-vous :{" "}
        <Link className="text-sky-300 underline underline-offset-4" to="/rendez-vous">
          choisir un créneau
        </Link>
        , ou appelez-nous au{" "}
        <a className="text-sky-300 underline underline-offset-4" href={telHref(shop)}>
          {shop.phone.display}
        </a>
        .
      </p>
    </PageFrame>
  );
}

/** A link that opens nothing (invalid, expired, or from before a move): one message, and the shop's number. */
function InvalidLink() {
  const shop = useShop();
  return (
    <PageFrame title="Lien non valide" id="lien">
      <p className="max-w-2xl text-lg text-slate-200">{BOOKING_MESSAGES.linkInvalid}</p>
      <p className="mt-4 text-slate-300">
        Téléphone :{" "}
        <a className="text-sky-300 underline underline-offset-4" href={telHref(shop)}>
          {shop.phone.display}
        </a>
      </p>
    </PageFrame>
  );
}

export default function ManageAppointment({ loaderData, actionData }: Route.ComponentProps) {
  const { appointment, token, week, notice, moving } = loaderData;
  const noticeRef = useNoticeInView(loaderData.cancelled ? null : notice);
  if (loaderData.cancelled) return <Cancelled notice={notice} />;
  if (!appointment) return <InvalidLink />;
  const refused = actionData;
  return (
    <PageFrame title="Votre rendez-vous" id="rendez-vous">
      <div className="flex max-w-3xl flex-col gap-6">
        {notice ? (
          <p
            ref={noticeRef}
            tabIndex={-1}
            role="status"
            data-focus-on-load=""
            className={`rounded-xl border border-emerald-400/60 bg-emerald-950/70 px-4 py-3 text-emerald-50 ${noticeFocus}`}
          >
            {notice}
          </p>
        ) : null}
        <AppointmentDetails appointment={appointment} token={token} />
        {week ? (
          <div className="flex flex-col gap-4">
            <MoveFold
              action={`${manageUrl(token)}#${MOVE_FORM_ID}`}
              appointment={appointment}
              week={week}
              open={moving}
              refused={refused?.intent === "move" ? refused : undefined}
            />
            <CancelFold
              action={manageUrl(token)}
              refused={refused?.intent === "cancel" ? refused.message : undefined}
            />
          </div>
        ) : null}
      </div>
    </PageFrame>
  );
}
