/**
 * Issue 30 §2: the steps of a ticket on `/suivi`, done and to come, so a
 * customer sees where their repair is. One ordered list: the steps that
 * happened (with their time, the shop's note and the quote a step sent or
 * answered, issue 40), the last of them marked
 * `aria-current="step"` and « étape actuelle », then the steps still ahead,
 * in the order of `REPAIR_STEPS`, greyed and saying « à venir ». A state is
 * always said in words or a sign, never by colour alone.
 */
import { Check } from "lucide-react";
import { cn } from "#app/utils/cn.ts";
import { StepQuote } from "./price.tsx";
import type { PublicRepairTicket, RepairEventView } from "./protocol.ts";
import { formatInstant, isOpen, REPAIR_STATUS_LABELS, REPAIR_STEPS, type RepairStatus } from "./statuses.ts";

/**
 * One line of the list: a step that happened (`done`, or `current` for the
 * last one), or one ahead (`upcoming`; `optional` when it may not happen at
 * all, as « Devis à valider » for a repair that needs no quote).
 */
export type ProgressItem =
  | { state: "done" | "current"; event: RepairEventView }
  | { state: "upcoming"; status: RepairStatus; optional: boolean };

/**
 * The list for `ticket`: its events in order, then the steps after its
 * status. A closed ticket (« Rendu », « Annulé ») has nothing ahead; after
 * a refused quote « En réparation » is not announced (the shop calls the
 * customer about what comes next).
 */
export function repairProgress(ticket: Pick<PublicRepairTicket, "status" | "events" | "quote">): ProgressItem[] {
  const done = ticket.events.map((event, index): ProgressItem => ({
    state: index === ticket.events.length - 1 ? "current" : "done",
    event,
  }));
  if (!isOpen(ticket.status)) return done;
  const refused = ticket.status === "quote-pending" && ticket.quote?.decision === "refused";
  const steps: readonly RepairStatus[] = REPAIR_STEPS;
  const ahead = steps
    .slice(steps.indexOf(ticket.status) + 1)
    .filter((status) => !(refused && status === "repairing"))
    .map((status): ProgressItem => ({ state: "upcoming", status, optional: status === "quote-pending" }));
  return [...done, ...ahead];
}

/**
 * The round marker on the list's line, centred on its 2 px border: a sign that says the state without colour
 * (a tick done, a dot where the repair is, hollow and dashed ahead; a tick too once the ticket is closed), an
 * icon rather than a character so that the step's text stays its words. Hidden from screen readers.
 */
function Marker({ state, closed = false }: { state: ProgressItem["state"]; closed?: boolean }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        "absolute top-0.5 -left-[calc(2.125rem+1px)] flex size-5 items-center justify-center rounded-full text-xs font-bold",
        state === "done" && "bg-sky-400 text-slate-950",
        state === "current" && "bg-amber-300 text-slate-950 ring-4 ring-amber-300/30",
        state === "upcoming" && "border-2 border-dashed border-slate-400 bg-slate-900",
      )}
    >
      {state === "done" || (state === "current" && closed) ? (
        <Check className="size-3.5" strokeWidth={3} />
      ) : state === "current" ? (
        <span className="size-2 rounded-full bg-slate-950" />
      ) : null}
    </span>
  );
}

/** The steps section of the ticket's card (heading « Étapes », an `<ol>`). */
export function RepairProgress({ ticket }: { ticket: Pick<PublicRepairTicket, "status" | "events" | "quote"> }) {
  const items = repairProgress(ticket);
  const open = isOpen(ticket.status);
  return (
    <section aria-labelledby="etapes-titre" className="flex flex-col gap-3">
      <h3 id="etapes-titre" className="text-xl font-semibold text-white">
        Étapes
      </h3>
      <ol className="ml-3 flex flex-col gap-4 border-l-2 border-slate-600 pl-6">
        {items.map((item, index) =>
          item.state === "upcoming" ? (
            <li key={`a-venir-${item.status}`} className="relative flex flex-col gap-0.5 text-slate-400">
              <Marker state="upcoming" />
              <span>
                {REPAIR_STATUS_LABELS[item.status]}
                <span className="text-sm"> (à venir{item.optional ? ", si un devis est nécessaire" : ""})</span>
              </span>
            </li>
          ) : (
            <li
              key={`${item.event.at}-${index}`}
              aria-current={item.state === "current" ? "step" : undefined}
              className="relative flex flex-col gap-1"
            >
              <Marker state={item.state} closed={!open} />
              <span className="font-semibold text-white">
                {REPAIR_STATUS_LABELS[item.event.status]}
                {item.state === "current" && open ? (
                  <span className="font-normal text-amber-200"> (étape actuelle)</span>
                ) : null}
              </span>
              <time dateTime={item.event.at} className="text-sm text-slate-300">
                {formatInstant(item.event.at)}
              </time>
              {item.event.note ? (
                <p className="whitespace-pre-line break-words text-slate-100">{item.event.note}</p>
              ) : null}
              {item.event.quote ? (
                <p className="text-slate-100">
                  <StepQuote quote={item.event.quote} />
                </p>
              ) : null}
            </li>
          ),
        )}
      </ol>
    </section>
  );
}
