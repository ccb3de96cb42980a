/**
 * Issue 40: the frame of the booking and manage pages: their one heading (`<h1>`) and what follows, in
 * a single `<section>` labelled by it. The marketing pages' hero (`PageHero`, ~250 px on a phone before
 * its first word) followed by a titled `Section` gave these pages two headings saying the same thing
 * (« Mon rendez-vous » above « Votre rendez-vous ») and pushed the slots below a phone's first screen.
 */
import type { ReactNode } from "react";
import { Container } from "#app/components/ui/section.tsx";

type Props = {
  /** The page's only title, e.g. « Prendre rendez-vous ». */
  title: string;
  /** The section's id: an anchor the redirects and links open at (`#rendez-vous`). */
  id: string;
  children: ReactNode;
};

/** `<section id={id}>` with `<h1>{title}</h1>`, clear of the fixed 4 rem header, then `children`. */
export function PageFrame({ title, id, children }: Props) {
  const headingId = `${id}-titre`;
  return (
    <section id={id} aria-labelledby={headingId} className="pt-22 pb-12 sm:pt-28 sm:pb-16">
      <Container>
        <h1 id={headingId} className="text-3xl font-bold tracking-tight text-balance text-white sm:text-4xl">
          {title}
        </h1>
        <div className="mt-5 sm:mt-8">{children}</div>
      </Container>
    </section>
  );
}
