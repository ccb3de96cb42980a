/**
 * The technician's « Historique des sessions » (spec §2 "Technician dashboard", §8; moved out of
 * `technician-dashboard.tsx`): each session's date (the shop's wall clock), code, customer (issue 26: « — depuis le
 * logiciel »; issue 37 §6: the name in `<bdi>`), duration or « En cours », and « Rapport » behind the password
 * check (`report-dialogs.tsx`). A table that scrolls sideways at mobile width.
 */
import { useId } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { cn } from "#app/utils/cn.ts";
import { formatDateTime } from "#app/remote-support/client/format.ts";
import { formatHistoryDuration, formatSessionCode, type SessionView } from "#app/remote-support/protocol.ts";
import { CustomerName } from "./customer-name";
import { ReportFlow } from "./report-dialogs";

/** The history table; `sessions` null while it is read. */
export function HistoryPanel({ sessions }: { sessions: SessionView[] | null }) {
  const captionId = useId();
  return (
    <Card className="flex flex-col gap-4 lg:col-span-2">
      <h2 id={captionId} className="text-2xl font-bold text-white">
        Historique des sessions
      </h2>
      {sessions === null ? (
        <p className="text-slate-300">Chargement…</p>
      ) : sessions.length === 0 ? (
        <p className="text-slate-300">Aucune session pour l'instant.</p>
      ) : (
        // The table scrolls sideways at mobile width instead of squeezing its columns (WCAG 1.4.10 allows it for data tables).
        <div className="overflow-x-auto" role="region" aria-labelledby={captionId} tabIndex={0}>
          <ReportFlow>
            {(openReport) => (
              <table className="w-full min-w-[36rem] text-left">
                <thead>
                  <tr className="border-b border-slate-600 text-slate-200">
                    <th scope="col" className="py-2 pr-4">
                      Date
                    </th>
                    <th scope="col" className="py-2 pr-4">
                      Code
                    </th>
                    <th scope="col" className="py-2 pr-4">
                      Utilisateur
                    </th>
                    <th scope="col" className="py-2 pr-4">
                      Durée
                    </th>
                    <th scope="col" className="py-2">
                      Actions
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {sessions.map((session) => (
                    <tr key={session.id} className="border-b border-slate-800">
                      <td className="py-2 pr-4">{formatDateTime(session.startTime ?? session.createdAt)}</td>
                      <td className="py-2 pr-4 font-mono tracking-widest">{formatSessionCode(session.code)}</td>
                      <td className="py-2 pr-4">
                        <CustomerName session={session} />
                      </td>
                      <td className={cn("py-2 pr-4 tabular-nums", session.endTime === null && "text-emerald-300")}>
                        {session.endTime === null ? "En cours" : formatHistoryDuration(session.durationSeconds)}
                      </td>
                      <td className="py-2">
                        <Button
                          type="button"
                          variant="secondary"
                          onClick={() => openReport(session.code)}
                          aria-label={`Rapport de la session ${formatSessionCode(session.code)}`}
                        >
                          Rapport
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </ReportFlow>
        </div>
      )}
    </Card>
  );
}
