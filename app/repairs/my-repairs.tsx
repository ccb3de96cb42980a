/**
 * Issue 18 §2, "in their account if they have one": the customer screen's
 * « Mes réparations ». The account's repair tickets with their status and a
 * link to their tracking page, and a form to add one with its code and the
 * e-mail or phone given at the counter (the server checks both, as /suivi
 * does, with the same limit and sentence).
 */
import { useEffect, useId, useState } from "react";
import { Link } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import type { CustomerRepairLine } from "./protocol.ts";
import { addMyRepair, myRepairs } from "./repairs-client.ts";
import { formatInstant, REPAIR_STATUS_LABELS } from "./statuses.ts";

const input = "min-h-11 w-full rounded-lg border border-slate-500 bg-slate-950 px-3 text-white";

export function MyRepairs() {
  const [repairs, setRepairs] = useState<CustomerRepairLine[] | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  useEffect(() => {
    let current = true;
    void myRepairs().then((result) => {
      if (!current) return;
      if (result.ok) setRepairs(result.data.repairs);
      else setMessage({ ok: false, text: result.message });
    });
    return () => {
      current = false;
    };
  }, []);

  return (
    <section
      aria-labelledby={`${id}-titre`}
      className="flex flex-col gap-4 rounded-2xl border border-slate-700/80 bg-slate-900/80 p-5"
    >
      <h2 id={`${id}-titre`} className="text-2xl font-bold text-white">
        Mes réparations
      </h2>
      {repairs === null ? null : repairs.length === 0 ? (
        <p className="text-slate-300">Aucune réparation liée à votre compte pour le moment.</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {repairs.map((repair) => (
            <li
              key={repair.code}
              className="flex flex-wrap items-baseline justify-between gap-2 border-b border-slate-700/80 pb-2"
            >
              <span className="text-white">
                {repair.modelName} · {repair.repairLabel}
                <span className="block text-sm text-slate-300">
                  {repair.code} · mis à jour le {formatInstant(repair.updatedAt)}
                </span>
              </span>
              <span className="flex flex-col items-end gap-1">
                <span className="font-semibold text-sky-200">{REPAIR_STATUS_LABELS[repair.status]}</span>
                <Link
                  to={`/suivi?code=${encodeURIComponent(repair.code)}`}
                  className="text-sm text-sky-300 underline underline-offset-4"
                  reloadDocument
                >
                  Voir le suivi<span className="sr-only"> de la réparation {repair.code}</span>
                </Link>
              </span>
            </li>
          ))}
        </ul>
      )}
      <form
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.currentTarget;
          const data = new FormData(form);
          setBusy(true);
          void addMyRepair(String(data.get("code") ?? ""), String(data.get("contact") ?? "")).then((result) => {
            setBusy(false);
            if (!result.ok) return setMessage({ ok: false, text: result.message });
            setRepairs(result.data.repairs);
            setMessage({ ok: true, text: "Réparation ajoutée à votre compte." });
            form.reset();
          });
        }}
      >
        <h3 className="text-lg font-semibold text-white">Ajouter une réparation</h3>
        <p className="text-sm text-slate-300">Le code de suivi figure sur votre bon de dépôt et dans nos e-mails.</p>
        <div className="grid gap-3 sm:grid-cols-2">
          <span className="flex flex-col gap-1">
            <label htmlFor={`${id}-code`} className="text-slate-100">
              Code de suivi
            </label>
            <input id={`${id}-code`} name="code" required maxLength={20} autoComplete="off" className={input} />
          </span>
          <span className="flex flex-col gap-1">
            <label htmlFor={`${id}-contact`} className="text-slate-100">
              E-mail ou téléphone donné à l'atelier
            </label>
            <input id={`${id}-contact`} name="contact" required maxLength={254} className={input} />
          </span>
        </div>
        <div>
          <Button type="submit" variant="secondary" disabled={busy}>
            Ajouter à mon compte
          </Button>
        </div>
        <p role="status" className={message?.ok === false ? "font-medium text-red-300" : "text-emerald-200"}>
          {message?.text ?? ""}
        </p>
      </form>
    </section>
  );
}
