/**
 * The frame of the signed-in area (/soft-assist and its reset-password page):
 * the page's `<h1>`, an optional greeting and actions (sign-out), and the
 * spinner shown while the sign-in is checked (spec §2: "while checking, a
 * loading spinner").
 */
import type { ReactNode } from "react";
import { Container } from "#app/components/ui/section.tsx";

export function AreaShell({
  title = "Assistance à distance",
  intro,
  actions,
  children,
}: {
  title?: string;
  intro?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Container className="flex flex-col gap-8 pt-28 pb-16 sm:pt-32">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex flex-col gap-2">
          <h1 className="text-4xl font-bold tracking-tight text-white sm:text-5xl">{title}</h1>
          {intro ? <p className="text-lg text-slate-300">{intro}</p> : null}
        </div>
        {actions}
      </div>
      {children}
    </Container>
  );
}

/** A spinner with its sentence, announced politely. */
export function Spinner({ label }: { label: string }) {
  return (
    <div role="status" className="flex items-center gap-3 text-lg text-slate-200">
      <span
        aria-hidden="true"
        className="inline-block size-6 animate-spin rounded-full border-2 border-slate-500 border-t-sky-300 motion-reduce:animate-none"
      />
      {label}
    </div>
  );
}
