/**
 * Issue 40: the dashboard's « Mise en ligne » view (the manager, `shop:manage`; a lazy chunk): what is
 * still unfilled or unsafe before the shop opens its site (`GET /api/go-live`, rules in
 * `server/go-live/checklist.ts`), each point « À faire » or « Fait », with a button to its setting's view
 * (« Boutique », « Sauvegardes ») and, for a setting of the server's configuration, the variables to set.
 */
import { useEffect, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { FormStatus } from "#app/components/ui/field.tsx";
import { getGoLiveChecklist } from "./client.ts";
import type { GoLiveChecklist, GoLiveItem } from "./protocol.ts";

/** The dashboard views an item may open, and how their tab is named. */
export type GoLiveView = "shop" | "backups";
const VIEW_LABELS: Record<GoLiveView, string> = { shop: "Boutique", backups: "Sauvegardes" };

/** « 2 points à régler avant l'ouverture », or that everything is done. */
export function remainingText(remaining: number): string {
  if (remaining === 0) return "Tout est prêt pour l'ouverture.";
  return `${remaining} point${remaining > 1 ? "s" : ""} à régler avant l'ouverture.`;
}

export default function GoLiveChecklistView({ onOpen }: { onOpen: (view: GoLiveView) => void }) {
  const [checklist, setChecklist] = useState<GoLiveChecklist | null>(null);
  const [failed, setFailed] = useState("");
  useEffect(() => {
    let current = true;
    void getGoLiveChecklist().then((result) => {
      if (!current) return;
      if (result.ok) setChecklist(result.data);
      else setFailed(result.message);
    });
    return () => {
      current = false;
    };
  }, []);

  return (
    <Card className="flex flex-col gap-4">
      <h2 className="text-2xl font-bold text-white">Mise en ligne</h2>
      {failed ? (
        <FormStatus tone="error">{failed}</FormStatus>
      ) : !checklist ? (
        <p className="text-slate-300">Chargement…</p>
      ) : (
        <>
          <p className="text-lg text-slate-100">{remainingText(checklist.remaining)}</p>
          <ul className="flex flex-col gap-3" aria-label="Points à vérifier avant l'ouverture">
            {checklist.items.map((item) => (
              <ChecklistItem key={item.id} item={item} onOpen={onOpen} />
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}

function ChecklistItem({ item, onOpen }: { item: GoLiveItem; onOpen: (view: GoLiveView) => void }) {
  const { view, variables } = item.setting;
  /** Opens the view; the focus goes to its tab (this button leaves the page with the checklist). */
  const open = (target: GoLiveView) => {
    onOpen(target);
    requestAnimationFrame(() =>
      document.querySelector<HTMLElement>('nav[aria-label="Vues du tableau de bord"] [aria-pressed="true"]')?.focus(),
    );
  };
  return (
    <li
      className={`flex flex-col gap-2 rounded-xl border p-4 ${item.done ? "border-slate-700" : "border-amber-400/60"}`}
    >
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h3 className="text-lg font-semibold text-white">{item.title}</h3>
        <span className={item.done ? "font-semibold text-emerald-300" : "font-semibold text-amber-200"}>
          {item.done ? "Fait" : "À faire"}
        </span>
      </div>
      <p className="text-slate-200">{item.detail}</p>
      {!item.done && variables.length > 0 ? (
        <p className="text-slate-300">
          Réglage du serveur :{" "}
          {variables.map((name, index) => (
            <span key={name}>
              {index > 0 ? ", " : null}
              <code className="font-mono text-slate-100">{name}</code>
            </span>
          ))}{" "}
          (fichier .env du site, voir « Configuration » dans le guide d'exploitation).
        </p>
      ) : null}
      {view ? (
        <Button type="button" variant="secondary" className="self-start" onClick={() => open(view)}>
          Ouvrir « {VIEW_LABELS[view]} »<span className="sr-only"> pour : {item.title}</span>
        </Button>
      ) : null}
    </li>
  );
}
