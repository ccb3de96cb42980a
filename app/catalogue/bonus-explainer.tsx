/**
 * Issue 30 §3: what « X € après bonus réparation » means, for customers,
 * wherever that line is shown (the brand pages, the booking summary, the
 * ticket on `/suivi`): a `<details>` « Qu'est-ce que le bonus réparation ? »
 * with what it is, its conditions and a link to the official page.
 *
 * Plain HTML: `<details>` opens without JavaScript, so the brand pages stay
 * static islands (decisions 013 and 025). The facts are written out here
 * rather than read from `bonus-reparation.ts`, which validates its JSON with
 * zod: importing it would put zod into `/suivi`'s small bundle.
 * `bonus-explainer.test.tsx` checks `BONUS_FACTS` against the JSON, so a
 * new amount or family there fails the tests until this text follows.
 */
import { cn } from "#app/utils/cn.ts";

/**
 * The state's page on the bonus (bonus-reparation.json lists only press
 * articles, so the ministry's page is the official source customers get).
 */
export const BONUS_REPARATION_OFFICIAL_URL = "https://www.ecologie.gouv.fr/politiques-publiques/bonus-reparation";

/**
 * What the explanation says is eligible, as in bonus-reparation.json:
 * `families` (catalogue families with an amount), `repairs` (French names of
 * the eligible repair kinds, camera front and rear counted as one), `euros`
 * (the one amount, whole euros) and `notEligible` (a phone repair the text
 * names as excluded).
 */
export const BONUS_FACTS = {
  families: ["smartphone", "iphone"],
  repairs: ["écran", "batterie", "caméra"],
  euros: 25,
  notEligible: "vitre arrière",
} as const;

const linkClass =
  "font-medium text-sky-300 underline underline-offset-4 hover:text-sky-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300";

/**
 * The explanation; `intro` adds a visible first sentence for a page where it
 * stands apart from the price lines (a brand page shows it once above its
 * cards, not in each of them). `className` places it in its surroundings.
 */
export function BonusExplainer({ intro = false, className }: { intro?: boolean; className?: string }) {
  const [screen, battery, camera] = BONUS_FACTS.repairs;
  return (
    <div className={cn("flex flex-col gap-2 text-sm text-slate-200", className)}>
      {intro ? (
        <p>
          Les prix « après bonus réparation » tiennent compte du bonus réparation de l'État, déduit de la facture pour
          les réparations éligibles.
        </p>
      ) : null}
      <details>
        <summary className={cn("inline-block cursor-pointer py-0.5", linkClass)}>
          Qu'est-ce que le bonus réparation&nbsp;?
        </summary>
        <div className="mt-2 flex flex-col gap-2 rounded-xl border border-slate-700/80 bg-slate-950/60 p-4">
          <p>
            Le bonus réparation est une aide de l'État pour faire réparer ses appareils plutôt que les remplacer. Le
            réparateur labellisé QualiRépar le déduit directement de votre facture, puis se fait rembourser par un
            éco-organisme (Ecosystem ou Ecologic)&nbsp;: vous n'avez aucune démarche à faire.
          </p>
          <p>Il s'applique si&nbsp;:</p>
          <ul className="list-disc space-y-1 pl-5">
            <li>
              la réparation est éligible&nbsp;: pour un smartphone ou un iPhone, l'{screen} cassé, la {battery} ou la{" "}
              {camera} ({BONUS_FACTS.euros}&nbsp;€ selon le barème en vigueur)&nbsp;; la {BONUS_FACTS.notEligible}, qui
              est esthétique, n'y ouvre pas droit&nbsp;;
            </li>
            <li>l'appareil n'est plus sous garantie (garantie légale ou commerciale)&nbsp;;</li>
            <li>la réparation est faite par un réparateur labellisé QualiRépar.</li>
          </ul>
          <p>Le montant déduit apparaît sur votre facture.</p>
          <p>
            <a href={BONUS_REPARATION_OFFICIAL_URL} target="_blank" rel="noopener noreferrer" className={linkClass}>
              Le bonus réparation sur le site officiel ecologie.gouv.fr (s'ouvre dans un nouvel onglet)
            </a>
          </p>
        </div>
      </details>
    </div>
  );
}
