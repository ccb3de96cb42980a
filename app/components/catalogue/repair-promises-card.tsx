/**
 * The hero card listing the four repair promises (repair catalogue §1:
 * Diagnostic gratuit, Express 1H, Pièces d'origine, Garantie 12 mois) on
 * the home page and the repair-service home (issue 14: one block for both).
 */
import { Card } from "#app/components/ui/card.tsx";
import { IconList } from "#app/components/ui/icon-list.tsx";
import { REPAIR_PROMISES, repairIcons } from "#app/config/repair-categories.ts";

const ITEMS = REPAIR_PROMISES.map((promise) => {
  const Icon = repairIcons[promise.icon];
  return { title: promise.title, text: promise.text, icon: <Icon className="size-6" /> };
});

/** `heading` is the small caption above the list (a paragraph, not a heading: the hero's `<h1>` comes first). */
export function RepairPromisesCard({ heading }: { heading: string }) {
  return (
    <Card className="p-6 sm:p-8">
      <p className="mb-5 text-sm font-semibold tracking-wide text-sky-300 uppercase">{heading}</p>
      <IconList items={ITEMS} />
    </Card>
  );
}
