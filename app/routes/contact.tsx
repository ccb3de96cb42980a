/**
 * Contact page (spec §2 "Contact"): address (maps link), phone (tel: link),
 * e-mail (mailto: link) and opening hours, all read from the current identity (`useShop()`, issue 29 « Boutique »),
 * and the message form (spec §3, §4, §5, §8; issue 4) in the `#message`
 * section.
 *
 * The page stays pre-rendered; its action only runs for the form's POST
 * (through the fetcher once hydrated, as a plain form POST without
 * JavaScript) and hands the fields to the server's form services.
 */
import { CalendarCheck, Clock, Mail, MapPin, Phone, Send } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { bookingPath } from "#app/booking/paths.ts";
import type { Route } from "./+types/contact";
import { ContactForm } from "#app/components/forms/contact-form.tsx";
import { AddressLink } from "#app/components/ui/address-link.tsx";
import { ButtonLink } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { PageHero, Section } from "#app/components/ui/section.tsx";
import { formatOpeningHours, mailtoHref, telHref } from "#app/config/shop.ts";
import { useShop } from "#app/shop/use-shop.ts";
import { clientActionFor } from "#app/requests/action-data.ts";
import { submitRequestForm } from "#app/requests/submit.server.ts";
import { getMeta } from "#app/utils/meta.ts";
import { ISLANDS_HANDLE } from "#app/islands/names.ts";

/** Issue 30 (decision 029): no React Router runtime; the form posts natively, enhanced by plain DOM code. */
export const handle = ISLANDS_HANDLE;

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "Contact",
    description:
      "Contactez notre atelier informatique : adresse, téléphone, e-mail et horaires d'ouverture. Diagnostic gratuit de vos appareils en magasin.",
    path: "/contact",
  });

/** Stores the message (with its outbox mail) and answers the result, its French message and, unless stored, the values. */
export async function action(args: Route.ActionArgs) {
  return submitRequestForm("contact", args);
}

/** Falls back to the form's failure message when the server cannot be reached. */
export const clientAction = clientActionFor("contact");

const linkClass =
  "font-medium text-sky-300 underline underline-offset-4 hover:text-sky-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300";

/** One contact detail card: decorative icon, `<h3>` title, content. */
function ContactCard({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <Card className="flex h-full flex-col gap-3">
      <span
        aria-hidden="true"
        className="inline-flex size-12 items-center justify-center rounded-xl bg-sky-400/15 text-sky-300"
      >
        {icon}
      </span>
      <h3 className="text-xl font-semibold text-white">{title}</h3>
      <div className="text-lg text-slate-300">{children}</div>
    </Card>
  );
}

/** Spec §2 "Contact". */
export default function Contact({ actionData }: Route.ComponentProps) {
  const shop = useShop();
  const hours = formatOpeningHours(shop.openingHours);
  const hasAppointmentSlots = shop.openingHours.some((slot) => slot.byAppointment);
  return (
    <>
      <PageHero
        title="Contactez-nous"
        subtitle="Une question, un devis ou un appareil en panne&nbsp;? Appelez-nous, écrivez-nous ou passez nous voir en magasin&nbsp;: le diagnostic est gratuit."
      >
        <ButtonLink to={telHref(shop)} size="lg">
          <Phone aria-hidden="true" className="size-5" />
          Appeler le {shop.phone.display}
        </ButtonLink>
        <ButtonLink to={mailtoHref(shop)} size="lg" variant="secondary">
          <Mail aria-hidden="true" className="size-5" />
          Écrire un e-mail
        </ButtonLink>
        {/* Issue 40: on a phone the form is far down the page; this is the way to it from the top. */}
        <ButtonLink to="#message" size="lg" variant="secondary">
          <Send aria-hidden="true" className="size-5" />
          Envoyer un message
        </ButtonLink>
        <ButtonLink to={bookingPath()} size="lg" variant="secondary">
          <CalendarCheck aria-hidden="true" className="size-5" />
          Prendre rendez-vous
        </ButtonLink>
      </PageHero>

      <Section title="Nos coordonnées">
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          <li>
            <ContactCard icon={<MapPin className="size-6" />} title="Adresse">
              <p>
                <AddressLink className={linkClass} />
              </p>
            </ContactCard>
          </li>
          <li>
            <ContactCard icon={<Phone className="size-6" />} title="Téléphone">
              <p>
                <a className={linkClass} href={telHref(shop)}>
                  {shop.phone.display}
                </a>
              </p>
            </ContactCard>
          </li>
          <li>
            <ContactCard icon={<Mail className="size-6" />} title="E-mail">
              <p>
                <a className={`${linkClass} break-all`} href={mailtoHref(shop)}>
                  {shop.email}
                </a>
              </p>
            </ContactCard>
          </li>
          <li>
            <ContactCard icon={<Clock className="size-6" />} title="Horaires d'ouverture">
              <ul className="flex flex-col gap-1">
                {hours.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </ContactCard>
          </li>
        </ul>
        {hasAppointmentSlots ? (
          <p className="mt-6 max-w-3xl text-slate-300">
            Pour un créneau sur rendez-vous,{" "}
            <Link className={linkClass} to={bookingPath()}>
              choisissez le jour et l'heure en ligne
            </Link>
            , ou appelez-nous.
          </p>
        ) : null}
      </Section>

      <Section
        id="message"
        title="Envoyez-nous un message"
        intro="Une question, une demande de devis pour une réparation&nbsp;? Écrivez-nous&nbsp;: nous vous répondons rapidement."
      >
        <Card className="max-w-3xl">
          <ContactForm actionData={actionData} />
        </Card>
      </Section>
    </>
  );
}
