/**
 * Issue 18 §2: /suivi, the public repair-tracking page. The customer types
 * the tracking code from their receipt or mails ("R7K3-QXMA"; `?code=` in the
 * mails' link fills it in) and their e-mail or phone; the page then shows the
 * ticket (`app/repairs/ticket-view.tsx`) and lets them answer a pending
 * quote, after a confirmation showing its amount (issue 30 §1). Rendered on
 * the server at each request, works without JavaScript (the form and the
 * quote buttons are plain POSTs to this route's action: `confirm` asks the
 * question, `decision` records the answer).
 *
 * A wrong code, a wrong contact or both get one sentence, "Aucune réparation
 * ne correspond à ce code et à ces coordonnées.", and failures are limited
 * per address (`server/repairs/tracking.ts`). Nothing is cached: the answer
 * holds personal data.
 */
import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/suivi";
import { FormField, FormStatus, Input, RequiredFieldsNote } from "#app/components/ui/field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { PageHero, Section } from "#app/components/ui/section.tsx";
import { REPAIR_LIMITS, REPAIR_MESSAGES, type PublicRepairTicket } from "#app/repairs/protocol.ts";
import { repairTrackingContext, type TrackingResult } from "#app/repairs/tracking-context.ts";
import { TicketView } from "#app/repairs/ticket-view.tsx";
import { QUOTE_DECISIONS, type QuoteDecision } from "#app/repairs/statuses.ts";
import { formFields, unreadableForm } from "#app/requests/submit.server.ts";
import { getMeta } from "#app/utils/meta.ts";
import { requestOriginContext, requireContext } from "#app/utils/server-context.ts";
import { ISLANDS_HANDLE } from "#app/islands/names.ts";

/** Issue 30 (decision 029): no React Router runtime; the forms post natively, enhanced by plain DOM code. */
export const handle = ISLANDS_HANDLE;

/**
 * What the action answers: the ticket when found, the French message to show (`error` with a ticket: the
 * quote's answer was refused, the ticket is shown as it is now), the typed values, and the quote's question
 * to show (`asking`, from `confirm`, issue 30 §1).
 */
export type TrackingActionData = {
  ticket: PublicRepairTicket | null;
  message: string | null;
  tone: "success" | "error";
  values: { code: string; contact: string };
  asking: QuoteDecision | null;
  /** The question just closed by « Annuler » (`back`, posted from an islands page or without JavaScript). */
  back?: QuoteDecision | null;
};

const NO_STORE = { "Cache-Control": "no-store" };

/** The HTTP status of a refusal: the same 404 whatever part was wrong. */
const STATUS: Record<Extract<TrackingResult, { ok: false }>["reason"], number> = {
  invalid: 400,
  "not-found": 404,
  "rate-limited": 429,
  conflict: 409,
  failed: 503,
};

export const headers: Route.HeadersFunction = () => NO_STORE;

/** `?code=` pre-fills the code (at most 20 characters are kept). */
export function loader({ request }: Route.LoaderArgs) {
  const code = (new URL(request.url).searchParams.get("code") ?? "").trim().slice(0, 20);
  return data({ code }, { headers: NO_STORE });
}

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "Suivi de réparation",
    description:
      "Suivez votre réparation en ligne avec votre code de suivi et votre e-mail ou téléphone : étapes, devis à valider, garantie.",
    path: "/suivi",
  });

/**
 * Looks the ticket up (with the quote's question when `confirm` is "accepted" or "refused"), or records the
 * customer's answer to its quote (`decision`, with the `amountEuros` they confirmed), then shows it.
 */
export async function action({ request, context }: Route.ActionArgs) {
  let formData: FormData;
  try {
    formData = await request.formData();
  } catch {
    const { status, message } = unreadableForm(request);
    const values = { code: "", contact: "" };
    const payload: TrackingActionData = { ticket: null, message, tone: "error", values, asking: null };
    return data(payload, { status, headers: NO_STORE });
  }
  const fields = formFields(formData);
  const values = { code: fields.code ?? "", contact: fields.contact ?? "" };
  const services = requireContext(context, repairTrackingContext);
  const origin = requireContext(context, requestOriginContext);

  let result: TrackingResult;
  let message: string | null = null;
  let tone: TrackingActionData["tone"] = "success";
  // The first step of a quote's answer without JavaScript: the ticket again, with the question (issue 30 §1).
  const asking =
    fields.decision === undefined ? (QUOTE_DECISIONS.find((value) => value === fields.confirm) ?? null) : null;
  // « Annuler » of that question: its opening button takes the focus back.
  const back = fields.decision === undefined ? (QUOTE_DECISIONS.find((value) => value === fields.back) ?? null) : null;
  if (fields.decision !== undefined) {
    const decided = await services.decideQuote(fields, origin);
    result = decided;
    if (decided.ok) message = decided.decision === "accepted" ? REPAIR_MESSAGES.accepted : REPAIR_MESSAGES.refused;
    // Already answered (another tab, the shop by phone): show the ticket as it is now, with why.
    else if (decided.reason === "conflict") {
      message = decided.message;
      tone = "error";
      const current = await services.track(fields, origin);
      if (current.ok) result = current;
    }
  } else {
    result = await services.track(fields, origin);
  }

  if (result.ok) {
    const payload: TrackingActionData = { ticket: result.ticket, message, tone, values, asking, back };
    return data(payload, { headers: NO_STORE });
  }
  const responseHeaders: Record<string, string> = { ...NO_STORE };
  if (result.retryAfterSeconds !== undefined) responseHeaders["Retry-After"] = String(result.retryAfterSeconds);
  const payload: TrackingActionData = { ticket: null, message: result.message, tone: "error", values, asking: null };
  return data(payload, { status: STATUS[result.reason], headers: responseHeaders });
}

/** The page; see the module comment. */
export default function TrackingPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const sending = navigation.state === "submitting";
  const values = actionData?.values ?? { code: loaderData.code, contact: "" };
  const ticket = actionData?.ticket ?? null;
  // Without a ticket the message is the lookup's refusal, under its form; with one, it is about the ticket.
  const error = actionData && actionData.tone === "error" && !ticket ? actionData.message : null;
  const notice = ticket ? (actionData?.message ?? null) : null;
  const noticeTone = actionData?.tone ?? "success";
  return (
    <>
      <PageHero
        title="Suivre ma réparation"
        subtitle="Saisissez le code de suivi remis au dépôt de votre appareil (il figure aussi dans nos e-mails) et l'adresse e-mail ou le numéro de téléphone donnés à l'atelier."
      />
      <Section title="Votre code de suivi" id="suivi">
        <div className="flex max-w-3xl flex-col gap-8">
          <Card>
            {/* The key resets the fields to the values of the last answer. */}
            <Form
              method="post"
              className="flex flex-col gap-5"
              key={`${values.code}|${values.contact}`}
              data-enhance="form"
            >
              <RequiredFieldsNote />
              <FormField id="suivi-code" label="Code de suivi" required hint="Par exemple R7K3-QXMA.">
                {(control) => (
                  <Input
                    {...control}
                    name="code"
                    autoComplete="off"
                    autoCapitalize="characters"
                    spellCheck={false}
                    maxLength={20}
                    defaultValue={values.code}
                  />
                )}
              </FormField>
              <FormField
                id="suivi-contact"
                label="E-mail ou téléphone"
                required
                hint="L'adresse e-mail ou le numéro de téléphone donné à l'atelier."
              >
                {(control) => (
                  <Input
                    {...control}
                    name="contact"
                    autoComplete="email"
                    spellCheck={false}
                    maxLength={REPAIR_LIMITS.contact}
                    defaultValue={values.contact}
                  />
                )}
              </FormField>
              <div>
                <Button
                  type="submit"
                  disabled={sending}
                  className="w-full sm:w-auto"
                  data-sending-label="Recherche en cours..."
                >
                  {sending ? "Recherche en cours..." : "Suivre ma réparation"}
                </Button>
              </div>
              <FormStatus tone="error">{error ? <p className="font-semibold">{error}</p> : null}</FormStatus>
            </Form>
          </Card>
          <FormStatus tone={noticeTone}>{notice ? <p className="font-semibold">{notice}</p> : null}</FormStatus>
          {ticket ? (
            <TicketView
              ticket={ticket}
              contact={values.contact}
              busy={sending}
              asking={actionData?.asking ?? null}
              back={actionData?.back ?? null}
              focusOnLoad={!notice && !actionData?.asking && !actionData?.back}
            />
          ) : null}
        </div>
      </Section>
    </>
  );
}
