/**
 * Issue 18 §4: the assistant panel's « Parler à un technicien » button. It
 * starts a remote-support session as « Démarrer une session d'assistance »
 * does (same rules, or the open session given back), with the customer's
 * assistant conversation attached by the server; the code is said here, and
 * the session panel shows it as usual (pushed by `session:updated`).
 */
import { Headset } from "lucide-react";
import { useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { createSessionFromAssistant } from "#app/remote-support/client/api.ts";
import { formatSessionCode } from "#app/remote-support/protocol.ts";
import { HANDOFF_MESSAGES } from "./session-conversation";

/** `disabled` while the assistant is writing, so the attached conversation holds its last answer. */
export function TechnicianHandoff({ disabled }: { disabled: boolean }) {
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState("");
  const [error, setError] = useState("");

  async function handOff() {
    setBusy(true);
    setError("");
    setStatus("");
    const result = await createSessionFromAssistant();
    setBusy(false);
    if (!result.ok) return setError(result.message);
    // Issue 40: the code written as everywhere else (« K7W 9GA »).
    setStatus(HANDOFF_MESSAGES.created(formatSessionCode(result.data.session.code)));
  }

  return (
    <div className="flex flex-col gap-2">
      <div>
        <Button type="button" variant="secondary" onClick={handOff} disabled={busy || disabled}>
          <Headset aria-hidden="true" className="size-5" />
          {busy ? HANDOFF_MESSAGES.busy : HANDOFF_MESSAGES.button}
        </Button>
      </div>
      <p role="status" className={status ? "font-medium text-emerald-200" : "sr-only"}>
        {status}
      </p>
      <p role="alert" className={error ? "text-red-300" : "sr-only"}>
        {error}
      </p>
    </div>
  );
}
