/**
 * "Rapport" → "Vérification" → session report (spec §2, §5 "Report access",
 * §8 "Mot de passe incorrect"). The password is the technician's own account
 * password, checked by the server (`POST /api/reports/verify`), which then
 * opens reports for a few minutes: while that grant lasts the report GET
 * answers 200 and the verification step is skipped; before it, 423. No
 * password is kept in the browser.
 */
import { useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Input, Label } from "#app/components/ui/field.tsx";
import { getReport, verifyPassword } from "#app/remote-support/client/api.ts";
import {
  formatReportDuration,
  formatSessionCode,
  type SessionEventView,
  type SessionReport,
} from "#app/remote-support/protocol.ts";
import { formatDateTime, formatTime } from "#app/remote-support/client/format.ts";
import { CustomerName } from "./customer-name";
import { ComputerFactsList } from "./computer-facts";
import { FACTS_TEXTS } from "#app/remote-support/facts-protocol.ts";
import { Modal } from "./modal";

type Step = { kind: "closed" } | { kind: "verify"; code: string } | { kind: "report"; report: SessionReport };

/** Renders `children(openReport)` and the dialogs; `openReport(code)` starts the flow for one session. */
export function ReportFlow({ children }: { children: (openReport: (code: string) => void) => ReactNode }) {
  const [step, setStep] = useState<Step>({ kind: "closed" });
  const [error, setError] = useState("");
  // The session whose report was asked last, null once closed: a slower answer for another « Rapport », or one
  // arriving after « Annuler », must not open a dialog nobody asked for any more.
  const asked = useRef<string | null>(null);

  async function loadReport(code: string): Promise<"shown" | "locked" | "failed" | "dropped"> {
    const result = await getReport(code);
    if (asked.current !== code) return "dropped";
    if (result.ok) {
      setStep({ kind: "report", report: result.data.report });
      return "shown";
    }
    if (result.status === 423) return "locked";
    setError(result.message);
    return "failed";
  }

  async function openReport(code: string) {
    setError("");
    asked.current = code;
    const outcome = await loadReport(code);
    if (outcome === "locked") setStep({ kind: "verify", code });
  }

  const close = () => {
    asked.current = null;
    setStep({ kind: "closed" });
  };
  return (
    <>
      {children(openReport)}
      {error && step.kind === "closed" ? (
        <p role="alert" className="mt-3 font-medium text-red-300">
          {error}
        </p>
      ) : null}
      <Modal
        open={step.kind !== "closed"}
        onClose={close}
        title={step.kind === "report" ? "Rapport de session" : "Vérification"}
        stepKey={step.kind}
      >
        {step.kind === "verify" ? (
          <VerifyForm
            onCancel={close}
            onVerified={async () => {
              const outcome = await loadReport(step.code);
              if (outcome === "locked" || outcome === "failed") close();
            }}
          />
        ) : null}
        {step.kind === "report" ? <ReportView report={step.report} onClose={close} /> : null}
      </Modal>
    </>
  );
}

function VerifyForm({ onCancel, onVerified }: { onCancel: () => void; onVerified: () => Promise<void> }) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get("password") ?? "");
    setBusy(true);
    setError("");
    const result = await verifyPassword(password);
    if (!result.ok) {
      setBusy(false);
      return setError(result.message);
    }
    await onVerified();
  }
  return (
    <form className="flex flex-col gap-4" onSubmit={submit}>
      <p className="text-slate-300">Saisissez le mot de passe de votre compte pour ouvrir les rapports de session.</p>
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-password`}>Mot de passe</Label>
        <Input
          id={`${id}-password`}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          data-autofocus
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-erreur`}
        />
      </div>
      <p id={`${id}-erreur`} role="alert" className="font-medium text-red-300">
        {error}
      </p>
      <div className="flex flex-wrap justify-end gap-3">
        <Button type="button" variant="secondary" onClick={onCancel}>
          Annuler
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? "Vérification..." : "Valider"}
        </Button>
      </div>
    </form>
  );
}

const SIDE = { customer: "le client", technician: "le technicien" } as const;

/** One line of the session's record, in French (issue 6: audit trail and chat in the report). */
export function describeSessionEvent(event: SessionEventView): string {
  const who = event.actor ? SIDE[event.actor] : "le serveur";
  switch (event.kind) {
    case "joined":
      return "Le technicien a rejoint la session";
    case "sharing-started":
      return "Le client a commencé le partage d'écran";
    case "sharing-stopped":
      return "Le client a arrêté le partage d'écran";
    case "control-on":
      return "Souris et clavier du technicien activés";
    case "control-off":
      return "Souris et clavier du technicien désactivés";
    case "chat":
      return `${event.actor === "customer" ? "Client" : "Technicien"} : « ${event.text ?? ""} »`;
    case "ended":
      return `Session terminée par ${who}`;
    case "device-paired":
      return "Logiciel de bureau connecté à la session";
    case "control-allowed":
      return "Le client a autorisé le contrôle de son ordinateur";
    case "control-withdrawn":
      return "Le client a retiré l'autorisation de contrôle";
    case "device-unpaired":
      return "Logiciel de bureau déconnecté de la session";
    case "view-allowed":
      return "Le client a autorisé l'affichage de son écran dans le logiciel";
    case "view-withdrawn":
      return "Le client a retiré l'autorisation d'affichage de son écran";
    // Issue 27: the transfer is recorded, never the text.
    case "clipboard-to-customer":
      return "Texte du presse-papiers du technicien collé chez le client";
    case "clipboard-to-technician":
      return "Presse-papiers du client envoyé au technicien";
  }
}

function ReportView({ report, onClose }: { report: SessionReport; onClose: () => void }) {
  const rows: [string, ReactNode][] = [
    ["Code", formatSessionCode(report.code)],
    ["Client", <CustomerName key="client" session={report} />],
    // Issue 26: a session started from the app has no account, so no address.
    ["E-mail", report.userEmail ?? "—"],
    ["Début", formatDateTime(report.startTime)],
    ["Fin", formatDateTime(report.endTime)],
    ["Durée", formatReportDuration(report.durationSeconds)],
  ];
  return (
    <>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
        {rows.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="text-slate-300">{term}</dt>
            <dd className="break-all text-white">{value}</dd>
          </div>
        ))}
      </dl>
      {report.computerFacts ? (
        <>
          <h3 className="text-lg font-semibold text-white">{FACTS_TEXTS.heading}</h3>
          <ComputerFactsList facts={report.computerFacts} label={FACTS_TEXTS.heading} />
        </>
      ) : null}
      <h3 className="text-lg font-semibold text-white">Déroulement</h3>
      {report.events.length === 0 ? (
        <p className="text-slate-300">Aucun événement enregistré.</p>
      ) : (
        <ol aria-label="Déroulement de la session" className="flex max-h-72 flex-col gap-1.5 overflow-y-auto">
          {report.events.map((event) => (
            <li key={event.id} className="grid grid-cols-[auto_1fr] gap-x-3">
              <time dateTime={event.at} className="font-mono text-slate-300 tabular-nums">
                {formatTime(event.at)}
              </time>
              <span className="break-words text-white">{describeSessionEvent(event)}</span>
            </li>
          ))}
        </ol>
      )}
      <div className="flex justify-end">
        <Button type="button" onClick={onClose}>
          Fermer le rapport
        </Button>
      </div>
    </>
  );
}
