/**
 * The 22 brand pages /services/<brand>-repair (repair catalogue §2, §3, §9),
 * one template with variations by family:
 * - every page: hero (h1 = brand title), a statement that prices are
 *   minimums including taxes, an in-page navigation between series, one
 *   section per series (h2) with a card per model (h3, `#<model slug>`)
 *   listing each repair "à partir de N €", and the JSON-LD offers;
 * - smartphones and iPhone: the pricing and warranty notice of §9 and the
 *   'Votre modèle n'est pas répertorié ?' banner; the iPhone page adds a
 *   'Diagnostic gratuit' button (its series are the generation rows);
 * - tablets: trust blocks and 'Votre tablette n'est pas répertoriée ?';
 * - consoles: trust blocks and 'Votre console n'est pas répertoriée ?';
 * - while the shop shows the bonus réparation (rendered per request), its
 *   explanation once above the cards (issue 30 §3), not in each of them.
 *
 * The loader sends only this brand's data, with prices already formatted,
 * so the page's JavaScript never carries the whole catalogue.
 */
import { Link, replace } from "react-router";
import type { Route } from "./+types/services.brand";
import { CatalogueJsonLd } from "#app/components/catalogue/json-ld.tsx";
import { SeriesNav, SeriesSection } from "#app/components/catalogue/price-list.tsx";
import { PromiseGrid, REPAIR_TRUST, TABLET_TRUST } from "#app/components/catalogue/promise-grid.tsx";
import { ButtonLink } from "#app/components/ui/button.tsx";
import { FinderSection } from "#app/components/finder/finder-section.tsx";
import { Container, CtaBanner, PageHero } from "#app/components/ui/section.tsx";
import { brandPageForPath } from "#app/utils/catalogue-pages.server.ts";
import { getMeta } from "#app/utils/meta.ts";
import { catalogueTrail, categoryOfFamily } from "#app/utils/structured-data.ts";
import { ISLANDS_HANDLE } from "#app/islands/names.ts";
import { bookingServicesContext } from "#app/booking/context.ts";
import { withBonus } from "#app/booking/bonus.server.ts";
import { optionalContext } from "#app/utils/server-context.ts";
import { catalogueOf } from "#app/catalogue/context.ts";
import { BonusExplainer } from "#app/catalogue/bonus-explainer.tsx";

/** The brand whose page is `/services/:page`; any other page goes to / like an unknown path (spec §2, §8). */
export async function loader({ params, context }: Route.LoaderArgs) {
  // Issue 29: the server's current catalogue (prices edited in « Tarifs »), the JSON seed without a server.
  const page = brandPageForPath(`/services/${params.page}`, catalogueOf(context));
  if (!page) throw replace("/");
  // Pre-rendering has no server context: the built page never shows the bonus (issue 18 §3).
  const booking = optionalContext(context, bookingServicesContext);
  return booking && (await booking.bonusShown()) ? withBonus(page) : page;
}

/** No hydration: the islands script only (issue 16, docs/decisions/013). */
export const handle = ISLANDS_HANDLE;

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  getMeta(matches, {
    title: `${loaderData.brand.title} : tarifs par modèle`,
    description: loaderData.description,
    path: loaderData.brand.path,
  });

const TAXES = "Tous nos prix sont TTC, pièces et main-d'œuvre comprises.";
const MINIMUMS = "Ce sont des prix de départ («\u00a0à partir de\u00a0»), confirmés après le diagnostic gratuit.";

/** §9 pricing notice of the smartphone pages: aftermarket parts (30 days), original parts on request (12 months). */
function PhonePricingNotice() {
  return (
    <Container>
      <section
        aria-labelledby="tarifs-et-garantie-titre"
        className="rounded-2xl border border-amber-300/50 bg-amber-950/40 p-5 sm:p-6"
      >
        <h2 id="tarifs-et-garantie-titre" className="text-lg font-semibold text-amber-100">
          Tarifs et garantie
        </h2>
        <p className="mt-2 text-slate-100">
          Les prix affichés s'entendent avec des pièces premium compatibles, garanties 30&nbsp;jours. Pour une
          réparation avec des pièces d'origine constructeur, garantie 12&nbsp;mois,{" "}
          <Link to="/contact" className="font-semibold text-amber-100 underline underline-offset-4 hover:text-white">
            contactez directement l'atelier
          </Link>
          .
        </p>
        <p className="mt-2 text-slate-100">
          {TAXES} {MINIMUMS}
        </p>
      </section>
    </Container>
  );
}

/** The same "prix TTC, à partir de" statement on tablet and console pages, which have no §9 notice bar. */
function PriceNote() {
  return (
    <Container>
      <p className="max-w-3xl text-slate-300">
        {TAXES} {MINIMUMS}
      </p>
    </Container>
  );
}

/** Spec §2: the closing banner of each family, to /contact. */
const NOT_LISTED = {
  phone: {
    title: "Votre modèle n'est pas répertorié\u00a0?",
    text: "Contactez notre équipe pour avoir un tarif précis",
  },
  tablet: {
    title: "Votre tablette n'est pas répertoriée\u00a0?",
    text: "Contactez notre équipe pour avoir un tarif précis",
  },
  console: {
    title: "Votre console n'est pas répertoriée\u00a0?",
    text: "Contactez notre équipe pour un diagnostic gratuit et un tarif précis",
  },
} as const;

/** A brand page of spec §2 (smartphone, iPhone, tablet or console). */
export default function BrandPage({ loaderData }: Route.ComponentProps) {
  const { brand } = loaderData;
  const family = brand.family;
  const isPhone = family === "smartphone" || family === "iphone";
  const notListed = NOT_LISTED[isPhone ? "phone" : family];
  const showsBonus = brand.series.some((series) =>
    series.models.some((model) => model.repairs.some((repair) => repair.afterBonus)),
  );
  return (
    <>
      <CatalogueJsonLd trail={catalogueTrail(categoryOfFamily(family), brand)} brand={brand} />
      <PageHero title={brand.title} subtitle={brand.description}>
        {family === "iphone" ? (
          <ButtonLink to="/contact" size="lg">
            Diagnostic gratuit
          </ButtonLink>
        ) : null}
      </PageHero>
      <div className="flex flex-col gap-6">
        {isPhone ? <PhonePricingNotice /> : <PriceNote />}
        {showsBonus ? (
          <Container>
            <BonusExplainer intro className="max-w-3xl text-base" />
          </Container>
        ) : null}
        {brand.series.length > 1 ? <SeriesNav series={brand.series} /> : null}
      </div>
      <FinderSection
        brandSlug={brand.slug}
        label={`Trouver mon modèle ${brand.name}`}
        intro="Tapez votre modèle, et la panne si vous la connaissez, pour aller directement à son tarif."
      />
      {brand.series.map((series) => (
        <SeriesSection key={series.slug} series={series} wide={family === "iphone"} />
      ))}
      {family === "tablet" ? <PromiseGrid title="Nos engagements" items={TABLET_TRUST} /> : null}
      {family === "console" ? <PromiseGrid title="Nos engagements" items={REPAIR_TRUST} /> : null}
      <CtaBanner title={notListed.title} text={notListed.text} to="/contact" label="Contactez-nous" />
    </>
  );
}
