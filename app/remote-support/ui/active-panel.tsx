/**
 * The dashboard's "Session active" card (spec §2 "Technician dashboard", §4
 * "Session timer"): the joined session's customer, its timer, the customer's
 * desktop app (issue 15), the customer's assistant conversation when they
 * asked from it (issue 18 §4), and the buttons to open the remote view or
 * disconnect.
 */
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import type { ServerLink } from "#app/remote-support/client/server-connection.ts";
import { CustomerName } from "./customer-name";
import { useElapsedSeconds } from "#app/remote-support/client/timer.ts";
import type { DeviceView } from "#app/remote-support/device-protocol.ts";
import { formatSessionCode, formatTimer, type SessionView } from "#app/remote-support/protocol.ts";
import { SessionConversationView } from "#app/assistant/session-conversation-view.tsx";
import { DeviceStatus } from "./device-status";
import { ServerLinkStatus } from "./server-link-status";

const errorText = "text-base font-medium text-red-300";

type ActivePanelProps = {
  session: SessionView | null;
  onDisconnect: () => void;
  busy: boolean;
  error: string;
  /** Reopens the full-screen remote view (absent while it is open or there is nothing to show). */
  onOpenRemote?: () => void;
  /** The server connection, said while it is lost (issue 13 §4). */
  link: ServerLink;
  /** Why the last session ended, when the server ended it (empty otherwise). */
  endNotice: string;
  /** The customer's desktop app (issue 15). */
  device: DeviceView | null;
};

export function ActivePanel({
  session,
  onDisconnect,
  busy,
  error,
  onOpenRemote,
  link,
  endNotice,
  device,
}: ActivePanelProps) {
  const seconds = useElapsedSeconds(session?.startTime ?? null);
  return (
    <Card className="flex flex-col gap-4">
      <h2 className="text-2xl font-bold text-white">Session active</h2>
      <ServerLinkStatus link={link} />
      <p role="status" className={endNotice ? "font-medium text-amber-200" : "sr-only"}>
        {endNotice}
      </p>
      {/* Announces a join or an end; the timer itself is outside, or it would be read every second. */}
      <p role="status" className="text-slate-300">
        {session ? `Connecté à la session ${formatSessionCode(session.code)}` : "Aucune session active."}
      </p>
      {session ? (
        <>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
            <dt className="text-slate-300">Client</dt>
            <dd className="font-semibold text-white">
              <CustomerName session={session} />
            </dd>
            <dt className="text-slate-300">E-mail</dt>
            {/* Issue 26: a session started from the app has no account, so no address. */}
            <dd className="break-all text-white">{session.userEmail ?? "—"}</dd>
            <dt className="text-slate-300">Durée</dt>
            <dd>
              <time
                dateTime={`PT${seconds}S`}
                aria-label={`Durée de la session : ${formatTimer(seconds)}`}
                className="font-mono text-2xl font-bold text-white tabular-nums"
                data-testid="session-timer"
              >
                {formatTimer(seconds)}
              </time>
            </dd>
          </dl>
          <DeviceStatus device={device} />
          {/* Issue 18 §4: what the customer said to the assistant, when the session was asked from it. */}
          <SessionConversationView code={session.code} />
          <div className="flex flex-wrap gap-3">
            {onOpenRemote ? (
              <Button type="button" onClick={onOpenRemote}>
                Ouvrir le contrôle à distance
              </Button>
            ) : null}
            <Button type="button" variant="secondary" onClick={onDisconnect} disabled={busy}>
              {busy ? "Déconnexion..." : "Déconnecter"}
            </Button>
          </div>
          <p role="alert" className={errorText}>
            {error}
          </p>
        </>
      ) : null}
    </Card>
  );
}
