/**
 * Issue 40: the count on a dashboard tab (« Demandes 3 »), shown only when something waits. The badge shows the
 * figure and is hidden from screen readers, which read the words instead: the tab's name becomes « Demandes
 * (3 à traiter) » (`COUNT_TEXTS`). Nothing is rendered for 0, null (the caller may not open that view, or the
 * count is not read yet) or undefined.
 */
import { formatCount } from "#app/remote-support/dashboard-counts.ts";

type Props = {
  count: number | null | undefined;
  /** The count in words, for screen readers: `COUNT_TEXTS.untreatedRequests` and the like. */
  text: (count: number) => string;
};

export function TabCount({ count, text }: Props) {
  if (!count) return null;
  return (
    <>
      {/* Slate-950 on amber-300: 12.6:1, on either button variant. */}
      <span
        aria-hidden="true"
        className="inline-flex min-w-6 items-center justify-center rounded-full bg-amber-300 px-1.5 text-sm leading-6 font-bold text-slate-950 tabular-nums"
      >
        {formatCount(count)}
      </span>
      <span className="sr-only"> ({text(count)})</span>
    </>
  );
}
