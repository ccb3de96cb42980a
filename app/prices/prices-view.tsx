/**
 * Issue 29, « Prices in the dashboard »: the « Tarifs » view, a lazy chunk of the technician dashboard shown
 * with `shop:manage` (the manager). Pick a brand, then its series → models → repairs with their prices
 * (Intl fr-FR €): edit a price inline with « prix de la boutique » / « estimation », hide or show a model,
 * add a model to a series; below, « Historique des modifications » (who, what, old → new, date fr-FR).
 *
 * Every rule is the server's (`server/catalogue/`): the view shows its French answers in a polite live
 * region and reads the catalogue and the history again after each change. The public pages, the finder and
 * the assistant follow within seconds, with no rebuild (docs/decisions/026).
 */
import { SHOP_TIME_ZONE } from "#app/booking/time-zone.ts";
import { useCallback, useEffect, useId, useState } from "react";
import type { HistoryEntry, PricesView as PricesData } from "#app/catalogue/prices-protocol.ts";
import { Card } from "#app/components/ui/card.tsx";
import { FormField, FormStatus, Select } from "#app/components/ui/field.tsx";
import { FreshReads } from "#app/utils/fresh-reads.ts";
import { AddModelForm } from "./add-model-form.tsx";
import { getHistory, getPrices, type CatalogueResult } from "./client.ts";
import { ModelCard } from "./model-card.tsx";

export type Notice = { tone: "success" | "error"; text: string } | null;
/** Runs a change and shows its answer; resolves with whether it was accepted. */
export type RunChange = (change: () => Promise<CatalogueResult<{ message: string }>>) => Promise<boolean>;

const DATE = new Intl.DateTimeFormat("fr-FR", { dateStyle: "short", timeStyle: "short", timeZone: SHOP_TIME_ZONE });

/** The « Tarifs » view. */
export default function PricesView() {
  const [prices, setPrices] = useState<PricesData | null>(null);
  const [history, setHistory] = useState<HistoryEntry[] | null>(null);
  const [brandSlug, setBrandSlug] = useState("");
  const [notice, setNotice] = useState<Notice>(null);
  const selectId = useId();

  // Saves follow each other faster than the reads after them: only the last read asked is shown.
  const [freshReads] = useState(() => new FreshReads());
  const load = useCallback(async (): Promise<void> => {
    const ticket = freshReads.begin();
    const [view, log] = await Promise.all([getPrices(), getHistory()]);
    const verdict = freshReads.verdict(ticket);
    if (verdict === "again") return load();
    if (verdict === "drop") return;
    if (view.ok) {
      setPrices(view.data);
      setBrandSlug((current) => current || view.data.brands[0]?.slug || "");
    } else setNotice({ tone: "error", text: view.message });
    if (log.ok) setHistory(log.data.entries);
  }, [freshReads]);
  useEffect(() => {
    void load();
  }, [load]);

  const run: RunChange = useCallback(
    async (change) => {
      setNotice(null);
      const result = await change();
      if (result.ok) freshReads.changed();
      setNotice(result.ok ? { tone: "success", text: result.data.message } : { tone: "error", text: result.message });
      if (result.ok) await load();
      return result.ok;
    },
    [load, freshReads],
  );

  const brand = prices?.brands.find((candidate) => candidate.slug === brandSlug);
  return (
    <div className="flex flex-col gap-8">
      <Card className="flex flex-col gap-6">
        <div className="flex flex-col gap-2">
          <h2 className="text-2xl font-bold text-white">Tarifs</h2>
          <p className="text-slate-300">
            Les prix sont des prix de départ TTC, en euros entiers. Une modification paraît sur le site en quelques
            secondes.
          </p>
        </div>
        <FormStatus tone={notice?.tone === "success" ? "success" : "error"}>{notice?.text ?? null}</FormStatus>
        {prices === null ? (
          <p className="text-slate-300">Chargement…</p>
        ) : (
          <FormField id={selectId} label="Marque">
            {(control) => (
              <Select {...control} value={brandSlug} onChange={(event) => setBrandSlug(event.target.value)}>
                {prices.brands.map((option) => (
                  <option key={option.slug} value={option.slug}>
                    {option.title}
                  </option>
                ))}
              </Select>
            )}
          </FormField>
        )}
      </Card>
      {brand ? (
        <>
          {brand.series.map((series) => (
            <section key={series.slug} aria-labelledby={`tarifs-${series.slug}`} className="flex flex-col gap-4">
              <h3 id={`tarifs-${series.slug}`} className="text-xl font-semibold text-white">
                {brand.name} — {series.name}
              </h3>
              <ul className="grid gap-4 lg:grid-cols-2" aria-label={`Modèles ${series.name}`}>
                {series.models.map((model) => (
                  <ModelCard key={model.slug} brandSlug={brand.slug} model={model} run={run} />
                ))}
              </ul>
            </section>
          ))}
          <AddModelForm brand={brand} run={run} />
        </>
      ) : null}
      <Card className="flex flex-col gap-4">
        <h2 className="text-2xl font-bold text-white">Historique des modifications</h2>
        {history === null ? (
          <p className="text-slate-300">Chargement…</p>
        ) : history.length === 0 ? (
          <p className="text-slate-300">Aucune modification : les tarifs sont ceux du catalogue d'origine.</p>
        ) : (
          <ul className="flex flex-col gap-2" aria-label="Modifications, la plus récente d'abord">
            {history.map((entry) => (
              <HistoryLine key={entry.id} entry={entry} />
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}

const CHANGES: Record<HistoryEntry["kind"], string> = {
  price: "prix",
  source: "origine du prix",
  hide: "modèle masqué",
  show: "modèle affiché",
  "add-model": "modèle ajouté",
};

function HistoryLine({ entry }: { entry: HistoryEntry }) {
  const what = `${entry.brand} ${entry.model}${entry.repair ? `, ${entry.repair}` : ""}`;
  const values =
    entry.oldValue !== null && entry.newValue !== null
      ? ` : ${entry.oldValue} → ${entry.newValue}`
      : entry.newValue !== null
        ? ` : ${entry.newValue}`
        : "";
  return (
    <li className="rounded-xl border border-white/10 bg-slate-900/60 px-4 py-3 text-slate-100">
      <time dateTime={entry.at} className="text-sm text-slate-300">
        {DATE.format(new Date(entry.at))}
      </time>{" "}
      — <span className="font-semibold">{entry.who}</span> — {what} ({CHANGES[entry.kind]}){values}
    </li>
  );
}
