/**
 * The price part of a brand page (repair catalogue §2 and §3): an in-page
 * navigation between series, one section per series (h2) and one card per
 * model (h3, anchored by the model's slug) listing its repairs and their
 * minimum prices. Plain server-rendered markup: a brand page can hold 40
 * cards, so nothing here has state or effects.
 */
import type { ModelView, SeriesView } from "#app/utils/catalogue-pages.server.ts";
import { cn } from "#app/utils/cn.ts";
import { Container } from "#app/components/ui/section.tsx";
import { bookingPath } from "#app/booking/paths.ts";

/** Links to every series section of the page (`#<series slug>`), shown above the price cards. */
export function SeriesNav({ series }: { series: readonly SeriesView[] }) {
  return (
    <Container>
      <nav aria-label="Séries de modèles" className="rounded-2xl border border-slate-700/80 bg-slate-900/80 p-4">
        <p className="mb-3 text-sm font-semibold tracking-wide text-sky-300 uppercase">Aller à la série</p>
        <ul className="flex flex-wrap gap-2">
          {series.map((item) => (
            <li key={item.slug}>
              <a
                href={`#${item.slug}`}
                className="inline-flex min-h-11 items-center rounded-full border border-slate-600 px-4 text-slate-100 transition-colors hover:border-sky-300 hover:text-sky-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300"
              >
                {item.name}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </Container>
  );
}

/** Small, so 40 cards of 6 lines stay light; 24 px high at least (WCAG 2.5.8) with room around. */
const BOOK_LINK =
  "inline-block py-0.5 text-sm font-medium text-sky-300 underline underline-offset-4 hover:text-sky-200 focus-visible:outline-2 focus-visible:outline-sky-300";

/**
 * One model's card: its name as an `<h3>` and its repairs as a `<dl>`
 * (term "Écran", definition "à partir de 49 €"), so a screen reader reads
 * each repair with its price, then the "Prendre rendez-vous" link of that
 * repair (issue 18 §1, a plain link: no JavaScript on the page until clicked)
 * and, when the shop shows it, the price after the bonus réparation (§3). Estimated prices carry `data-estimate="true"`
 * for the shop to find them; visitors see them like any other price.
 */
export function ModelCard({ model }: { model: ModelView }) {
  return (
    <li
      id={model.slug}
      className="flex scroll-mt-24 flex-col gap-3 rounded-2xl border border-slate-700/80 bg-slate-900/80 p-5 shadow-lg shadow-slate-950/40"
    >
      <h3 className="text-lg font-semibold text-white">{model.name}</h3>
      <dl className="divide-y divide-slate-700/80">
        {model.repairs.map((repair) => (
          <div key={repair.id} className="flex flex-wrap items-baseline justify-between gap-x-3 py-2">
            <dt className="text-slate-300">{repair.label}</dt>
            <dd className="font-semibold text-white" data-estimate={repair.estimate ? "true" : undefined}>
              {repair.text}
            </dd>
            {repair.afterBonus ? (
              <dd className="w-full text-right text-sm text-emerald-200">{repair.afterBonus}</dd>
            ) : null}
            <dd className="w-full text-right">
              <a href={bookingPath(model.slug, repair.id)} className={BOOK_LINK}>
                Prendre rendez-vous
                <span className="sr-only">
                  {" "}
                  : {repair.label}, {model.name}
                </span>
              </a>
            </dd>
          </div>
        ))}
      </dl>
    </li>
  );
}

/** A series section: `<h2>` = series name, `id` = series slug (target of `SeriesNav`), then its model cards. */
export function SeriesSection({ series, wide = false }: { series: SeriesView; wide?: boolean }) {
  const headingId = `${series.slug}-titre`;
  return (
    <section id={series.slug} aria-labelledby={headingId} className="scroll-mt-24 py-8 sm:py-10">
      <Container>
        <h2 id={headingId} className="text-2xl font-bold tracking-tight text-white sm:text-3xl">
          {series.name}
        </h2>
        <ul className={cn("mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3", wide && "xl:grid-cols-4")}>
          {series.models.map((model) => (
            <ModelCard key={model.slug} model={model} />
          ))}
        </ul>
      </Container>
    </section>
  );
}
