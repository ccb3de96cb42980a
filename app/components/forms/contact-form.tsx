/**
 * The /contact message form (spec §3 "Contact message", §4, §5, §8; issue 4).
 */
import { useState } from "react";
import { RequiredFieldsNote } from "#app/components/ui/field.tsx";
import { LIMITS, REQUEST_MESSAGES } from "#app/requests/schemas.ts";
import type { FormActionData } from "#app/requests/action-data.ts";
import { EmailField } from "./email-field";
import { GdprNotice } from "./gdpr-notice";
import { Honeypot } from "./honeypot";
import { FormKeyField } from "#app/requests/form-key-field.tsx";
import { SubmitRow } from "./submit-row";
import { TextField } from "./text-field";
import { useRequestForm } from "./use-request-form";

/** Where the form posts: the /contact action; without JavaScript the answer page opens at the form. */
export const CONTACT_FORM_ACTION = "/contact#message";

/**
 * Name, e-mail and message, all required (spec §5; lengths from `LIMITS`).
 *
 * Spec §4: while sending, the button is disabled and reads "Envoi en cours...";
 * a success says "Message envoyé avec succès !" and empties the fields; a
 * failure shows its message (and, for invalid fields, an error under each);
 * typing in any field after a result returns to idle.
 *
 * Works without JavaScript: the browser posts to the route action and the
 * page comes back with `actionData` (the result and, unless stored, the
 * typed values).
 */
export function ContactForm({ actionData }: { actionData?: FormActionData }) {
  // Bumped on each stored submission: the fields remount empty (and forget values echoed by a no-JS POST).
  const [generation, setGeneration] = useState(0);
  const { fetcher, sending, shown, fieldErrors, dismiss, formRef, successRef, errorRef } = useRequestForm({
    actionData,
    onStored: () => setGeneration((value) => value + 1),
  });
  const state = { errors: fieldErrors, values: generation === 0 ? actionData?.values : undefined };

  return (
    <div className="flex flex-col gap-6">
      <fetcher.Form
        ref={formRef}
        method="post"
        action={CONTACT_FORM_ACTION}
        onChange={dismiss}
        className="relative flex flex-col gap-5"
        // Issue 30: on the islands page, the same behaviours in plain DOM code (`app/islands/enhancers/form.ts`).
        data-enhance="form"
        data-dismiss-results=""
      >
        <RequiredFieldsNote />
        <div key={generation} className="grid gap-5 sm:grid-cols-2">
          <TextField
            id="contact-name"
            label="Nom"
            name="name"
            autoComplete="name"
            maxLength={LIMITS.name}
            state={state}
          />
          <EmailField id="contact-email" state={state} />
          <TextField
            id="contact-message"
            label="Message"
            name="message"
            rows={6}
            maxLength={LIMITS.message}
            state={state}
            className="sm:col-span-2"
          />
        </div>
        <Honeypot />
        <FormKeyField />
        <SubmitRow
          label="Envoyer le message"
          sending={sending}
          shown={shown}
          errorRef={errorRef}
          successRef={successRef}
          storedNote={REQUEST_MESSAGES.contactAnswerDelay}
        />
      </fetcher.Form>
      <GdprNotice
        purpose="répondre à votre message"
        legalBasis="notre intérêt légitime à répondre aux demandes qui nous sont adressées (article 6.1.f du RGPD)"
      />
    </div>
  );
}
