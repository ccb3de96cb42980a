/**
 * Issue 18 §1: the booking form: the week's slots (`SlotPicker`), then the
 * customer's name, e-mail, phone and optional note, the forms' honeypot and
 * the GDPR notice. A plain POST to the page's action (enhanced by React
 * Router once hydrated); after a refusal the page comes back with the
 * message, the errors under each field and the typed values. Issue 28: it
 * carries the one-time key the loader drew (`FORM_KEY_FIELD`), with or
 * without JavaScript, so a POST sent again books nothing more. Issue 30: the chosen slot and its
 * length are repeated beside « Confirmer le rendez-vous » (`ChosenSlot`, the button's description).
 * Issue 40: « Sans compte… par e-mail » with the contact fields (it was the page's intro, above the slots).
 */
import { useId } from "react";
import { Form, useNavigation } from "react-router";
import { CalendarCheck } from "lucide-react";
import { EmailField } from "#app/components/forms/email-field.tsx";
import { GdprNotice } from "#app/components/forms/gdpr-notice.tsx";
import { Honeypot } from "#app/components/forms/honeypot.tsx";
import { SENDING_LABEL } from "#app/components/forms/submit-row.tsx";
import { TextField } from "#app/components/forms/text-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { FormField, RequiredFieldsNote, Textarea } from "#app/components/ui/field.tsx";
import { formatRetentionDays, RETENTION } from "#app/config/retention.ts";
import { LIMITS, type FieldErrors } from "#app/requests/schemas.ts";
import type { BookedRepair } from "./booked-repair.server.ts";
import { ChosenSlot } from "./chosen-slot.tsx";
import type { SlotView } from "./context.ts";
import { useCustomerMail } from "./customer-mail.ts";
import { FORM_KEY_FIELD, NOTE_MAX } from "./schemas.ts";
import { offeredStart, slotMinutesOf } from "./slot-choice.ts";
import { SlotPicker } from "./slot-picker.tsx";
import type { WeekData } from "./week.server.ts";

/**
 * The booking form's id: the page's week links and its action end with `#reservation`, so a page loaded
 * by them (islands page, or without JavaScript) opens at the form, with a refusal's message in view.
 */
export const BOOKING_FORM_ID = "reservation";

/** What the action answers when nothing was booked. */
export type BookingActionData = {
  message: string;
  fieldErrors: FieldErrors;
  values: Record<string, string>;
  next?: SlotView[];
};

type Props = {
  action: string;
  /** This rendering's one-time key (a UUID drawn by the loader). */
  formKey: string;
  week: WeekData;
  booked: BookedRepair;
  actionData?: BookingActionData;
};

/**
 * The booking `<Form>` (POST to `action`): slot, contact fields, one-time key, the booked model and
 * repair as hidden fields; `actionData` brings back a refusal's message, field errors and values.
 */
export function BookingForm({ action, formKey, week, booked, actionData }: Props) {
  const mailed = useCustomerMail();
  const choiceId = useId();
  const sending = useNavigation().state === "submitting";
  const state = { errors: actionData?.fieldErrors ?? {}, values: actionData?.values };
  const slotError = actionData?.fieldErrors.slot ?? (actionData?.next ? actionData.message : undefined);
  return (
    <Form
      method="post"
      action={action}
      className="relative flex flex-col gap-8"
      preventScrollReset
      id={BOOKING_FORM_ID}
      // Issue 30: on the islands page, the sending state and the slot choice in plain DOM code.
      data-enhance="form slots"
    >
      {actionData && !slotError ? (
        <p role="alert" className="rounded-xl border border-rose-400/70 bg-rose-950/70 px-4 py-3 text-rose-50">
          {actionData.message}
        </p>
      ) : null}
      <input type="hidden" name={FORM_KEY_FIELD} value={formKey} />
      {booked.modelSlug ? <input type="hidden" name="model" value={booked.modelSlug} /> : null}
      {booked.repairId ? <input type="hidden" name="repair" value={booked.repairId} /> : null}
      <SlotPicker
        legend="1. Choisissez un créneau"
        days={week.days}
        selected={actionData?.values.slot}
        next={actionData?.next}
        previousWeek={week.previousWeek}
        nextWeek={week.nextWeek}
        error={slotError}
        repeatChoice={false}
      />
      <fieldset className="flex flex-col gap-5">
        <legend className="mb-2 text-xl font-semibold text-white">2. Vos coordonnées</legend>
        {/* Issue 40: said here, where the e-mail is asked, rather than in an intro above the slots. */}
        <p className="text-slate-200">
          {mailed
            ? "Sans compte : une confirmation et un rappel vous sont envoyés par e-mail."
            : "Sans compte : après la réservation, gardez le lien de la page de votre rendez-vous pour le déplacer ou l'annuler."}
        </p>
        <RequiredFieldsNote />
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField id="rdv-nom" label="Nom" name="name" autoComplete="name" maxLength={LIMITS.name} state={state} />
          <EmailField id="rdv-email" state={state} />
          <TextField
            id="rdv-telephone"
            label="Téléphone"
            name="phone"
            type="tel"
            autoComplete="tel"
            maxLength={LIMITS.phone}
            hint="Pour vous prévenir si l'atelier doit déplacer le rendez-vous."
            state={state}
          />
          <FormField
            id="rdv-note"
            label="Précisions (facultatif)"
            hint="La panne, ce qui s'est passé, vos disponibilités…"
            error={state.errors.note}
            className="sm:col-span-2"
          >
            {(control) => (
              <Textarea {...control} name="note" rows={4} maxLength={NOTE_MAX} defaultValue={state.values?.note} />
            )}
          </FormField>
        </div>
      </fieldset>
      <Honeypot />
      <div className="flex flex-col gap-3 rounded-xl border border-slate-700/80 bg-slate-900/60 p-4 sm:flex-row sm:items-center sm:justify-between sm:gap-6">
        <ChosenSlot
          id={choiceId}
          initial={offeredStart(actionData?.values.slot, week.days)}
          slotMinutes={slotMinutesOf(week.days)}
        />
        <Button
          type="submit"
          disabled={sending}
          className="w-full shrink-0 sm:w-auto"
          aria-describedby={choiceId}
          data-sending-label={SENDING_LABEL}
        >
          <CalendarCheck aria-hidden="true" className="size-5" />
          {sending ? SENDING_LABEL : "Confirmer le rendez-vous"}
        </Button>
      </div>
      <GdprNotice
        purpose="organiser votre rendez-vous et vous en informer (confirmation, rappel, changement)"
        legalBasis="les mesures précontractuelles prises à votre demande (article 6.1.b du RGPD)"
        kept={`${formatRetentionDays(RETENTION.appointmentDays)} après la date du rendez-vous`}
      />
    </Form>
  );
}
