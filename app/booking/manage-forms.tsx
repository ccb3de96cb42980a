/**
 * Issue 18 §1: the manage page's two forms, moving the appointment to another free slot and cancelling
 * it, each a plain POST to the page's action (`intent` = `move` | `cancel`), with or without JavaScript.
 *
 * Issue 40: both folded in native `<details>` (they open without JavaScript, the page runs no React,
 * decision 029): the week's grid under « Déplacer le rendez-vous », an outlined button that opens it,
 * and cancelling under a quiet « Annuler le rendez-vous » whose confirmation is outlined too, never the
 * page's filled button (« Déplacer à ce créneau », inside the fold). The server opens a fold when the page
 * answers it: another week's link (`open`), a refused move or cancellation (its message shown inside).
 */
import { CalendarClock, ChevronDown } from "lucide-react";
import { Form } from "react-router";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { cn } from "#app/utils/cn.ts";
import type { ManagedAppointment, SlotView } from "./context.ts";
import { useCustomerMail } from "./customer-mail.ts";
import { SlotPicker } from "./slot-picker.tsx";
import type { WeekData } from "./week.server.ts";

/** The move form's id: its week links and its action end with `#deplacer`, so the answer opens at it. */
export const MOVE_FORM_ID = "deplacer";

/** What the manage page's action answers when nothing changed; `intent` says which form it answers. */
export type ManageActionData = { intent: "move" | "cancel"; message: string; next?: SlotView[] };

/** A `<summary>` drawn as a button: no marker, a chevron turning when open (`group` on the `<details>`). */
const summaryClass = "w-fit cursor-pointer list-none [&::-webkit-details-marker]:hidden";

const chevron = <ChevronDown aria-hidden="true" className="size-5 transition-transform group-open:rotate-180" />;

type MoveProps = {
  /** The form's action, the page's address with its token, ending with `#deplacer`. */
  action: string;
  appointment: ManagedAppointment;
  week: WeekData;
  /** Open as rendered: another week shown, or a refused move (`refused`). */
  open: boolean;
  /** The action's answer to a refused move: its message and the next free slots. */
  refused?: Pick<ManageActionData, "message" | "next">;
};

/** « Déplacer le rendez-vous »: the week's slots (the appointment's own marked) and « Déplacer à ce créneau ». */
export function MoveFold({ action, appointment, week, open, refused }: MoveProps) {
  return (
    <details className="group" open={open || refused !== undefined}>
      <summary className={cn(buttonVariants({ variant: "secondary" }), summaryClass)}>
        <CalendarClock aria-hidden="true" className="size-5" />
        Déplacer le rendez-vous
        {chevron}
      </summary>
      <Form
        method="post"
        action={action}
        className="mt-5 flex flex-col gap-5 rounded-2xl border border-slate-700/80 p-5"
        id={MOVE_FORM_ID}
        preventScrollReset
        data-enhance="form slots"
      >
        <input type="hidden" name="intent" value="move" />
        <SlotPicker
          legend="Choisissez un nouveau créneau"
          current={appointment.startsAt}
          days={week.days}
          next={refused?.next}
          previousWeek={week.previousWeek}
          nextWeek={week.nextWeek}
          error={refused?.message}
        />
        <Button type="submit" className="w-full sm:w-auto" data-sending-label="Déplacement en cours...">
          Déplacer à ce créneau
        </Button>
      </Form>
    </details>
  );
}

/**
 * « Annuler le rendez-vous »: what cancelling does and « Confirmer l'annulation », outlined in red.
 * `action`: the page's address with its token; `refused`: the message of a refused cancellation (open).
 */
export function CancelFold({ action, refused }: { action: string; refused?: string }) {
  const mailed = useCustomerMail();
  return (
    <details className="group" open={refused !== undefined}>
      <summary className={cn(buttonVariants({ variant: "ghost" }), summaryClass, "px-3 text-slate-200")}>
        Annuler le rendez-vous
        {chevron}
      </summary>
      <Form
        method="post"
        action={action}
        className="mt-3 flex flex-col gap-3 rounded-2xl border border-slate-700/80 p-5"
        data-enhance="form"
      >
        <input type="hidden" name="intent" value="cancel" />
        {refused ? (
          <p role="alert" className="rounded-xl border border-rose-400/70 bg-rose-950/70 px-4 py-3 text-rose-50">
            {refused}
          </p>
        ) : null}
        <p className="text-slate-200">
          Le créneau sera libéré pour un autre client.{mailed ? " Vous recevrez un e-mail de confirmation." : ""}
        </p>
        <Button
          type="submit"
          variant="secondary"
          className="w-full border-rose-300/70 text-rose-100 hover:border-rose-200 hover:text-rose-50 sm:w-auto"
          data-sending-label="Annulation en cours..."
        >
          Confirmer l'annulation
        </Button>
      </Form>
    </details>
  );
}
