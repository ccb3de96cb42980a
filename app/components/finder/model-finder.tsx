/**
 * Model finder (issue 3): type a model, and optionally a repair ("ps5 hdmi",
 * "iphone 13 écran", "redmi pad se"), see the matching models with their
 * prices and open a model's card on its brand page.
 *
 * WAI-ARIA APG combobox with a listbox popup (list autocomplete, manual
 * selection):
 * - the `<input role="combobox">` keeps the focus; ArrowDown / ArrowUp move
 *   the active option (`aria-activedescendant`, wrapping), Alt+ArrowDown opens
 *   the list without moving, Alt+ArrowUp closes it;
 * - Enter opens the active option's page, or the first result when none is
 *   active;
 * - Escape closes the list, and a second Escape clears the field;
 * - options are links, so a click or a tap opens the page too;
 * - a polite status announces "3 modèles trouvés" / "Aucun modèle trouvé",
 *   the latter with a link to /contact.
 *
 * The search runs in the browser over the server's index of the current
 * catalogue (issue 29: `GET /api/catalogue/recherche`, with the prices edited in
 * « Tarifs »), loaded with the engine (`./finder-engine.ts`) when a pointer reaches the field, or it
 * gets the focus or text; not with the page (issue 16: the brand page loads
 * 74 KB of JavaScript, 94 KB once the finder is used): no network request
 * while typing. The server-rendered HTML holds the
 * labelled field and an empty (hidden) list; results are client-side only.
 *
 * It needs no router (issue 16, docs/decisions/013): the content pages
 * hydrate it alone as an island (`FinderSection`), so its links are plain
 * `<a href>` and Enter loads the page (`./go-to.ts`), the pre-rendered page
 * of the model's brand. Nor does it use tailwind-merge (13 KB gzip).
 *
 * Usage: `<ModelFinder />` searches the whole catalogue; on a category or a
 * brand page, scope it: `<ModelFinder family="tablet" />`,
 * `<ModelFinder family={["smartphone", "iphone"]} />`,
 * `<ModelFinder brandSlug="xiaomi-tablet" />`.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import type { Family } from "#app/catalogue/index.ts";
import { formatPrice } from "#app/catalogue/format.ts";
import type { ModelHit, ModelSearchResult } from "#app/catalogue/search.ts";
import { clsx } from "clsx";
import { flushSync } from "react-dom";
import { goTo } from "./go-to.ts";
import { fetchSearchPayload } from "./search-index-client.ts";
import { bookingPath } from "#app/booking/paths.ts";

type Engine = import("./finder-engine").FinderEngine;

let enginePromise: Promise<Engine> | undefined;

/**
 * Loads the search engine chunk and the server's index (issue 29: the current prices) together, once per
 * page (shared by every finder).
 */
function loadEngine(): Promise<Engine> {
  enginePromise ??= Promise.all([import("./finder-engine"), fetchSearchPayload()])
    .then(([engine, payload]) => engine.createFinderEngine(payload))
    .catch((error: unknown) => {
      enginePromise = undefined; // let a later focus retry
      throw error;
    });
  return enginePromise;
}

export type ModelFinderProps = {
  /** Only models of these families, e.g. `"tablet"` or `["smartphone", "iphone"]` (default: all). */
  family?: Family | readonly Family[];
  /** Only models of this brand, by catalogue brand slug, e.g. `"xiaomi-tablet"` (default: all). */
  brandSlug?: string;
  /** Visible label of the field (default "Trouver mon modèle"). */
  label?: string;
  /** Example text in the empty field. */
  placeholder?: string;
  /** Maximum number of models listed (default 6). */
  limit?: number;
  /** How many repairs each model lists (default 3), the repairs the query names first. */
  repairsShown?: number;
  className?: string;
  /**
   * Prefix of the ids of the field, list and options (default: React's `useId`). An island gets
   * one, e.g. "prix-modele": hydrated alone, its `useId` would not match the page's.
   */
  id?: string;
};

const FAMILY_LABELS: Record<Family, string> = {
  smartphone: "Smartphone",
  iphone: "Smartphone",
  tablet: "Tablette",
  console: "Console",
};

/** Lucide's "search" icon, inline: lucide-react would add 1.6 KB gzip to the finder's island (issue 16). */
function SearchIcon() {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width="24"
      height="24"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      className="lucide lucide-search pointer-events-none absolute top-1/2 left-4 size-5 -translate-y-1/2 text-slate-400"
      aria-hidden="true"
    >
      <path d="m21 21-4.34-4.34" />
      <circle cx="11" cy="11" r="8" />
    </svg>
  );
}

/** "3 modèles trouvés", "23 modèles trouvés, les 6 premiers affichés", "Aucun modèle trouvé". */
/**
 * One option of the list: a model (to its price card) followed by its
 * "Prendre rendez-vous" (issue 18 §1: the booking form for the model and the
 * repair typed, if one was).
 */
type FinderOption = { key: string; hit: ModelHit; href: string; book: boolean; repairLabel?: string };

function optionsOf(hits: readonly ModelHit[]): FinderOption[] {
  return hits.flatMap((hit) => {
    const matched = hit.repairs.find((repair) => repair.matched);
    return [
      { key: hit.slug, hit, href: hit.href, book: false },
      {
        key: `${hit.slug}-rdv`,
        hit,
        href: bookingPath(hit.slug, matched?.id),
        book: true,
        repairLabel: matched?.label,
      },
    ];
  });
}

function statusText(result: ModelSearchResult): string {
  const { total, hits } = result;
  if (total === 0) return "Aucun modèle trouvé.";
  const found = total === 1 ? "1 modèle trouvé" : `${total} modèles trouvés`;
  return hits.length < total ? `${found}, les ${hits.length} premiers affichés.` : `${found}.`;
}

export function ModelFinder({
  family,
  brandSlug,
  label = "Trouver mon modèle",
  placeholder = "Ex. : iPhone 13 écran, PS5 HDMI…",
  limit = 6,
  repairsShown = 3,
  className,
  id: idPrefix,
}: ModelFinderProps) {
  const reactId = useId();
  const id = idPrefix ?? reactId;
  const inputId = `${id}-champ`;
  const labelId = `${id}-libelle`;
  const hintId = `${id}-aide`;
  const listboxId = `${id}-liste`;
  const statusId = `${id}-statut`;
  const optionId = useCallback((option: FinderOption) => `${id}-${option.key}`, [id]);

  const inputRef = useRef<HTMLInputElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const [engine, setEngine] = useState<Engine>();
  const [query, setQuery] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);

  const ensureEngine = () => {
    if (engine) return;
    loadEngine().then(setEngine, () => {});
  };

  useEffect(() => {
    // Text typed before hydration is kept by the browser: search it.
    const input = inputRef.current;
    const typed = input?.value ?? "";
    if (typed !== "") {
      setQuery(typed);
      setOpen(true);
    }
    // Focused or typed in before hydration: the visitor is already using it, no focus event will come.
    if (typed !== "" || (input && document.activeElement === input)) loadEngine().then(setEngine, () => {});
  }, []);

  // A stable key for the scope, so that an inline array prop does not re-run the search.
  const familyKey = family === undefined ? "" : typeof family === "string" ? family : family.join(",");
  const result = useMemo(
    () => (engine && query.trim() !== "" ? engine.findModels(query, { family, brandSlug, limit }) : undefined),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `family` is tracked through familyKey
    [engine, query, familyKey, brandSlug, limit],
  );
  const hits = result?.hits ?? [];
  const options = useMemo(() => optionsOf(result?.hits ?? []), [result]);
  const expanded = open && options.length > 0;
  const activeOption = expanded && active >= 0 ? options[active] : undefined;

  useEffect(() => {
    if (activeOption) document.getElementById(optionId(activeOption))?.scrollIntoView?.({ block: "nearest" });
  }, [activeOption, optionId]);

  const go = (option: FinderOption) => {
    // Collapse the list first: on the model's own brand page, the browser scrolls to its card at once,
    // and a list collapsing afterwards would move the card out of view.
    flushSync(() => {
      setOpen(false);
      setActive(-1);
    });
    goTo(option.href);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case "ArrowDown":
      case "ArrowUp": {
        if (options.length === 0) return;
        event.preventDefault();
        if (event.altKey) {
          setOpen(event.key === "ArrowDown");
          if (event.key === "ArrowUp") setActive(-1);
          return;
        }
        const last = options.length - 1;
        setOpen(true);
        if (!expanded) setActive(event.key === "ArrowDown" ? 0 : last);
        else if (event.key === "ArrowDown") setActive(active >= last ? 0 : active + 1);
        else setActive(active <= 0 ? last : active - 1);
        return;
      }
      case "Enter": {
        const target = activeOption ?? options[0];
        if (!target) return;
        event.preventDefault();
        go(target);
        return;
      }
      case "Escape": {
        if (expanded) {
          event.preventDefault();
          setOpen(false);
          setActive(-1);
        } else if (query !== "") {
          event.preventDefault();
          setQuery("");
          setActive(-1);
        }
        return;
      }
    }
  };

  const showStatus = result !== undefined && (open || hits.length === 0);

  return (
    <div
      ref={rootRef}
      role="search"
      aria-labelledby={labelId}
      className={clsx("flex w-full max-w-3xl flex-col gap-2", className)}
    >
      <label id={labelId} htmlFor={inputId} className="text-lg font-semibold text-white">
        {label}
      </label>
      <p id={hintId} className="text-sm text-slate-300">
        Votre modèle et, si vous le souhaitez, la réparation : «&nbsp;iPhone 13 écran&nbsp;», «&nbsp;PS5 HDMI&nbsp;»,
        «&nbsp;Redmi Pad SE&nbsp;».
      </p>
      <div className="relative">
        <SearchIcon />
        <input
          ref={inputRef}
          id={inputId}
          type="text"
          role="combobox"
          aria-expanded={expanded}
          aria-controls={listboxId}
          aria-autocomplete="list"
          aria-activedescendant={activeOption ? optionId(activeOption) : undefined}
          aria-describedby={hintId}
          autoComplete="off"
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          enterKeyHint="go"
          placeholder={placeholder}
          value={query}
          onChange={(event) => {
            ensureEngine();
            setQuery(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          // A pointer over the field (or a finger on it) announces a search: fetch the engine now.
          onPointerEnter={ensureEngine}
          onFocus={() => {
            ensureEngine();
            setOpen(true);
          }}
          onBlur={(event) => {
            // Keep the list while the pointer is on it (its links are followed on click).
            if (!rootRef.current?.contains(event.relatedTarget)) {
              setOpen(false);
              setActive(-1);
            }
          }}
          onKeyDown={onKeyDown}
          className="min-h-12 w-full rounded-xl border border-slate-500 bg-slate-950/80 py-3 pr-4 pl-12 text-lg text-white placeholder:text-slate-400 focus-visible:border-sky-300 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300"
        />
      </div>
      <div
        id={listboxId}
        role="listbox"
        aria-label="Modèles trouvés"
        hidden={!expanded}
        // The focus stays in the field: a press on an option must not blur it before the click.
        onMouseDown={(event) => event.preventDefault()}
        className="flex flex-col gap-2 rounded-2xl border border-slate-700/80 bg-slate-900/95 p-2 shadow-lg shadow-slate-950/40"
      >
        {options.map((option, position) => {
          const { hit } = option;
          const common = {
            id: optionId(option),
            role: "option",
            "aria-selected": position === active,
            tabIndex: -1,
            href: option.href,
            onClick: () => {
              setOpen(false);
              setActive(-1);
            },
            onMouseMove: () => {
              if (position !== active) setActive(position);
            },
          } as const;
          if (option.book) {
            // Issue 18 §1: every result offers the booking form for its model and the repair typed, if any.
            return (
              <a
                key={option.key}
                {...common}
                className={clsx(
                  "-mt-2 self-end rounded-xl border px-4 py-2 text-sm font-medium text-sky-300 underline underline-offset-4 hover:bg-slate-800",
                  position === active ? "border-sky-300 bg-slate-800" : "border-transparent",
                )}
              >
                Prendre rendez-vous
                <span className="sr-only">
                  {" "}
                  : {option.repairLabel ? `${option.repairLabel}, ` : ""}
                  {hit.name}
                </span>
              </a>
            );
          }
          return (
            <a
              key={option.key}
              {...common}
              className={clsx(
                "flex flex-col gap-1 rounded-xl border px-4 py-3 text-slate-200 transition-colors hover:bg-slate-800 sm:flex-row sm:items-baseline sm:justify-between sm:gap-4",
                position === active ? "border-sky-300 bg-slate-800" : "border-transparent",
              )}
            >
              <span className="flex flex-col">
                <span className="text-lg font-semibold text-white">{hit.name}</span>
                <span className="text-sm text-slate-300">
                  <span className="sr-only">, </span>
                  {hit.brand} · {FAMILY_LABELS[hit.family]}
                </span>
              </span>
              <span className="flex flex-col text-sm sm:items-end">
                {hit.repairs.slice(0, repairsShown).map((repair) => (
                  <span key={repair.id} className={repair.matched ? "font-semibold text-sky-200" : undefined}>
                    <span className="sr-only">, </span>
                    {repair.label} — {formatPrice(repair.euros)}
                  </span>
                ))}
              </span>
            </a>
          );
        })}
      </div>
      <p id={statusId} role="status" className={clsx("text-sm text-slate-300", !showStatus && "sr-only")}>
        {result ? statusText(result) : ""}
        {result && result.total === 0 ? (
          <>
            {" "}
            <a href="/contact" className="font-semibold text-sky-300 underline underline-offset-2 hover:text-sky-200">
              Contactez-nous
            </a>{" "}
            pour un tarif précis.
          </>
        ) : null}
      </p>
    </div>
  );
}
