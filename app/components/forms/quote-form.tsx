/**
 * The /dev-web quote request form (spec §3 "Quote request", §4, §5, §8;
 * issue 4), anchored in the `#devis` section.
 */
import { useEffect, useRef, useState } from "react";
import { useLocation, useSearchParams } from "react-router";
import { FormField, FormStatus, RequiredFieldsNote, Select } from "#app/components/ui/field.tsx";
import { describeMailboxPlan, findMailboxPlan, MAILBOX_PLANS } from "#app/config/mailbox-plans.ts";
import { LIMITS, REQUEST_MESSAGES } from "#app/requests/schemas.ts";
import type { FormActionData } from "#app/requests/action-data.ts";
import { EmailField } from "./email-field";
import { GdprNotice } from "./gdpr-notice";
import { Honeypot } from "./honeypot";
import { FormKeyField } from "#app/requests/form-key-field.tsx";
import { SubmitRow } from "./submit-row";
import { TextField } from "./text-field";
import { useRequestForm } from "./use-request-form";

/** Where the form posts: the /dev-web action; without JavaScript the answer page opens at the form. */
export const QUOTE_FORM_ACTION = "/dev-web#devis";

/** The search parameter of the plan cards' "Choisir" links (`mailboxPlanQuoteHref`). */
export const PLAN_PARAM = "offre";

/**
 * Company, contact name, e-mail, phone, project description, domain (typed
 * without its extension, ".com" shown after it), mailbox plan and budget, all
 * required (spec §5; lengths from `LIMITS`).
 *
 * The plan named by `?offre=` (a plan card's "Choisir" link) is selected
 * after hydration and on every later navigation to such a link, even from
 * this page, which also moves focus to the plan list. (The page is
 * pre-rendered: its HTML cannot know the query.)
 *
 * Spec §4: sending disables the button ("Envoi en cours..."); a success
 * replaces the form with the thank-you message (focused); a failure shows its
 * message and keeps the form and its values; that message goes away when the
 * form is submitted again. Works without JavaScript, like `ContactForm`.
 */
export function QuoteForm({ actionData }: { actionData?: FormActionData }) {
  const { fetcher, sending, shown, fieldErrors, formRef, successRef, errorRef } = useRequestForm({ actionData });
  const defaults = actionData?.values;
  const state = { errors: fieldErrors, values: defaults };
  const [plan, setPlan] = useState(() => findMailboxPlan(defaults?.emailOption)?.id ?? "");

  const [searchParams] = useSearchParams();
  const { key: navigation } = useLocation();
  const requestedPlan = findMailboxPlan(searchParams.get(PLAN_PARAM))?.id;
  const planRef = useRef<HTMLSelectElement>(null);
  const firstNavigation = useRef(navigation);
  useEffect(() => {
    // Keyed on the navigation too: following the same "Choisir" link again re-selects its plan.
    if (requestedPlan) {
      setPlan(requestedPlan);
      // A "Choisir" link followed from this page (a client-side navigation, unlike a page load): keyboard and
      // screen reader users land on the plan they chose, not back on the link. The router does the scrolling.
      if (navigation !== firstNavigation.current) planRef.current?.focus({ preventScroll: true });
    }
  }, [requestedPlan, navigation]);

  const stored = shown?.result.status === "stored";

  return (
    <div>
      <FormStatus tone="success" ref={successRef}>
        {stored ? (
          <>
            <p className="text-lg font-semibold">{shown.message}</p>
            <p>{REQUEST_MESSAGES.quoteSuccessDetail}</p>
          </>
        ) : null}
      </FormStatus>
      {stored ? null : (
        <fetcher.Form
          ref={formRef}
          method="post"
          action={QUOTE_FORM_ACTION}
          className="relative flex flex-col gap-5"
          data-enhance="form"
        >
          <RequiredFieldsNote />
          <div className="grid gap-5 sm:grid-cols-2">
            <TextField
              id="devis-entreprise"
              label="Nom de l'entreprise"
              name="companyName"
              autoComplete="organization"
              maxLength={LIMITS.companyName}
              state={state}
            />
            <TextField
              id="devis-contact"
              label="Nom du contact"
              name="contactName"
              autoComplete="name"
              maxLength={LIMITS.name}
              state={state}
            />
            <EmailField id="devis-email" state={state} />
            <TextField
              id="devis-telephone"
              label="Téléphone"
              name="phone"
              type="tel"
              autoComplete="tel"
              maxLength={LIMITS.phone}
              state={state}
            />
            <TextField
              id="devis-description"
              label="Description du projet"
              hint="Votre activité, les pages et fonctionnalités souhaitées, des sites qui vous plaisent…"
              name="description"
              rows={6}
              maxLength={LIMITS.description}
              state={state}
              className="sm:col-span-2"
            />
            <TextField
              id="devis-domaine"
              label="Nom de domaine souhaité"
              describedBy="devis-domaine-extension"
              hint={
                "Sans extension, «\u00a0.com\u00a0» est ajouté\u00a0: «\u00a0mon-entreprise\u00a0» pour mon-entreprise.com. Pour une autre extension, tapez-la\u00a0: «\u00a0mon-entreprise.fr\u00a0»."
              }
              name="domain"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={LIMITS.domain}
              state={state}
              suffix={
                <span
                  id="devis-domaine-extension"
                  className="inline-flex shrink-0 items-center rounded-r-lg border border-l-0 border-slate-500 bg-slate-800 px-3 font-medium text-slate-100"
                >
                  <span className="sr-only">Extension ajoutée : </span>.com
                </span>
              }
            />
            <FormField id="devis-offre" label="Offre de boîte mail" required error={fieldErrors.emailOption}>
              {(control) => (
                <Select
                  {...control}
                  ref={planRef}
                  name="emailOption"
                  // Issue 30: on the islands page, `?offre=` is read by `app/islands/enhancers/quote-plan.ts`.
                  data-enhance="quote-plan"
                  value={plan}
                  onChange={(event) => setPlan(event.currentTarget.value)}
                >
                  <option value="">Choisissez une offre</option>
                  {MAILBOX_PLANS.map((option) => (
                    <option key={option.id} value={option.id}>
                      {describeMailboxPlan(option)}
                    </option>
                  ))}
                </Select>
              )}
            </FormField>
            <TextField
              id="devis-budget"
              label="Budget envisagé"
              hint={"Un montant ou une fourchette, par exemple «\u00a01\u00a0500 à 2\u00a0000\u00a0€\u00a0»."}
              name="budget"
              maxLength={LIMITS.budget}
              state={state}
              className="sm:col-span-2"
            />
          </div>
          <Honeypot />
          <FormKeyField />
          <SubmitRow label="Envoyer la demande de devis" sending={sending} shown={shown} errorRef={errorRef} />
        </fetcher.Form>
      )}
      <GdprNotice
        className="mt-6"
        purpose="préparer le devis demandé et vous recontacter à son sujet"
        legalBasis="les mesures précontractuelles prises à votre demande (article 6.1.b du RGPD)"
      />
    </div>
  );
}
