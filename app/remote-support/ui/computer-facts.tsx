/**
 * Issue 38 §4, « The computer's facts, before the technician joins » (`facts-protocol.ts`), as the technician reads
 * them: `ComputerFactsList`, the facts as a `<dl>` (the remote view's panel and the session's report), and
 * `ComputerFactsPanel`, the remote view's « Informations de l'ordinateur », read from the server
 * (`GET /api/sessions/:code/facts`) when the view opens and again when another computer pairs. While the app
 * is connected its live state wins over what it said at start (relaunched as administrator since, issue 36 §4).
 */
import { useEffect, useId, useState } from "react";
import { getComputerFacts } from "#app/remote-support/client/api.ts";
import type { DeviceView } from "#app/remote-support/device-protocol.ts";
import { computerFactRows, FACTS_TEXTS, type ComputerFacts } from "#app/remote-support/facts-protocol.ts";

/** The facts, one `<dt>`/`<dd>` pair per known one (French), in the order of `computerFactRows`. */
export function ComputerFactsList({ facts, label }: { facts: ComputerFacts; label?: string }) {
  return (
    <dl aria-label={label} className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
      {computerFactRows(facts).map(({ term, value }) => (
        <div key={term} className="contents">
          <dt className="text-slate-300">{term}</dt>
          <dd className="break-words text-white">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

type Read = { kind: "loading" } | { kind: "read"; facts: ComputerFacts | null } | { kind: "failed"; message: string };

/**
 * The remote view's panel for session `code`. `device`: the session's app (null or unpaired: nothing is shown
 * unless facts were sent before, e.g. by an app that left).
 */
export function ComputerFactsPanel({ code, device }: { code: string; device: DeviceView | null }) {
  const id = useId();
  const [read, setRead] = useState<Read>({ kind: "loading" });
  // A new pairing (another computer, or the same one again) may bring other facts, or none.
  const pairing = `${device?.paired ?? false}|${device?.computerName ?? ""}`;
  useEffect(() => {
    let current = true;
    void getComputerFacts(code).then((result) => {
      if (!current) return;
      setRead(
        result.ok ? { kind: "read", facts: result.data.facts ?? null } : { kind: "failed", message: result.message },
      );
    });
    return () => {
      current = false;
    };
  }, [code, pairing]);

  const sent = read.kind === "read" ? read.facts : null;
  // Nothing to say of a session without the app (a share from the browser), unless an app sent facts before leaving.
  if (read.kind === "loading" || (!sent && !device?.paired)) return null;
  const facts =
    sent && device?.connected && typeof device.elevated === "boolean" ? { ...sent, elevated: device.elevated } : sent;
  return (
    <section aria-labelledby={`${id}-titre`} className="flex flex-col gap-2 rounded-lg border border-slate-700 p-3">
      <h3 id={`${id}-titre`} className="text-lg font-semibold text-white">
        {FACTS_TEXTS.heading}
      </h3>
      {read.kind === "failed" ? (
        <p className="text-sm font-medium text-amber-200">{read.message}</p>
      ) : facts ? (
        <ComputerFactsList facts={facts} />
      ) : (
        <p className="text-sm text-slate-300">{FACTS_TEXTS.none}</p>
      )}
    </section>
  );
}
