/**
 * Web development page (spec §2 "Web development", §9): hero linking to the
 * quote section, three feature blocks, the three mailbox plans (each with a
 * "Choisir" link that preselects the plan) and the quote form (spec §3, §4,
 * §5, §8; issue 4) in the section anchored as `#devis`.
 *
 * The page stays pre-rendered; its action only runs for the form's POST
 * (through the fetcher once hydrated, as a plain form POST without
 * JavaScript) and hands the fields to the server's form services.
 */
import { Check, Mail } from "lucide-react";
import type { Route } from "./+types/dev-web";
import { QuoteForm } from "#app/components/forms/quote-form.tsx";
import { ButtonLink } from "#app/components/ui/button.tsx";
import { Card, FeatureGrid } from "#app/components/ui/card.tsx";
import { PageHero, Section } from "#app/components/ui/section.tsx";
import { formatCapacity, formatMonthlyPrice, MAILBOX_PLANS, mailboxPlanQuoteHref } from "#app/config/mailbox-plans.ts";
import { DEV_WEB_FEATURES } from "#app/content/offers.ts";
import { clientActionFor } from "#app/requests/action-data.ts";
import { submitRequestForm } from "#app/requests/submit.server.ts";
import { getMeta } from "#app/utils/meta.ts";
import { ISLANDS_HANDLE } from "#app/islands/names.ts";

/** Issue 30 (decision 029): no React Router runtime; the form posts natively, enhanced by plain DOM code. */
export const handle = ISLANDS_HANDLE;

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "Développement web et devis",
    description:
      "Création de sites vitrines sur mesure avec IA intégrée et référencement SEO, boîtes mail professionnelles dès 3,99 € par mois. Devis sous 48 heures.",
    path: "/dev-web",
  });

/** Spec §9: quote reply promise. */
const REPLY_DELAY = "48 heures";

/** Stores the quote request (with its outbox mail) and answers the result, its French message and, unless stored, the values. */
export async function action(args: Route.ActionArgs) {
  return submitRequestForm("quote", args);
}

/** Falls back to the form's failure message when the server cannot be reached. */
export const clientAction = clientActionFor("quote");

/** Spec §2 "Web development". */
export default function DevWeb({ actionData }: Route.ComponentProps) {
  return (
    <>
      <PageHero
        title="Développement web sur mesure"
        subtitle={`Sites vitrines personnalisés, intelligence artificielle intégrée, référencement naturel et boîtes mail professionnelles. Décrivez-nous votre projet : nous vous répondons sous ${REPLY_DELAY}.`}
      >
        <ButtonLink to="#devis" size="lg">
          Demander un devis
        </ButtonLink>
        <ButtonLink to="#offres" size="lg" variant="secondary">
          Voir les offres mail
        </ButtonLink>
      </PageHero>

      <Section
        title="Un site qui vous ressemble"
        intro="Nous concevons votre site de A à Z, de la maquette à la mise en ligne, avec trois atouts."
      >
        <FeatureGrid items={DEV_WEB_FEATURES} columns="md:grid-cols-3" />
      </Section>

      <Section
        id="offres"
        title="Nos offres de boîtes mail"
        intro="Des adresses e-mail professionnelles à votre nom de domaine, pour compléter votre site. Tarifs par mois."
      >
        <ul className="grid gap-6 md:grid-cols-3">
          {MAILBOX_PLANS.map((plan) => (
            <li key={plan.id} className="flex">
              <Card className="flex w-full flex-col gap-5">
                <h3 className="flex items-center gap-3 text-xl font-semibold text-white">
                  <span
                    aria-hidden="true"
                    className="inline-flex size-11 items-center justify-center rounded-xl bg-sky-400/15 text-sky-300"
                  >
                    <Mail className="size-6" />
                  </span>
                  Boîte mail {formatCapacity(plan)}
                </h3>
                <p className="flex items-baseline gap-2 text-slate-300">
                  <span className="text-4xl font-bold text-white">{formatMonthlyPrice(plan)}</span>
                  <span>par mois</span>
                </p>
                <ul className="flex flex-col gap-2 text-slate-300">
                  <li className="flex gap-2">
                    <Check aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-sky-300" />
                    <span>{formatCapacity(plan)} de stockage</span>
                  </li>
                  <li className="flex gap-2">
                    <Check aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-sky-300" />
                    <span>Adresse à votre nom de domaine</span>
                  </li>
                </ul>
                <ButtonLink to={mailboxPlanQuoteHref(plan)} className="mt-auto w-full">
                  Choisir<span className="sr-only"> l'offre {formatCapacity(plan)}</span>
                </ButtonLink>
              </Card>
            </li>
          ))}
        </ul>
      </Section>

      <Section
        id="devis"
        title="Demander un devis"
        intro={`Décrivez-nous votre projet : nous vous répondons sous ${REPLY_DELAY} avec une proposition détaillée.`}
      >
        <Card className="max-w-3xl">
          <QuoteForm actionData={actionData} />
        </Card>
      </Section>
    </>
  );
}
