/**
 * Issue 40: under « Boutique », whether mail leaves the server and « Envoyer un e-mail de test » (to the
 * signed-in manager's own address, `POST /api/mail/test`). The answer is shown as the server gives it:
 * sent (check it arrived), mail not configured, or what the mail server refused, in French.
 */
import { useId, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { FormStatus } from "#app/components/ui/field.tsx";
import { sendTestMail } from "#app/go-live/client.ts";
import { MAIL_MESSAGES } from "#app/go-live/protocol.ts";
import { useMailStatus } from "#app/go-live/use-mail-status.ts";

export function TestMailPanel() {
  const id = useId();
  const mail = useMailStatus();
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<{ tone: "success" | "error"; text: string } | null>(null);

  async function send() {
    setBusy(true);
    setAnswer(null);
    const result = await sendTestMail();
    setBusy(false);
    if (!result.ok) return setAnswer({ tone: "error", text: result.message });
    setAnswer({ tone: result.data.outcome === "sent" ? "success" : "error", text: result.data.message });
  }

  return (
    <section aria-labelledby={`${id}-titre`} className="flex flex-col gap-4 rounded-2xl border border-slate-700/80 p-4">
      <h3 id={`${id}-titre`} className="text-lg font-semibold text-white">
        Envoi des e-mails
      </h3>
      <p className="text-slate-200">
        {mail === null
          ? "Vérifiez que les e-mails du site (invitations, rendez-vous, réinitialisations) arrivent bien."
          : mail.configured
            ? "L'envoi d'e-mails est configuré. Envoyez-vous un e-mail de test pour vérifier qu'il arrive."
            : MAIL_MESSAGES.notConfigured}
      </p>
      <FormStatus tone={answer?.tone ?? "success"}>{answer?.text}</FormStatus>
      <Button type="button" variant="secondary" className="self-start" disabled={busy} onClick={() => void send()}>
        {busy ? "Envoi…" : "Envoyer un e-mail de test"}
      </Button>
    </section>
  );
}
