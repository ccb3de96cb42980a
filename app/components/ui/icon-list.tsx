/**
 * A list of short highlights, each with an icon, a bold title and a line of
 * text (spec §1 promises such as "Diagnostic gratuit" or "Garantie 12 mois").
 */
import type { ReactNode } from "react";
import { cn } from "#app/utils/cn.ts";

export type IconListItem = { title: string; text?: ReactNode; icon: ReactNode };

/** A `<ul>` of highlights; icons are decorative (hidden from assistive technology). */
export function IconList({ items, className }: { items: readonly IconListItem[]; className?: string }) {
  return (
    <ul className={cn("flex flex-col gap-5", className)}>
      {items.map((item) => (
        <li key={item.title} className="flex gap-4">
          <span
            aria-hidden="true"
            className="inline-flex size-11 shrink-0 items-center justify-center rounded-xl bg-sky-400/15 text-sky-300"
          >
            {item.icon}
          </span>
          <span className="flex flex-col">
            <strong className="text-lg font-semibold text-white">{item.title}</strong>
            {item.text ? <span className="text-slate-300">{item.text}</span> : null}
          </span>
        </li>
      ))}
    </ul>
  );
}
