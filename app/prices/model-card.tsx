/**
 * Issue 29, « Tarifs »: one model's card — its repairs with their prices, each editable inline (price in
 * whole euros and « prix de la boutique » / « estimation »), and « Masquer » / « Afficher ». Keyboard: the
 * « Modifier » button opens the inline form with the price field focused; Escape or « Annuler » closes it and
 * gives the focus back to « Modifier ».
 */
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import type { PricesModel, PricesRepair } from "#app/catalogue/prices-protocol.ts";
import { Button } from "#app/components/ui/button.tsx";
import { Input, Select } from "#app/components/ui/field.tsx";
import { savePrice, setVisibility } from "./client.ts";
import type { RunChange } from "./prices-view.tsx";

/** "149 €", the fr-FR way (no-break spaces). */
export const EUROS = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR", maximumFractionDigits: 0 });

export function ModelCard({ brandSlug, model, run }: { brandSlug: string; model: PricesModel; run: RunChange }) {
  const headingId = useId();
  return (
    <li
      className={`flex flex-col gap-3 rounded-2xl border p-4 ${model.hidden ? "border-dashed border-slate-500 bg-slate-950/40" : "border-white/10 bg-slate-900/60"}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 id={headingId} className="text-lg font-semibold text-white">
          {model.name}
          {model.hidden ? <span className="ml-2 text-sm font-normal text-amber-200">(masqué sur le site)</span> : null}
        </h4>
        <Button
          type="button"
          variant="secondary"

          aria-label={`${model.hidden ? "Afficher" : "Masquer"} ${model.name}`}
          onClick={() => void run(() => setVisibility({ brand: brandSlug, model: model.slug, hidden: !model.hidden }))}
        >
          {model.hidden ? "Afficher" : "Masquer"}
        </Button>
      </div>
      <ul className="flex flex-col gap-2">
        {model.repairs.map((repair) => (
          <RepairLine key={repair.id} brandSlug={brandSlug} model={model} repair={repair} run={run} />
        ))}
      </ul>
    </li>
  );
}

function RepairLine({
  brandSlug,
  model,
  repair,
  run,
}: {
  brandSlug: string;
  model: PricesModel;
  repair: PricesRepair;
  run: RunChange;
}) {
  const [editing, setEditing] = useState(false);
  const [euros, setEuros] = useState(String(repair.euros));
  const [estimate, setEstimate] = useState(repair.estimate);
  const [saving, setSaving] = useState(false);
  const priceRef = useRef<HTMLInputElement>(null);
  const openRef = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  const id = useId();
  const what = `${repair.label} de ${model.name}`;

  useEffect(() => {
    if (editing) priceRef.current?.focus();
    else if (wasEditing.current) openRef.current?.focus();
    wasEditing.current = editing;
  }, [editing]);

  function open() {
    setEuros(String(repair.euros));
    setEstimate(repair.estimate);
    setEditing(true);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaving(true);
    const accepted = await run(() =>
      savePrice({ brand: brandSlug, model: model.slug, repair: repair.id, euros: Number(euros), estimate }),
    );
    setSaving(false);
    if (accepted) setEditing(false);
  }

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape") setEditing(false);
  };

  if (!editing) {
    return (
      <li className="flex flex-wrap items-center justify-between gap-2 text-slate-100">
        <span>
          {repair.label} : <span className="font-semibold">{EUROS.format(repair.euros)}</span>{" "}
          <span className={repair.estimate ? "text-amber-200" : "text-emerald-200"}>
            ({repair.estimate ? "estimation" : "prix de la boutique"})
          </span>
        </span>
        <Button ref={openRef} type="button" variant="secondary" aria-label={`Modifier ${what}`} onClick={open}>
          Modifier
        </Button>
      </li>
    );
  }
  return (
    <li>
      <form
        onSubmit={(event) => void submit(event)}
        onKeyDown={onKeyDown}
        aria-label={`Prix ${what}`}
        className="flex flex-wrap items-end gap-2 rounded-xl bg-slate-950/60 p-3"
      >
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-prix`} className="text-sm text-slate-200">
            {repair.label} ({model.name}), en euros
          </label>
          <Input
            ref={priceRef}
            id={`${id}-prix`}
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            required
            value={euros}
            onChange={(event) => setEuros(event.target.value)}
            className="w-28"
          />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-origine`} className="text-sm text-slate-200">
            Origine du prix
          </label>
          <Select
            id={`${id}-origine`}
            value={estimate ? "estimate" : "shop"}
            onChange={(event) => setEstimate(event.target.value === "estimate")}
            aria-describedby={model.estimable ? undefined : `${id}-origine-aide`}
          >
            <option value="shop">Prix de la boutique</option>
            {/* An estimate is checked against the model's generation (year, line), which an added model lacks. */}
            {model.estimable ? <option value="estimate">Estimation</option> : null}
          </Select>
          {model.estimable ? null : (
            <p id={`${id}-origine-aide`} className="text-xs text-slate-300">
              Modèle ajouté à l'atelier : prix de la boutique uniquement.
            </p>
          )}
        </div>
        <Button type="submit" disabled={saving}>
          {saving ? "Enregistrement…" : "Enregistrer"}
        </Button>
        <Button type="button" variant="secondary" onClick={() => setEditing(false)}>
          Annuler
        </Button>
      </form>
    </li>
  );
}
