/** Content cards and the small building blocks of marketing pages. */
import type { ComponentProps, ReactNode } from "react";
import { Link } from "react-router";
import { cn } from "~/utils/cn";

export function Card({ className, ...props }: ComponentProps<"div">) {
  return (
    <div
      className={cn("rounded-2xl border border-slate-700/80 bg-slate-900/80 p-6 shadow-lg shadow-slate-950/40", className)}
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
        <span aria-hidden="true" className="inline-flex size-12 items-center justify-center rounded-xl bg-sky-400/15 text-sky-300">
          {icon}
        </span>
      ) : null}
      <Heading className="text-xl font-semibold text-white">
        {to ? (
          <Link to={to} className="after:absolute after:inset-0 after:rounded-2xl focus-visible:outline-2 focus-visible:outline-sky-300">
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
          <span aria-hidden="true" className="mt-0.5 text-sky-300">✓</span>
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}

/** One card of a `FeatureGrid`; with `to`, the whole card links there. */
export type FeatureItem = { title: string; icon?: ReactNode; text: ReactNode; to?: string };

/** A responsive grid of feature cards (h3 each, under the section's h2). */
export function FeatureGrid({ items, className }: { items: readonly FeatureItem[]; className?: string }) {
  return (
    <ul className={cn("grid gap-6 md:grid-cols-2", className)}>
      {items.map((item) => (
        <li key={item.title} className="flex">
          <FeatureCard title={item.title} icon={item.icon} to={item.to} className="w-full">
            <p>{item.text}</p>
          </FeatureCard>
        </li>
      ))}
    </ul>
  );
}
