/**
 * The technician dashboard (spec §2 "Technician dashboard", §4 "Technician
 * join", "Disconnect", "Dashboard load", "Timer", §5 "Connection code",
 * "Report access", §8). Every rule is the server's: this screen shows the
 * API's French refusals as they come. It resumes the technician's connected
 * session on load; afterwards the active session and the history follow the
 * server's `session:updated` pushes and the answers of the technician's own
 * join and disconnect, without asking the API again (issue 14,
 * `client/dashboard-sessions.ts`). The "Demandes" view lists contact and
 * quote requests; the "Assistant" view the customers' ratings of the
 * assistant's answers (issue 17 §4, `app/assistant/ratings-view.tsx`). Loaded lazily: only technicians download it. Issue 13 §4:
 * while the server connection is lost (restart, network) a polite line says
 * so and the session is never ended for a lost peer connection (its ICE
 * restart needs the server); once back, everything is read again, and a
 * session the server ended meanwhile is explained.
 *
 * Issue 40: each tab says what waits in it (`TabCount`): the waiting customers on « Sessions » (the live queue,
 * held here and shown by the sessions view), the appointments « À confirmer », the quotes waiting for the
 * customer's answer on « Réparations », the requests « À traiter » (`client/use-dashboard-counts.ts`).
 */
import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState, type FormEvent } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Input, Label } from "#app/components/ui/field.tsx";
import { useHydrated } from "#app/utils/use-hydrated.ts";
import { useTypedBeforeHydration } from "#app/utils/use-typed-before-hydration.ts";
import { QueuedSubmitStatus, useQueuedSubmit } from "#app/utils/use-queued-submit.tsx";
import { disconnectSession, getActiveSession, getHistory, joinSession } from "#app/remote-support/client/api.ts";
import { FreshReads } from "#app/utils/fresh-reads.ts";
import { applySessionUpdate, type DashboardSessions } from "#app/remote-support/client/dashboard-sessions.ts";
import { useRealtimeSocket, type RealtimeStore } from "#app/remote-support/client/realtime-store.ts";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";
import {
  endedByServer,
  isServerLinkUp,
  SERVER_ENDED_TEXT,
  useServerLink,
} from "#app/remote-support/client/server-connection.ts";
import { codeInputValue } from "#app/remote-support/client/format.ts";
import { useDevice } from "#app/remote-support/client/use-device.ts";
import { useScreenViewer } from "#app/remote-support/client/use-screen-viewer.ts";
import { useWaitingQueue } from "#app/remote-support/client/use-waiting-queue.ts";
import { useDashboardCounts } from "#app/remote-support/client/use-dashboard-counts.ts";
import { COUNT_TEXTS } from "#app/remote-support/dashboard-counts.ts";
import { PEER_RECOVERY_GRACE_MS, type AccountView, type SessionView } from "#app/remote-support/protocol.ts";
import { ActivePanel } from "./active-panel";
// The full-screen remote view (video, input, chat) is a chunk of its own, loaded when a session is connected.
const RemoteView = lazy(() => import("./remote-view").then((module) => ({ default: module.RemoteView })));
import { HistoryPanel } from "./history-panel";
import { WaitingQueueList } from "./waiting-queue";
import { TabCount } from "./tab-count";
import { RequestsView } from "#app/requests/requests-view.tsx";
import { RatingsView } from "#app/assistant/ratings-view.tsx";
import { AgendaView } from "#app/booking/agenda-view.tsx";
import { RepairsView } from "#app/repairs/repairs-view.tsx";
import { ShowRepairContext } from "#app/repairs/repair-link.tsx";
import { REPAIR_DASHBOARD_PARAM } from "#app/repairs/protocol.ts";
// Issue 29: the manager's « Équipe » view, a chunk only managers download.
const StaffView = lazy(() => import("#app/staff/staff-view.tsx"));
// Issue 29: « Tarifs » (prices in the dashboard), a chunk only those with `shop:manage` download.
const PricesView = lazy(() => import("#app/prices/prices-view.tsx"));
// Issue 29: « Boutique » (the shop's identity), a chunk only those with `shop:manage` download.
const ShopIdentityView = lazy(() => import("#app/shop/identity-view.tsx"));
// Issue 40: « Sauvegardes » (`backups:read`) and « Mise en ligne » (`shop:manage`), the manager's chunks.
const BackupsView = lazy(() => import("#app/backups/backups-view.tsx"));
const GoLiveView = lazy(() => import("#app/go-live/checklist-view.tsx"));

type Props = {
  user: AccountView;
  socket: RealtimeSocket | null;
  /** The session in progress and the history as the server read them for the page (issue 16): no read on mount. */
  initial?: { active: SessionView | null; history: SessionView[] };
};
type WaitingQueueHandle = ReturnType<typeof useWaitingQueue>;

/** Red on the dark theme with AA contrast (red-300 on slate-900: 8.7:1). */
const errorText = "text-base font-medium text-red-300";

/** The dashboard as /soft-assist loads it: the connection from the page's store (see `realtime-store.ts`). */
export default function TechnicianDashboard({
  realtime,
  ...props
}: Omit<Props, "socket"> & { realtime: RealtimeStore }) {
  return <Dashboard {...props} socket={useRealtimeSocket(realtime)} />;
}

function Dashboard({ user, socket, initial }: Props) {
  const [view, setView] = useState<
    "sessions" | "agenda" | "requests" | "assistant" | "repairs" | "staff" | "prices" | "shop" | "backups" | "go-live"
  >("sessions");
  // Issue 40: a ticket a link named (`RepairLink`, or `?reparation=` in the address) shows in « Réparations ».
  const [repair, setRepair] = useState<{ code: string } | null>(null);
  const showRepair = useCallback((code: string) => {
    setRepair({ code });
    setView("repairs");
  }, []);
  useEffect(() => {
    const code = new URLSearchParams(window.location.search).get(REPAIR_DASHBOARD_PARAM);
    if (code) showRepair(code);
  }, [showRepair]);
  const managesStaff = user.permissions?.includes("staff:manage") === true;
  const managesShop = user.permissions?.includes("shop:manage") === true;
  const readsBackups = user.permissions?.includes("backups:read") === true;
  // The page comes rendered by the server: a view chosen before the scripts run would be lost without a word.
  const hydrated = useHydrated();
  // Issue 40: one live queue for the « File d'attente » list and the « Sessions » tab's count.
  const queue = useWaitingQueue(socket);
  const { counts, refresh: refreshCounts } = useDashboardCounts(socket, view);
  return (
    <div className="flex flex-col gap-8">
      <nav aria-label="Vues du tableau de bord" className="flex flex-wrap gap-2">
        {(
          [
            ["sessions", "Sessions", queue.entries?.length, COUNT_TEXTS.waiting],
            ["agenda", "Rendez-vous", counts?.appointmentsToConfirm, COUNT_TEXTS.appointmentsToConfirm],
            ["requests", "Demandes", counts?.untreatedRequests, COUNT_TEXTS.untreatedRequests],
            ["assistant", "Assistant"],
            ["repairs", "Réparations", counts?.quotesAwaiting, COUNT_TEXTS.quotesAwaiting],
            ...(managesStaff ? [["staff", "Équipe"] as const] : []),
            ...(managesShop ? [["prices", "Tarifs"] as const, ["shop", "Boutique"] as const] : []),
            ...(readsBackups ? [["backups", "Sauvegardes"] as const] : []),
            ...(managesShop ? [["go-live", "Mise en ligne"] as const] : []),
          ] as const
        ).map(([key, label, count, text]) => (
          <Button
            key={key}
            type="button"
            variant={view === key ? "primary" : "secondary"}
            aria-pressed={view === key}
            disabled={!hydrated}
            onClick={() => {
              setView(key);
              setRepair(null);
            }}
          >
            {label}
            {text ? <TabCount count={count} text={text} /> : null}
          </Button>
        ))}
      </nav>
      {/* Hidden rather than unmounted, so the sessions view keeps its live state while requests are read. */}
      <div hidden={view !== "sessions"}>
        <SessionsView user={user} socket={socket} initial={initial} queue={queue} />
      </div>
      {view === "agenda" ? (
        // Issue 40: « Ouvrir une réparation »'s link opens the ticket here, without reloading the page.
        <ShowRepairContext value={showRepair}>
          <AgendaView socket={socket} />
        </ShowRepairContext>
      ) : null}
      {view === "requests" ? <RequestsView onChanged={refreshCounts} /> : null}
      {view === "assistant" ? <RatingsView /> : null}
      {view === "repairs" ? <RepairsView requested={repair} /> : null}
      {view === "staff" && managesStaff ? (
        <Suspense fallback={<p className="text-slate-300">Chargement…</p>}>
          <StaffView selfId={user.id} />
        </Suspense>
      ) : null}
      {view === "prices" && managesShop ? (
        <Suspense fallback={<p className="text-slate-300">Chargement…</p>}>
          <PricesView />
        </Suspense>
      ) : null}
      {view === "shop" && managesShop ? (
        <Suspense fallback={<p className="text-slate-300">Chargement…</p>}>
          <ShopIdentityView />
        </Suspense>
      ) : null}
      {view === "backups" && readsBackups ? (
        <Suspense fallback={<p className="text-slate-300">Chargement…</p>}>
          <BackupsView />
        </Suspense>
      ) : null}
      {view === "go-live" && managesShop ? (
        <Suspense fallback={<p className="text-slate-300">Chargement…</p>}>
          <GoLiveView onOpen={setView} />
        </Suspense>
      ) : null}
    </div>
  );
}

function SessionsView({ user, socket, initial, queue }: Props & { queue: WaitingQueueHandle }) {
  const [{ active, history }, setSessions] = useState<DashboardSessions>(
    () => initial ?? { active: null, history: null },
  );
  const readOnMount = useRef(initial === undefined);
  // The full-screen remote view opens by itself for each newly active session (spec §2).
  const [reducedFor, setReducedFor] = useState<string | null>(null);
  const [ending, setEnding] = useState(false);
  const [endError, setEndError] = useState("");
  const [endNotice, setEndNotice] = useState("");
  const activeCode = active?.status === "connected" ? active.code : null;
  // Issue 37 §10: an app session's picture comes through the server (`app-screen.ts`), never a peer connection.
  const viewer = useScreenViewer(active?.origin === "app" ? null : activeCode, socket);
  const { device } = useDevice(activeCode, socket);
  const link = useServerLink(socket);
  const linkUp = isServerLinkUp(link);
  // The active session on screen, read by `refresh` and the push listener to tell when it ended.
  const shownCode = useRef<string | null>(null);
  shownCode.current = active?.code ?? null;
  const technicianId = user.id;

  /** Says why the session on screen ended, when the server ended it (the technician knows when they did). */
  const explainEnd = useCallback((code: string) => {
    void endedByServer(code).then((byServer) => {
      if (byServer) setEndNotice(SERVER_ENDED_TEXT);
    });
  }, []);

  // Late answers of `refresh` must not undo a join, a push or an end seen meanwhile (`fresh-reads.ts`).
  const [freshReads] = useState(() => new FreshReads());

  // Reads everything: on load and after the server connection comes back, when pushes may have been missed.
  const refresh = useCallback(async (): Promise<void> => {
    const ticket = freshReads.begin();
    const [activeResult, historyResult] = await Promise.all([getActiveSession(), getHistory()]);
    const verdict = freshReads.verdict(ticket);
    if (verdict === "again") return refresh();
    if (verdict === "drop") return;
    if (activeResult.ok) {
      const next = activeResult.data.session;
      const before = shownCode.current;
      const endedBefore =
        before !== null &&
        next?.code !== before &&
        historyResult.ok &&
        historyResult.data.sessions.some((session) => session.code === before && session.endTime !== null);
      if (endedBefore) explainEnd(before);
      if (next) setEndNotice("");
      setSessions((current) => ({ ...current, active: next }));
    } else console.error("Erreur lors de la récupération des sessions actives", activeResult.message);
    if (historyResult.ok) setSessions((current) => ({ ...current, history: historyResult.data.sessions }));
    else console.error("Erreur lors de la récupération de la session", historyResult.message);
  }, [explainEnd, freshReads]);

  /** A session of this technician changed: the push's data is the truth, nothing is read again. */
  const applyUpdate = useCallback(
    (session: SessionView) => {
      if (session.technicianId !== technicianId) return;
      freshReads.changed();
      if (session.endTime !== null && session.code === shownCode.current) explainEnd(session.code);
      if (session.endTime === null && session.status === "connected") setEndNotice("");
      setSessions((current) => applySessionUpdate(current, session, technicianId));
    },
    [technicianId, explainEnd, freshReads],
  );

  useEffect(() => {
    if (readOnMount.current) void refresh();
  }, [refresh]);

  useEffect(() => {
    if (!socket) return;
    const onConnect = () => void refresh();
    socket.on("session:updated", applyUpdate);
    socket.on("connect", onConnect);
    return () => {
      socket.off("session:updated", applyUpdate);
      socket.off("connect", onConnect);
    };
  }, [socket, refresh, applyUpdate]);

  const end = useCallback(
    async (code: string) => {
      setEnding(true);
      setEndError("");
      const result = await disconnectSession(code);
      setEnding(false);
      if (!result.ok) return setEndError(result.message);
      freshReads.changed();
      const ended = result.data.session;
      setSessions((current) => ({ ...applySessionUpdate(current, ended, technicianId), active: null }));
    },
    [technicianId, freshReads],
  );

  // Spec §4: the dashboard disconnects by itself when the peer connection is lost, after a grace period for an ICE restart.
  // The grace counts only while the server link is up (issue 13 §4): an ICE restart travels through it, and a restart of
  // the server alone leaves the peer connection as it was.
  const lost = viewer.state === "reconnecting" || viewer.state === "failed";
  useEffect(() => {
    if (!lost || !activeCode || !linkUp) return;
    const timer = window.setTimeout(() => void end(activeCode), PEER_RECOVERY_GRACE_MS);
    return () => window.clearTimeout(timer);
  }, [lost, activeCode, end, linkUp]);

  /** A session this technician joined (by its code, or taken from the queue): active now, its remote view open. */
  const onJoined = (session: SessionView) => {
    freshReads.changed();
    setEndNotice("");
    setSessions((current) => ({ ...applySessionUpdate(current, session, technicianId), active: session }));
    setReducedFor(null);
  };

  return (
    <div className="grid grid-cols-1 gap-8 lg:grid-cols-2">
      <JoinPanel onJoined={onJoined} />
      <ActivePanel
        session={active}
        onDisconnect={() => active && void end(active.code)}
        busy={ending}
        error={endError}
        onOpenRemote={activeCode ? () => setReducedFor(null) : undefined}
        link={link}
        endNotice={endNotice}
        device={device}
      />
      <WaitingQueueList queue={queue} onJoined={onJoined} />
      <HistoryPanel sessions={history} />
      {active && activeCode ? (
        <Suspense fallback={null}>
          <RemoteView
            session={active}
            viewer={viewer}
            open={reducedFor !== activeCode}
            onReduce={() => setReducedFor(activeCode)}
            onEnd={() => void end(activeCode)}
            ending={ending}
            serverLink={link}
            socket={socket}
            device={device}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

function JoinPanel({ onJoined }: { onJoined: (session: SessionView) => void }) {
  const id = useId();
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const codeRef = useRef<HTMLInputElement>(null);
  // A technician who types the code as the page appears must not lose it when React takes over.
  const keepTyped = useTypedBeforeHydration("session-code", codeRef, code, (typed) => setCode(codeInputValue(typed)));
  // …nor the Entrée pressed after it: the join is made once React is ready, « envoi… » meanwhile (issue 39 §2).
  const formRef = useRef<HTMLFormElement>(null);
  const { formProps: queueSubmit } = useQueuedSubmit("session-code", formRef);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!code.trim()) return;
    setBusy(true);
    setError("");
    const result = await joinSession(code);
    setBusy(false);
    if (!result.ok) return setError(result.message);
    setCode("");
    onJoined(result.data.session);
  }
  return (
    <Card className="flex flex-col gap-4">
      <h2 className="text-2xl font-bold text-white">Connexion à une session</h2>
      <form ref={formRef} {...queueSubmit} className="flex flex-col gap-4" onSubmit={submit}>
        <div className="flex flex-col gap-2">
          <Label htmlFor={`${id}-code`}>Code de session</Label>
          <Input
            ref={codeRef}
            {...keepTyped}
            id={`${id}-code`}
            name="code"
            value={code}
            onChange={(event) => {
              setCode(codeInputValue(event.target.value));
              setError("");
            }}
            placeholder="Entrez le code"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={32}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-erreur`}
            className="font-mono text-lg tracking-widest uppercase"
          />
        </div>
        <p id={`${id}-erreur`} role="alert" className={errorText}>
          {error}
        </p>
        <div className="flex gap-3">
          <Button type="submit" disabled={busy || !code.trim()}>
            {busy ? "Connexion..." : "Se connecter"}
          </Button>
          <QueuedSubmitStatus />
        </div>
      </form>
    </Card>
  );
}
