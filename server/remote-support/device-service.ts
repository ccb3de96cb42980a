/**
 * The rules of the desktop support app (issue 15, `device-protocol.ts`),
 * enforced here and nowhere else: `device-api.ts` (HTTP) and
 * `device-realtime.ts` (Socket.IO) pass the caller, the app's identity and
 * the untrusted input, already shaped by the protocol's zod schemas.
 *
 * - Pairing codes: only the session's customer asks for one, while the
 *   session is open; a new one voids the previous one. Stored hashed,
 *   single use (the `delete … returning` that consumes it is the check, so a
 *   code sent twice at once pairs once), `PAIRING_CODE_TTL_S`.
 * - Pairing: the code names its session and account; the app gets a random
 *   device token (stored hashed) and a new pairing id (its Socket.IO room).
 *   A new pairing of the same session replaces the previous app, which is
 *   told `device:ended`. Failures are limited per IP address.
 * - Consent and the shared surface: the session's customer only. Issue 28
 *   §8: surfaces within a budget per customer and session, and the same
 *   surface again is neither written nor announced.
 * - The session ends → the token is voided, the app told `device:ended`.
 * - Issue 26: a session the app started itself (`SessionService.createFromApp`,
 *   no account) has the app as its only customer side: no account may ask
 *   for pairing codes, consent or report a surface for it (`roleIn`), the
 *   consent given in the app is recorded by `APP_ACTOR_ID`, and the app
 *   leaving (`device:leave`) ends the session (`SessionService.endFromApp`).
 * - Issue 36 §4: the app relaunched as administrator rejoins with a single-use resume ticket
 *   (`device-resume.ts`), replacing its previous process without ending anything.
 * - Every change is announced (`subscribe`) after commit; `device-realtime.ts`
 *   pushes the views and relays releases. The relay's `controlState` is
 *   cached per process for `CONTROL_CACHE_MS` and dropped on every change
 *   (`invalidate`, also called for changes made by other processes).
 *
 * Every method resolves to an `Outcome` and never throws (a database failure
 * is logged and becomes "failed"), except the app-side ones, which reject.
 */
import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { AppDatabase } from "#database/connection.ts";
import { sessionDevices, sessionEvents, sessions } from "#database/schema.ts";
import {
  DEVICE_MESSAGES,
  PAIRING_CODE_TTL_S,
  type DeviceView,
  type SurfaceBody,
} from "#app/remote-support/device-protocol.ts";
import { can, type Caller } from "#server/access.ts";
import { consume, createRateLimiter, MEMORY_STORE, type RateLimitStore } from "#server/rate-limit.ts";
import { createRefusalLog } from "#server/refusal-log.ts";
import { DEFAULT_SESSION_EVENT_BUDGETS, type LimitRule } from "./limits.ts";
import { refuse, roleIn } from "./session-rules.ts";
import type { SessionService } from "./sessions.ts";
import { createPairing, type PairingMethods } from "./device-pairing.ts";
import { createResume, type ResumeMethods } from "./device-resume.ts";
import { createAppSide, unpairApp, type AppSideMethods } from "./device-app-side.ts";
import { createClipboardRecord, type ClipboardRecordMethods } from "./clipboard-relay.ts";
import {
  loadDeviceSnapshot,
  refuseDevice,
  toControlState,
  toDeviceView,
  type ControlState,
  type DeviceOutcome,
  type DeviceServiceEvent,
  type DeviceSnapshot,
} from "./device-state.ts";

export type {
  DeviceIdentity,
  DeviceOutcome,
  DeviceRefusal,
  DeviceRefusalReason,
  DeviceServiceEvent,
} from "./device-state.ts";

/** The relay re-reads a session's control state at least this often, ms, even if no change was announced. */
export const CONTROL_CACHE_MS = 2_000;
/** Sessions whose control state one process keeps at most (past it the cache starts afresh). */
const MAX_CACHED_SESSIONS = 10_000;
/** Failed pairings per IP address and window (wrong, used or expired codes; parallel guesses count). */
export const DEFAULT_PAIRING_LIMIT: LimitRule = { points: 10, durationSeconds: 600 };

export type DeviceService = PairingMethods &
  ResumeMethods &
  AppSideMethods &
  ClipboardRecordMethods & {
    /** Customer of `code`, session open, app paired: allow or withdraw control. */
    setConsent(caller: Caller, code: string, allowed: boolean): Promise<DeviceOutcome<{ device: DeviceView }>>;
    /** Customer of `code`, session open: what their browser shares. */
    reportSurface(caller: Caller, code: string, surface: SurfaceBody): Promise<DeviceOutcome<{ device: DeviceView }>>;
    /** Either participant: the session's app, paired or not. */
    view(caller: Caller, code: string): Promise<DeviceOutcome<{ device: DeviceView }>>;
    /** After a recorded `control-on`/`control-off` of session `code`: views pushed, and on `off` a release. */
    controlToggled(code: string, on: boolean): Promise<void>;
    /** After session `sessionId` changed (joined, ended…): on end the token is voided and the app told. */
    sessionChanged(sessionId: string, ended: boolean): Promise<void>;
    /**
     * Issue 26, the session's joined technician only: show monitor `screenId` of the app's picture.
     * @returns false when the caller is not that technician or the app has no such screen.
     */
    selectScreen(caller: Caller, code: string, screenId: string): Promise<boolean>;
    /** What the input relay needs of session `code`, from this process's cache (null: no such session). */
    controlState(code: string): Promise<ControlState | null>;
    /** Session `sessionId` with its app, read now (for the pushes of `device-realtime.ts`). @throws on database failure. */
    snapshot(sessionId: string): Promise<DeviceSnapshot | null>;
    /** Drops the cached control state of `sessionId` (a change, here or in another process). */
    invalidate(sessionId: string): void;
    /** Listens to committed changes; returns the unsubscribe function. */
    subscribe(listener: (event: DeviceServiceEvent) => void): () => void;
  };

export type DeviceServiceOptions = {
  db: AppDatabase;
  logger: Logger;
  /** Issue 26: ends a session the app started when its app leaves (the session service's bookkeeping and pushes). */
  sessions: Pick<SessionService, "endFromApp">;
  /** Where pairing failures count (default this process's memory). */
  rateLimits?: RateLimitStore;
  pairingLimit?: LimitRule;
  /** Pairing code lifetime, s (default `PAIRING_CODE_TTL_S`; tests shorten it). */
  pairingCodeTtlSeconds?: number;
  /** Issue 28 §8: surfaces reported per customer and session (default `DEFAULT_SESSION_EVENT_BUDGETS.surfaces`). */
  surfaceBudget?: LimitRule;
};

/**
 * The desktop app's rules over `db` (see the module comment and
 * `DeviceService`). One per server process: `server/services.ts` builds it,
 * `api.ts` mounts its routes, `realtime.ts` its namespace and relay.
 */
export function createDeviceService({
  db,
  logger,
  sessions: sessionService,
  rateLimits = MEMORY_STORE,
  pairingLimit = DEFAULT_PAIRING_LIMIT,
  pairingCodeTtlSeconds = PAIRING_CODE_TTL_S,
  surfaceBudget = DEFAULT_SESSION_EVENT_BUDGETS.surfaces,
}: DeviceServiceOptions): DeviceService {
  const surfaceLimiter = createRateLimiter(rateLimits, { name: "session-surface", ...surfaceBudget });
  // Issue 36 §4: a wrong resume ticket is a guess as a wrong pairing code is: one budget for both.
  const failures = createRateLimiter(rateLimits, { name: "device-pair-failure", ...pairingLimit });
  // Issue 28 §13: anyone can repeat a refused report; one summary line a minute, never a line each.
  const surfaceRefusals = createRefusalLog(logger, "surfaces partagées refusées");
  const listeners = new Set<(event: DeviceServiceEvent) => void>();
  /** code → control state (or its load in progress); `generation` drops loads that overlapped a change. */
  const cache = new Map<string, { state: Promise<ControlState | null>; loadedAt: number }>();
  const codeOf = new Map<string, string>();
  let generation = 0;

  function announce(event: DeviceServiceEvent): void {
    if (event.type === "changed") invalidate(event.sessionId);
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        logger.error({ err: error }, "diffusion d'un changement du logiciel de bureau impossible");
      }
    }
  }

  function invalidate(sessionId: string): void {
    generation += 1;
    const code = codeOf.get(sessionId);
    if (code !== undefined) cache.delete(code);
  }

  async function guarded<T>(logMessage: string, body: () => Promise<DeviceOutcome<T>>): Promise<DeviceOutcome<T>> {
    try {
      return await body();
    } catch (error) {
      logger.error({ err: error }, logMessage);
      return refuse("failed");
    }
  }

  /** The session `code` if `caller` is its customer and it is not over. */
  async function ownOpenSession(caller: Caller, code: string) {
    const [session] = await db.select().from(sessions).where(eq(sessions.code, code)).limit(1);
    if (!session) return refuse("not-found");
    const role = roleIn(session, caller);
    if (!role) return refuse("not-participant");
    if (role !== "customer") return refuseDevice("owner-only");
    if (session.endTime) return refuse("session-ended");
    return { ok: true as const, session };
  }

  async function viewOf(sessionId: string): Promise<DeviceView> {
    const snapshot = await loadDeviceSnapshot(db, sessionId, "id");
    if (!snapshot) throw new Error("session disparue");
    return toDeviceView(snapshot);
  }

  /**
   * Consent for the paired app of `sessionId` (`control` and/or `view`), with its record events; announces
   * only a change. @returns null when not paired, else whether anything changed.
   */
  async function changeConsent(
    sessionId: string,
    actorId: string | null,
    wanted: { control?: boolean; view?: boolean },
  ): Promise<boolean | null> {
    const changed = await db.transaction(async (tx) => {
      const [row] = await tx
        .select({
          pairingId: sessionDevices.pairingId,
          consent: sessionDevices.consent,
          viewConsent: sessionDevices.viewConsent,
        })
        .from(sessionDevices)
        .where(and(eq(sessionDevices.sessionId, sessionId), isNotNull(sessionDevices.pairingId)))
        .for("update")
        .limit(1);
      if (!row) return null;
      const control = wanted.control !== undefined && row.consent !== wanted.control ? wanted.control : undefined;
      const view = wanted.view !== undefined && row.viewConsent !== wanted.view ? wanted.view : undefined;
      if (control === undefined && view === undefined) return { pairingId: row.pairingId, control, view };
      await tx
        .update(sessionDevices)
        .set({ ...(control !== undefined && { consent: control }), ...(view !== undefined && { viewConsent: view }) })
        .where(eq(sessionDevices.sessionId, sessionId));
      const kinds = [
        ...(control === undefined ? [] : [control ? ("control-allowed" as const) : ("control-withdrawn" as const)]),
        ...(view === undefined ? [] : [view ? ("view-allowed" as const) : ("view-withdrawn" as const)]),
      ];
      await tx.insert(sessionEvents).values(kinds.map((kind) => ({ sessionId, actorId, kind })));
      return { pairingId: row.pairingId, control, view };
    });
    if (!changed) return null;
    if (changed.control === undefined && changed.view === undefined) return false;
    if (changed.control === false && changed.pairingId) announce({ type: "release", pairingId: changed.pairingId });
    announce({ type: "changed", sessionId });
    return true;
  }

  return {
    ...createPairing({ db, logger, announce, guarded, ownOpenSession, failures, pairingCodeTtlSeconds }),
    ...createResume({ db, logger, announce, guarded, failures }),

    setConsent(caller, code, allowed) {
      return guarded("Erreur lors du changement d'autorisation de contrôle", async () => {
        const owned = await ownOpenSession(caller, code);
        if (!owned.ok) return owned;
        if ((await changeConsent(owned.session.id, caller.userId, { control: allowed })) === null)
          return refuseDevice("not-paired");
        logger.info({ sessionId: owned.session.id, allowed }, "autorisation de contrôle modifiée");
        return { ok: true, device: await viewOf(owned.session.id) };
      });
    },

    reportSurface(caller, code, surface) {
      return guarded("Erreur lors de l'enregistrement de la surface partagée", async () => {
        const owned = await ownOpenSession(caller, code);
        if (!owned.ok) return owned;
        // Issue 28 §8: counted before anything is written, so that reports sent in parallel count too; never queued.
        const budget = await consume(surfaceLimiter, `${caller.userId}:${owned.session.id}`);
        if (!budget.allowed) {
          surfaceRefusals("budget de la session atteint");
          return refuse("too-many-events", { retryAfterSeconds: budget.retryAfterSeconds });
        }
        const fields = {
          displaySurface: surface.displaySurface,
          surfaceWidth: surface.width,
          surfaceHeight: surface.height,
        };
        const [row] = await db
          .insert(sessionDevices)
          .values({ sessionId: owned.session.id, userId: owned.session.userId, ...fields })
          .onConflictDoUpdate({
            target: sessionDevices.sessionId,
            set: fields,
            // Issue 28 §8: the same surface again is not written (no row returned) and not announced.
            setWhere: sql`(${sessionDevices.displaySurface}, ${sessionDevices.surfaceWidth}, ${sessionDevices.surfaceHeight})
              is distinct from (excluded.display_surface, excluded.surface_width, excluded.surface_height)`,
          })
          .returning({ pairingId: sessionDevices.pairingId });
        if (row) {
          // A window or a tab: the pointer can no longer be mapped, control stops.
          if (surface.displaySurface !== "monitor" && row.pairingId)
            announce({ type: "release", pairingId: row.pairingId });
          announce({ type: "changed", sessionId: owned.session.id });
        }
        return { ok: true, device: await viewOf(owned.session.id) };
      });
    },

    view(caller, code) {
      return guarded<{ device: DeviceView }>("Erreur lors de la lecture du logiciel de la session", async () => {
        const snapshot = await loadDeviceSnapshot(db, code);
        if (!snapshot) return refuse("not-found");
        if (!roleIn(snapshot, caller)) return refuse("not-participant");
        return { ok: true, device: toDeviceView(snapshot) };
      });
    },

    async controlToggled(code, on) {
      try {
        const snapshot = await loadDeviceSnapshot(db, code);
        if (!snapshot?.device) return;
        if (!on && snapshot.device.pairingId) announce({ type: "release", pairingId: snapshot.device.pairingId });
        announce({ type: "changed", sessionId: snapshot.sessionId });
      } catch (error) {
        logger.error({ err: error }, "bascule du contrôle non transmise au logiciel");
      }
    },

    async sessionChanged(sessionId, ended) {
      try {
        if (!ended) {
          const [row] = await db
            .select({ sessionId: sessionDevices.sessionId })
            .from(sessionDevices)
            .where(eq(sessionDevices.sessionId, sessionId))
            .limit(1);
          if (row) announce({ type: "changed", sessionId });
          return;
        }
        const voided = await unpairApp(db, sessionId, null);
        if (!voided) return;
        logger.info({ sessionId }, "session terminée : logiciel désappairé");
        announce({ type: "release", pairingId: voided });
        announce({ type: "ended", pairingId: voided, message: DEVICE_MESSAGES.sessionEnded });
        announce({ type: "changed", sessionId });
      } catch (error) {
        logger.error({ err: error }, "fin de session non transmise au logiciel");
      }
    },

    // Issue 27: a clipboard transfer recorded without its text.
    ...createClipboardRecord(db),

    ...createAppSide({
      db,
      announce,
      changeConsent,
      async endAppSession(sessionId, pairingId) {
        const ended = await sessionService.endFromApp(sessionId, pairingId);
        // Already logged by the session service; the app side's methods reject on a database failure.
        if (!ended.ok) throw new Error(`fin de la session du logiciel impossible (${ended.reason})`);
        return ended.session !== null;
      },
    }),

    async selectScreen(caller, code, screenId) {
      const snapshot = await loadDeviceSnapshot(db, code);
      if (!snapshot?.device?.pairingId || snapshot.ended || snapshot.technicianId !== caller.userId) return false;
      if (!can(caller, "session:join") || !snapshot.device.screens.some((screen) => screen.id === screenId))
        return false;
      if (snapshot.device.shownScreen === screenId) return true;
      await db
        .update(sessionDevices)
        .set({ shownScreen: screenId })
        .where(eq(sessionDevices.sessionId, snapshot.sessionId));
      announce({ type: "changed", sessionId: snapshot.sessionId });
      return true;
    },

    controlState(code) {
      const cached = cache.get(code);
      if (cached && performance.now() - cached.loadedAt <= CONTROL_CACHE_MS) return cached.state;
      // Bounded: codes nobody uses (typos, a misbehaving client) must not pile up.
      if (cache.size >= MAX_CACHED_SESSIONS) {
        cache.clear();
        codeOf.clear();
      }
      const startedAt = generation;
      const loadedAt = performance.now();
      const state = loadDeviceSnapshot(db, code).then((snapshot) => {
        if (!snapshot) return null;
        codeOf.set(snapshot.sessionId, code);
        return toControlState(snapshot, loadedAt);
      });
      const entry = { state, loadedAt };
      cache.set(code, entry);
      // A change announced while reading: this answer serves the event that asked, not the next ones.
      void state.then(
        () => {
          if (generation !== startedAt && cache.get(code) === entry) cache.delete(code);
        },
        () => {
          if (cache.get(code) === entry) cache.delete(code);
        },
      );
      return state;
    },

    snapshot: (sessionId) => loadDeviceSnapshot(db, sessionId, "id"),

    invalidate,

    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
