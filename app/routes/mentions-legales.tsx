/**
 * Legal notices (spec §2 "Legal notices", §9 capital 15 000 €): the LCEN
 * notices (publisher, publication director, host), intellectual property,
 * personal data protection (loi Informatique et Libertés and GDPR) and the
 * cookies notice. Every fact about the company comes from the current identity (`useShop()`, issue 29).
 */
import type { ReactNode } from "react";
import type { Route } from "./+types/mentions-legales";
import { Card } from "#app/components/ui/card.tsx";
import { PageHero, Section } from "#app/components/ui/section.tsx";
import { formatRetentionDays, RETENTION } from "#app/config/retention.ts";
import { dataControllerName } from "#app/config/placeholders.ts";
import { formatAddress, formatEuros, mailtoHref, telHref } from "#app/config/shop.ts";
import { useShop } from "#app/shop/use-shop.ts";
import { cn } from "#app/utils/cn.ts";
import { getMeta } from "#app/utils/meta.ts";
import { ISLANDS_HANDLE } from "#app/islands/names.ts";

/** No hydration: the islands script only (issue 16, docs/decisions/013). */
export const handle = ISLANDS_HANDLE;

export const meta: Route.MetaFunction = ({ matches }) =>
  getMeta(matches, {
    title: "Mentions légales",
    description:
      "Mentions légales du site : éditeur, directeur de la publication, hébergeur, propriété intellectuelle, données personnelles (RGPD) et cookies.",
    path: "/mentions-legales",
  });

const linkClass =
  "font-medium text-sky-300 underline underline-offset-4 hover:text-sky-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300";

/** A term/definition list of legal facts, in a card. */
function FactList({ facts }: { facts: readonly { term: string; value: ReactNode }[] }) {
  return (
    <Card className="max-w-3xl">
      <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-[minmax(0,14rem)_1fr]">
        {facts.map(({ term, value }) => (
          <div key={term} className="contents">
            <dt className="font-semibold text-white">{term}</dt>
            <dd className="mb-2 break-words text-slate-300 sm:mb-0">{value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

/** Issue 13 §11: what is kept how long, from the constants the server's purges use by default. */
const RETENTION_FACTS = [
  {
    term: "Demandes de contact et de devis",
    value: `${formatRetentionDays(RETENTION.requestDays)} après notre dernier contact (votre dernière demande)`,
  },
  {
    term: "Copies des e-mails de vos demandes",
    value: `${formatRetentionDays(RETENTION.sentMailDays)} après leur envoi à l'atelier ; jamais supprimées avant d'avoir été envoyées`,
  },
  {
    term: "Sessions d'assistance à distance",
    value: `${formatRetentionDays(RETENTION.sessionDays)} après la fin de la session (déroulé et messages échangés), pour garder la trace de l'intervention`,
  },
  {
    term: "Données de connexion d'une session (dont les adresses IP)",
    value: `supprimées à la fin de la session, et au plus tard ${RETENTION.signalingHours} heures après leur envoi`,
  },
  {
    term: "Conversation avec l'assistant virtuel",
    value: `${formatRetentionDays(RETENTION.assistantInactiveDays)} après votre dernier message (ou dès que vous cliquez sur « Nouvelle conversation »)`,
  },
  {
    term: "Avis sur les réponses de l'assistant virtuel",
    value: `${formatRetentionDays(RETENTION.assistantInactiveDays)} après l'avis ou sa dernière modification, avec son commentaire et l'extrait noté de la conversation (jusqu'à 10 messages), même après « Nouvelle conversation » ; l'atelier les lit pour améliorer l'assistant`,
  },
  {
    term: "Rendez-vous pris en ligne (nom, e-mail, téléphone, précisions)",
    value: `${formatRetentionDays(RETENTION.appointmentDays)} après la date du rendez-vous`,
  },
  {
    term: "Tickets de réparation (appareil, étapes, devis, coordonnées)",
    value: `${formatRetentionDays(RETENTION.repairTicketDays)} après la restitution ou l'annulation, pour répondre à la garantie ; jamais tant que la réparation est en cours`,
  },
  {
    term: "Compte de l'espace d'assistance",
    value:
      "jusqu'à sa suppression, sur simple demande ; les connexions et liens de réinitialisation expirés sont supprimés",
  },
] as const;

/** Body text of the legal sections. */
function Prose({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cn("flex max-w-3xl flex-col gap-4 text-lg text-slate-300", className)}>{children}</div>;
}

/** Spec §2 "Legal notices". */
export default function MentionsLegales() {
  const shop = useShop();
  const { legal } = shop;
  // Issue 40: the prose names the shop, never « (raison sociale à renseigner) »; the facts above stay as typed.
  const publisher = dataControllerName(shop);
  return (
    <>
      <PageHero
        title="Mentions légales"
        subtitle="Informations légales relatives au site, conformément à la loi n° 2004-575 du 21 juin 2004 pour la confiance dans l'économie numérique (LCEN)."
      />

      <Section title="Éditeur du site">
        <FactList
          facts={[
            { term: "Raison sociale", value: legal.entity },
            { term: "Forme juridique", value: legal.form },
            { term: "Capital social", value: formatEuros(legal.capitalEuros) },
            { term: "Immatriculation", value: legal.registration },
            { term: "N° de TVA intracommunautaire", value: legal.vatNumber },
            { term: "Siège social", value: formatAddress(shop.address) },
            {
              term: "Téléphone",
              value: (
                <a className={linkClass} href={telHref(shop)}>
                  {shop.phone.display}
                </a>
              ),
            },
            {
              term: "E-mail",
              value: (
                <a className={linkClass} href={mailtoHref(shop)}>
                  {shop.email}
                </a>
              ),
            },
          ]}
        />
      </Section>

      <Section title="Directeur de la publication">
        <FactList facts={[{ term: "Directeur de la publication", value: legal.publicationDirector }]} />
      </Section>

      <Section title="Hébergement">
        <FactList
          facts={[
            { term: "Hébergeur", value: legal.host.name },
            { term: "Adresse", value: legal.host.address },
            { term: "Téléphone", value: legal.host.phone },
          ]}
        />
      </Section>

      <Section title="Propriété intellectuelle">
        <Prose>
          <p>
            L'ensemble du contenu de ce site (textes, mises en page, logos, illustrations, icônes et code source) est la
            propriété de {publisher} ou de ses partenaires et est protégé par le Code de la propriété intellectuelle.
          </p>
          <p>
            Toute reproduction, représentation, modification ou diffusion, totale ou partielle, sans autorisation écrite
            préalable est interdite et constitue une contrefaçon sanctionnée par les articles L. 335-2 et suivants du
            Code de la propriété intellectuelle. Les marques citées (Apple, Samsung, Sony, Microsoft, Nintendo…)
            appartiennent à leurs propriétaires respectifs.
          </p>
        </Prose>
      </Section>

      <Section title="Protection des données personnelles">
        <Prose>
          <p>
            Les données personnelles que vous nous transmettez (par téléphone, par e-mail ou au moyen des formulaires du
            site) sont traitées par {publisher}, responsable du traitement, dans le respect de la loi n° 78-17 du 6
            janvier 1978 relative à l'informatique, aux fichiers et aux libertés (loi « Informatique et Libertés ») et
            du Règlement général sur la protection des données (RGPD, règlement (UE) 2016/679).
          </p>
          <p>
            Elles servent uniquement à répondre à vos demandes de contact, de devis ou d'assistance et sont conservées
            pendant les durées indiquées ci-dessous, puis supprimées automatiquement. Elles ne sont ni vendues ni cédées
            à des tiers ; seuls nos prestataires techniques (hébergement, envoi des e-mails, assistant virtuel) peuvent
            les traiter pour notre compte et pour ces seules finalités.
          </p>
        </Prose>
        <h3 className="mt-8 text-2xl font-semibold text-white">Durées de conservation</h3>
        <FactList facts={RETENTION_FACTS} />
        <h3 className="mt-8 text-2xl font-semibold text-white">Vos droits</h3>
        <ul className="mt-4 flex max-w-3xl list-disc flex-col gap-2 pl-6 text-lg text-slate-300 marker:text-sky-300">
          <li>
            <strong className="text-white">droit d'accès</strong> : savoir quelles données vous concernant nous détenons
            et en obtenir une copie ;
          </li>
          <li>
            <strong className="text-white">droit de rectification</strong> : faire corriger des données inexactes ou
            incomplètes ;
          </li>
          <li>
            <strong className="text-white">droit de suppression</strong> (droit à l'effacement) : obtenir l'effacement
            de vos données ;
          </li>
          <li>droit d'opposition, droit à la limitation du traitement et droit à la portabilité de vos données.</li>
        </ul>
        <h3 className="mt-8 text-2xl font-semibold text-white">Exercer vos droits</h3>
        <Prose className="mt-4">
          <p>
            Pour exercer ces droits, écrivez-nous par e-mail à{" "}
            <a className={`${linkClass} break-all`} href={mailtoHref(shop)}>
              {shop.email}
            </a>{" "}
            ou par courrier à {publisher}, {formatAddress(shop.address)}. Nous vous répondons dans un délai d'un mois.
          </p>
          <p>
            Si vous estimez que vos droits ne sont pas respectés, vous pouvez adresser une réclamation à la Commission
            nationale de l'informatique et des libertés (CNIL) :{" "}
            <a className={linkClass} href="https://www.cnil.fr/fr/plaintes" target="_blank" rel="noopener noreferrer">
              déposer une plainte auprès de la CNIL
              <span className="sr-only"> (nouvel onglet)</span>
            </a>
            .
          </p>
        </Prose>
      </Section>

      <Section title="Cookies">
        <Prose>
          <p>
            Ce site ne dépose aucun cookie de suivi, de mesure d'audience ou de publicité et ne fait appel à aucun
            service tiers de pistage.
          </p>
          <p>
            Seul l'espace d'assistance à distance, réservé aux utilisateurs connectés, utilisera des cookies strictement
            nécessaires à son fonctionnement (maintien de la connexion et sécurité). Conformément à l'article 82 de la
            loi « Informatique et Libertés », ces cookies techniques ne nécessitent pas votre consentement.
          </p>
        </Prose>
      </Section>
    </>
  );
}
