/**
 * The customer assistant screen (spec §2 "Customer assistant screen", §4
 * "Session status"): start a remote-support session, read its code aloud to
 * the technician, see live when a technician has joined, share the screen
 * (issue 6, `screen-share.tsx`), pair the desktop app and allow control
 * (issue 15, `device-panel.tsx`), end it. Also the app's downloads
 * (`download-panel.tsx`), and the "Assistant virtuel" (issue 7, `app/assistant/`). Loaded lazily: only signed-in customers download it.
 * Issue 13 §4: while the server connection is lost (restart, network) a polite
 * line says so; once back the session is read again, and if the server ended
 * it meanwhile the screen says why.
 */
import { Copy } from "lucide-react";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { useHydrated } from "#app/utils/use-hydrated.ts";
import { FormStatus } from "#app/components/ui/field.tsx";
import { createSession, disconnectSession, getMySessions } from "#app/remote-support/client/api.ts";
import { FreshReads } from "#app/utils/fresh-reads.ts";
import { useRealtimeSocket, type RealtimeStore } from "#app/remote-support/client/realtime-store.ts";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";
import { endedByServer, SERVER_ENDED_TEXT, useServerLink } from "#app/remote-support/client/server-connection.ts";
import {
  formatSessionCode,
  SESSION_MESSAGES,
  type AccountView,
  type SessionView,
} from "#app/remote-support/protocol.ts";
import { technicianJoinedText } from "#app/remote-support/technician-name.ts";
import { DevicePanel } from "./device-panel";
import { DownloadPanel } from "./download-panel";
import { QueuePlaceStatus } from "./queue-place-status";
import { ScreenSharePanel } from "./screen-share";
import { ServerLinkStatus } from "./server-link-status";
import { AssistantPanel } from "#app/assistant/assistant-panel.tsx";
import { MyRepairs } from "#app/repairs/my-repairs.tsx";

type ScreenProps = {
  user: AccountView;
  /** The tab's connection (issue 16: a store, so this lazy screen's props never change before it hydrates). */
  realtime: RealtimeStore;
  /** The customer's sessions as the server read them for the page (issue 16): the first render shows the open one. */
  initialSessions?: SessionView[];
};

type Props = {
  user: AccountView;
  socket: RealtimeSocket | null;
  /** The customer's sessions as the server read them for the page (issue 16): the first render shows the open one. */
  initialSessions?: SessionView[];
};

/** The customer's open session: the newest that has not ended (no end time). */
export function openSession(sessions: readonly SessionView[]): SessionView | null {
  return sessions.find((session) => session.endTime === null) ?? null;
}

/**
 * Status sentence of a session (announced by a live region); issue 40: the technician named by their first name
 * once joined (« Julien, technicien de l'atelier, est connecté »).
 */
export function sessionStatusText(session: SessionView): string {
  return session.status === "connected"
    ? technicianJoinedText(session.technicianFirstName)
    : "En attente d'un technicien…";
}

export default function CustomerScreen({ user, realtime, initialSessions }: ScreenProps) {
  const socket = useRealtimeSocket(realtime);
  return (
    <div className="grid grid-cols-1 gap-8 lg:grid-cols-2">
      <SessionPanel user={user} socket={socket} initialSessions={initialSessions} />
      <AssistantPanel />
      <DownloadPanel />
      <MyRepairs />
    </div>
  );
}

function SessionPanel({ socket, initialSessions }: Props) {
  const [session, setSession] = useState<SessionView | null>(() =>
    initialSessions ? openSession(initialSessions) : null,
  );
  const [loading, setLoading] = useState(initialSessions === undefined);
  // Read once on mount only when the page came without the server's list.
  const readOnMount = useRef(initialSessions === undefined);
  const [busy, setBusy] = useState(false);
  // Issue 30: the page is rendered by the server (after a sign-in it is a fresh load); a click on a button only
  // JavaScript carries out, made while the scripts load, would be lost without a word.
  const hydrated = useHydrated();
  const [error, setError] = useState("");
  const [copied, setCopied] = useState("");
  const [endNotice, setEndNotice] = useState("");
  const codeRef = useRef<HTMLDivElement>(null);
  const headingId = useId();
  const link = useServerLink(socket);
  // Late answers of `reload` must not undo a start, an end or a push seen meanwhile (`fresh-reads.ts`).
  const [freshReads] = useState(() => new FreshReads());
  // The code on screen, read by handlers that outlive a render.
  const shownCode = useRef<string | null>(null);
  shownCode.current = session?.code ?? null;

  /** The session on screen ended: say so when the server did it (the customer knows when they did, and sees the technician's end). */
  const explainEnd = useCallback(async (ended: SessionView) => {
    // Issue 13 §8: a session nobody joined that the server ended is a code that expired unused.
    if (await endedByServer(ended.code))
      setEndNotice(ended.startTime === null ? SESSION_MESSAGES.codeExpiredNotice : SERVER_ENDED_TEXT);
  }, []);

  const reload = useCallback(async (): Promise<void> => {
    const ticket = freshReads.begin();
    const result = await getMySessions();
    const verdict = freshReads.verdict(ticket);
    if (verdict === "again") return reload();
    if (verdict === "drop") return;
    if (result.ok) {
      const open = openSession(result.data.sessions);
      const before = shownCode.current;
      const endedBefore = result.data.sessions.find((item) => item.code === before && item.endTime !== null);
      if (before && open?.code !== before && endedBefore) void explainEnd(endedBefore);
      setSession(open);
    } else console.error("Erreur lors de la récupération de la session", result.message);
    setLoading(false);
  }, [explainEnd, freshReads]);

  useEffect(() => {
    if (readOnMount.current) void reload();
  }, [reload]);

  useEffect(() => {
    if (!socket) return;
    const onUpdated = (updated: SessionView) => {
      freshReads.changed();
      if (updated.endTime !== null && updated.code === shownCode.current) void explainEnd(updated);
      setSession((current) => {
        if (current && current.code !== updated.code) return current;
        // An ended session leaves the screen: the customer can start a new one.
        return updated.endTime === null ? updated : null;
      });
    };
    // After a reconnection, events may have been missed: read the state again.
    const onConnect = () => void reload();
    socket.on("session:updated", onUpdated);
    socket.on("connect", onConnect);
    return () => {
      socket.off("session:updated", onUpdated);
      socket.off("connect", onConnect);
    };
  }, [socket, reload, explainEnd, freshReads]);

  async function start() {
    setBusy(true);
    setError("");
    setEndNotice("");
    const result = await createSession();
    setBusy(false);
    if (!result.ok) return setError(result.message);
    freshReads.changed();
    setSession(result.data.session);
    requestAnimationFrame(() => codeRef.current?.focus());
  }

  async function end() {
    if (!session) return;
    setBusy(true);
    setError("");
    const result = await disconnectSession(session.code);
    setBusy(false);
    if (!result.ok) return setError(result.message);
    freshReads.changed();
    setSession(null);
  }

  async function copy() {
    if (!session) return;
    try {
      // Issue 40: as shown (« K7W 9GA »); the technician's field takes it with or without the space.
      await navigator.clipboard.writeText(formatSessionCode(session.code));
      setCopied("Code copié dans le presse-papiers.");
    } catch {
      setCopied("Copie impossible : notez le code affiché.");
    }
  }

  return (
    <Card className="flex flex-col gap-5 lg:col-span-2">
      <h2 id={headingId} className="text-2xl font-bold text-white">
        Session d'assistance à distance
      </h2>
      <ServerLinkStatus link={link} />
      <p role="status" className={endNotice ? "font-medium text-amber-200" : "sr-only"}>
        {endNotice}
      </p>
      {loading ? (
        <p role="status" className="text-slate-300">
          Chargement de votre session…
        </p>
      ) : session ? (
        <>
          <p className="text-slate-300">Communiquez ce code de session au technicien qui vous aide par téléphone :</p>
          <div className="flex flex-wrap items-center gap-4">
            <div
              ref={codeRef}
              tabIndex={-1}
              role="group"
              aria-label={`Code de session : ${[...session.code].join(" ")}`}
              className="rounded-xl border border-sky-400/60 bg-slate-950/80 px-6 py-4 font-mono text-4xl font-bold tracking-[0.3em] text-white outline-none focus-visible:outline-2 focus-visible:outline-sky-300 sm:text-5xl"
            >
              <span aria-hidden="true">{formatSessionCode(session.code)}</span>
            </div>
            <Button type="button" variant="secondary" onClick={copy} disabled={!hydrated}>
              <Copy aria-hidden="true" className="size-5" />
              Copier le code
            </Button>
          </div>
          <p role="status" className="text-sm text-slate-300">
            {copied}
          </p>
          <p role="status" aria-live="polite" className="text-lg font-semibold">
            <span className={session.status === "connected" ? "text-emerald-300" : "text-amber-200"}>
              {sessionStatusText(session)}
            </span>
          </p>
          <QueuePlaceStatus session={session} socket={socket} />
          <ScreenSharePanel session={session} socket={socket} onStop={end} />
          <DevicePanel session={session} socket={socket} />
          <div>
            <Button type="button" variant="secondary" onClick={end} disabled={busy || !hydrated}>
              Terminer la session
            </Button>
          </div>
        </>
      ) : (
        <>
          <p className="text-slate-300">
            Un technicien vous a proposé une intervention à distance ? Démarrez une session : un code s'affiche, à lui
            communiquer.
          </p>
          <p role="status" className="sr-only" />
          <div>
            <Button type="button" onClick={start} disabled={busy || !hydrated}>
              {busy ? "Création..." : "Démarrer une session d'assistance"}
            </Button>
          </div>
        </>
      )}
      <FormStatus tone="error">{error || null}</FormStatus>
    </Card>
  );
}
