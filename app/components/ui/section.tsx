/** Page sections: hero, titled section, and call-to-action banner. */
import type { ReactNode } from "react";
import { cn } from "#app/utils/cn.ts";
import { ButtonLink } from "./button";

export function Container({ className, children }: { className?: string; children: ReactNode }) {
  return <div className={cn("mx-auto w-full max-w-6xl px-4 sm:px-6 lg:px-8", className)}>{children}</div>;
}

type HeroProps = {
  title: string;
  subtitle?: ReactNode;
  children?: ReactNode;
  /** Optional media (image or video) shown beside or behind the text. */
  media?: ReactNode;
};

/** The page's `<h1>` block. */
export function PageHero({ title, subtitle, children, media }: HeroProps) {
  return (
    <section className="relative overflow-hidden pt-28 pb-14 sm:pt-32 sm:pb-20">
      <Container className={cn("grid items-center gap-10", media && "lg:grid-cols-2")}>
        <div className="flex flex-col gap-6">
          <h1 className="text-4xl font-bold tracking-tight text-balance text-white sm:text-5xl">{title}</h1>
          {subtitle ? <p className="max-w-2xl text-lg text-pretty text-slate-300 sm:text-xl">{subtitle}</p> : null}
          {children ? <div className="flex flex-wrap gap-3">{children}</div> : null}
        </div>
        {media ?? null}
      </Container>
    </section>
  );
}

type SectionProps = {
  title: string;
  intro?: ReactNode;
  id?: string;
  children: ReactNode;
  className?: string;
};

/** A titled `<section>` with an `<h2>`, labelled by it for screen readers. */
export function Section({ title, intro, id, children, className }: SectionProps) {
  const headingId = `${id ?? slug(title)}-titre`;
  return (
    <section id={id} aria-labelledby={headingId} className={cn("scroll-mt-24 py-12 sm:py-16", className)}>
      <Container>
        <h2 id={headingId} className="text-3xl font-bold tracking-tight text-balance text-white">
          {title}
        </h2>
        {intro ? <p className="mt-3 max-w-3xl text-lg text-slate-300">{intro}</p> : null}
        <div className="mt-8">{children}</div>
      </Container>
    </section>
  );
}

type CtaProps = { title: string; text?: ReactNode; to: string; label: string };

/** Call-to-action banner, e.g. "Besoin d'aide ?" → /contact. */
export function CtaBanner({ title, text, to, label }: CtaProps) {
  const headingId = `${slug(title)}-titre`;
  return (
    <section aria-labelledby={headingId} className="py-12 sm:py-16">
      <Container>
        <div className="flex flex-col items-start gap-5 rounded-3xl border border-sky-400/40 bg-gradient-to-br from-sky-950 to-slate-900 p-6 sm:flex-row sm:items-center sm:justify-between sm:p-10">
          <div>
            <h2 id={headingId} className="text-2xl font-bold text-white sm:text-3xl">
              {title}
            </h2>
            {text ? <p className="mt-2 text-lg text-slate-200">{text}</p> : null}
          </div>
          {/* Issue 40: on a phone the label wraps inside the box rather than widening the page. */}
          <ButtonLink to={to} size="lg" className="max-w-full shrink-0 text-center sm:whitespace-nowrap">
            {label}
          </ButtonLink>
        </div>
      </Container>
    </section>
  );
}

/** "Besoin d'aide ?" → "besoin-d-aide" (ids for aria-labelledby). */
export function slug(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}
