/**
 * Issue 29, « Tarifs »: « Ajouter un modèle » to one of the brand's series — its name and a price (whole
 * euros, « prix de la boutique ») for each repair the series' models have. The server makes its slug and
 * checks it with the catalogue loader's rules; its French answer shows in the view's live region.
 */
import { useId, useState, type FormEvent } from "react";
import type { PricesBrand } from "#app/catalogue/prices-protocol.ts";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { FormField, Input, Select } from "#app/components/ui/field.tsx";
import { addModel } from "./client.ts";
import type { RunChange } from "./prices-view.tsx";

export function AddModelForm({ brand, run }: { brand: PricesBrand; run: RunChange }) {
  const [seriesSlug, setSeriesSlug] = useState(brand.series[0]?.slug ?? "");
  const [name, setName] = useState("");
  const [prices, setPrices] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const id = useId();
  const series = brand.series.find((candidate) => candidate.slug === seriesSlug) ?? brand.series[0];
  // The repairs of the series' models (a console's differ by model: those of its first one).
  const repairs = series?.models[0]?.repairs ?? [];

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!series) return;
    setSaving(true);
    const accepted = await run(() =>
      addModel({
        brand: brand.slug,
        series: series.slug,
        name,
        prices: Object.fromEntries(repairs.map((repair) => [repair.id, Number(prices[repair.id] ?? "")])),
      }),
    );
    setSaving(false);
    if (accepted) {
      setName("");
      setPrices({});
    }
  }

  return (
    <Card className="flex flex-col gap-4">
      <h3 className="text-xl font-semibold text-white">Ajouter un modèle ({brand.name})</h3>
      <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField id={`${id}-serie`} label="Série" required>
            {(control) => (
              <Select {...control} value={series?.slug ?? ""} onChange={(event) => setSeriesSlug(event.target.value)}>
                {brand.series.map((option) => (
                  <option key={option.slug} value={option.slug}>
                    {option.name}
                  </option>
                ))}
              </Select>
            )}
          </FormField>
          <FormField id={`${id}-nom`} label="Nom du modèle" required>
            {(control) => (
              <Input {...control} value={name} maxLength={80} onChange={(event) => setName(event.target.value)} />
            )}
          </FormField>
        </div>
        <fieldset className="grid gap-4 sm:grid-cols-3">
          <legend className="mb-2 text-slate-200">Prix de départ en euros (prix de la boutique)</legend>
          {repairs.map((repair) => (
            <FormField key={repair.id} id={`${id}-${repair.id}`} label={repair.label} required>
              {(control) => (
                <Input
                  {...control}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  step={1}
                  value={prices[repair.id] ?? ""}
                  onChange={(event) => setPrices((current) => ({ ...current, [repair.id]: event.target.value }))}
                />
              )}
            </FormField>
          ))}
        </fieldset>
        <div>
          <Button type="submit" disabled={saving}>
            {saving ? "Ajout…" : "Ajouter le modèle"}
          </Button>
        </div>
      </form>
    </Card>
  );
}
