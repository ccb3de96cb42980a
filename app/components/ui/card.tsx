/** Content cards and the small building blocks of marketing pages. */
import type { LucideIcon } from "lucide-react";
import type { ComponentProps, ReactNode } from "react";
import { Link } from "react-router";
import { cn } from "#app/utils/cn.ts";
import { ButtonLink } from "./button";

export function Card({ className, ...props }: ComponentProps<"div">) {
  return (
    <div
      className={cn(
        "rounded-2xl border border-slate-700/80 bg-slate-900/80 p-6 shadow-lg shadow-slate-950/40",
        className,
      )}
      {...props}
    />
  );
}

type FeatureProps = {
  icon?: ReactNode;
  title: string;
  /** Heading level inside the page outline (default 3). */
  level?: 2 | 3;
  children?: ReactNode;
  /** When given, the whole card links there (the title is the link's name). */
  to?: string;
  className?: string;
};

/** A card with an icon, a heading and text; optionally a link card. */
export function FeatureCard({ icon, title, level = 3, children, to, className }: FeatureProps) {
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <Card className={cn("relative flex flex-col gap-3", to && "transition-colors hover:border-sky-400", className)}>
      {icon ? (
        <span
          aria-hidden="true"
          className="inline-flex size-12 items-center justify-center rounded-xl bg-sky-400/15 text-sky-300"
        >
          {icon}
        </span>
      ) : null}
      <Heading className="text-xl font-semibold text-white">
        {to ? (
          <Link
            to={to}
            className="after:absolute after:inset-0 after:rounded-2xl focus-visible:outline-2 focus-visible:outline-sky-300"
          >
            {title}
          </Link>
        ) : (
          title
        )}
      </Heading>
      {children ? <div className="text-slate-300">{children}</div> : null}
    </Card>
  );
}

/** A bullet list with check marks. */
export function CheckList({ items, className }: { items: readonly string[]; className?: string }) {
  return (
    <ul className={cn("space-y-2", className)}>
      {items.map((item) => (
        <li key={item} className="flex gap-2">
          <span aria-hidden="true" className="mt-0.5 text-sky-300">
            ✓
          </span>
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * One card of a `FeatureGrid` (page copy lives in `app/content/`, issue 14):
 * a title (`<h3>`), a paragraph of text, then optionally a check-marked list
 * and a secondary button. With `to`, the whole card links there.
 */
export type FeatureItem = {
  title: string;
  /** Decorative: drawn at 24 px (`size-6`) and hidden from assistive technologies by `FeatureCard`. */
  icon?: LucideIcon;
  text: ReactNode;
  to?: string;
  checks?: readonly string[];
  button?: { to: string; label: string };
};

type FeatureGridProps = {
  items: readonly FeatureItem[];
  /** The responsive column classes (default two columns from `md`). */
  columns?: string;
  className?: string;
  /** Appended to every card, e.g. a "Découvrir →" hint on link cards. */
  after?: ReactNode;
  /** `false`: the cards are direct children of a `<div>` grid (no list), each as tall as its content. */
  list?: boolean;
};

/** The body of a `FeatureItem`'s card. */
function FeatureItemCard({ item, after, className }: { item: FeatureItem; after?: ReactNode; className?: string }) {
  const Icon = item.icon;
  return (
    <FeatureCard
      title={item.title}
      icon={Icon ? <Icon className="size-6" /> : undefined}
      to={item.to}
      className={className}
    >
      <p>{item.text}</p>
      {item.checks ? <CheckList items={item.checks} className="mt-4" /> : null}
      {item.button ? (
        <ButtonLink to={item.button.to} variant="secondary" className="mt-6">
          {item.button.label}
        </ButtonLink>
      ) : null}
      {after}
    </FeatureCard>
  );
}

/** A responsive grid of feature cards (h3 each, under the section's h2): a `<ul>`, or a `<div>` with `list={false}`. */
export function FeatureGrid({ items, columns = "md:grid-cols-2", className, after, list = true }: FeatureGridProps) {
  const grid = cn("grid gap-6", columns, className);
  if (!list) {
    return (
      <div className={grid}>
        {items.map((item) => (
          <FeatureItemCard key={item.title} item={item} after={after} />
        ))}
      </div>
    );
  }
  return (
    <ul className={grid}>
      {items.map((item) => (
        <li key={item.title} className="flex">
          <FeatureItemCard item={item} after={after} className="w-full" />
        </li>
      ))}
    </ul>
  );
}
