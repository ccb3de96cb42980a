/**
 * The desktop app's own side of `DeviceService` (issues 15, 26, 28 §1): its
 * token, its connection, what it reports and the consent the customer gives
 * or withdraws in it, and leaving (issue 26: Ctrl+C or closing the app
 * unpairs at once, so the page offers a new pairing code; the app of a
 * session it started itself, which has no other customer side, ends that
 * session). Called by `device-socket.ts` with input already shaped by the
 * protocol's schemas. Every method rejects on a database failure.
 */
import { and, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { AppDatabase } from "#database/connection.ts";
import { devicePairingCodes, sessionDevices, sessionEvents, sessions } from "#database/schema.ts";
import { deviceResumeTickets } from "#database/schema-elevation.ts";
import type { DeviceStatus } from "#app/remote-support/device-protocol.ts";
import type { DeviceConsentBody } from "#app/remote-support/screen-protocol.ts";
import { hashSecret } from "./device-pairing.ts";
import type { DeviceIdentity, DeviceServiceEvent } from "./device-state.ts";
import { APP_ACTOR_ID } from "./session-rules.ts";

export type AppSideMethods = {
  /** The app behind `token`, or null (unknown, replaced, session ended). @throws on database failure. */
  authenticate(token: string): Promise<DeviceIdentity | null>;
  /** The app's connection `connectionId` is up / down / still there (`touch`, for several apps at once). */
  deviceConnected(identity: DeviceIdentity, connectionId: string): Promise<void>;
  deviceDisconnected(identity: DeviceIdentity, connectionId: string): Promise<void>;
  touch(pairingIds: string[]): Promise<void>;
  /**
   * The app's new injection state, screens, capture state, and (issue 36 §4) elevation and secure desktop
   * (`device:status`). Written and announced only when
   * it differs from what is stored (issue 28 §1). @returns whether it changed.
   */
  deviceStatus(identity: DeviceIdentity, status: DeviceStatus): Promise<boolean>;
  /**
   * The customer's consent given or withdrawn in the app (`device:consent`): `allowed` for control, `view` for
   * seeing the screen (issue 26). Written, recorded and announced only on a change (issue 28 §1).
   * @returns whether anything changed.
   */
  deviceConsent(identity: DeviceIdentity, body: DeviceConsentBody): Promise<boolean>;
  /**
   * Issue 26: the customer stopped the app (`device:leave`): the app is unpaired now (token void, consent
   * withdrawn, keys released), so the page shows "no app" and offers a new pairing code at once. The app of a
   * session it started itself (`origin` `app`) ends that session instead (`AppSideContext.endAppSession`), which
   * unpairs it too.
   */
  deviceLeft(identity: DeviceIdentity): Promise<void>;
};

export type AppSideContext = {
  db: AppDatabase;
  announce(event: DeviceServiceEvent): void;
  /** `device-service.ts`'s consent change: null when not paired, else whether anything changed. */
  changeConsent(
    sessionId: string,
    actorId: string | null,
    wanted: { control?: boolean; view?: boolean },
  ): Promise<boolean | null>;
  /**
   * Issue 26: ends app-started session `sessionId` whose app (pairing `pairingId`) left
   * (`SessionService.endFromApp`). @returns whether it ended it (false: a site session, or nothing to end).
   */
  endAppSession(sessionId: string, pairingId: string): Promise<boolean>;
};

/**
 * Unpairs the app of session `sessionId` (only the pairing `pairingId` when given): token void, consent and view
 * withdrawn, pairing code and resume ticket (issue 36 §4) void, `device-unpaired` recorded, in one transaction.
 * @returns the pairing id that was voided, or null when there was none.
 */
export async function unpairApp(db: AppDatabase, sessionId: string, pairingId: string | null): Promise<string | null> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ pairingId: sessionDevices.pairingId })
      .from(sessionDevices)
      .where(
        and(
          eq(sessionDevices.sessionId, sessionId),
          pairingId === null ? isNotNull(sessionDevices.pairingId) : eq(sessionDevices.pairingId, pairingId),
        ),
      )
      .for("update");
    if (!before?.pairingId) return null;
    await tx.delete(devicePairingCodes).where(eq(devicePairingCodes.sessionId, sessionId));
    await tx.delete(deviceResumeTickets).where(eq(deviceResumeTickets.sessionId, sessionId));
    await tx
      .update(sessionDevices)
      .set({
        pairingId: null,
        tokenHash: null,
        consent: false,
        viewConsent: false,
        connected: false,
        connectionId: null,
      })
      .where(eq(sessionDevices.sessionId, sessionId));
    await tx.insert(sessionEvents).values({ sessionId, actorId: null, kind: "device-unpaired" });
    return before.pairingId;
  });
}

/** The app-side methods over `context.db` (see the module comment). */
export function createAppSide({ db, announce, changeConsent, endAppSession }: AppSideContext): AppSideMethods {
  return {
    async authenticate(token) {
      const [row] = await db
        .select({ sessionId: sessionDevices.sessionId, pairingId: sessionDevices.pairingId, code: sessions.code })
        .from(sessionDevices)
        .innerJoin(sessions, eq(sessions.id, sessionDevices.sessionId))
        .where(and(eq(sessionDevices.tokenHash, hashSecret(token)), isNull(sessions.endTime)))
        .limit(1);
      return row?.pairingId ? { sessionId: row.sessionId, pairingId: row.pairingId, code: row.code } : null;
    },

    async deviceConnected(identity, connectionId) {
      await db
        .update(sessionDevices)
        .set({ connected: true, connectionId, lastSeenAt: sql`now()` })
        .where(eq(sessionDevices.pairingId, identity.pairingId));
      announce({ type: "changed", sessionId: identity.sessionId });
    },

    async deviceDisconnected(identity, connectionId) {
      // Only this connection's: the app may already be back on another one (or another server process).
      const [row] = await db
        .update(sessionDevices)
        .set({ connected: false, connectionId: null })
        .where(and(eq(sessionDevices.pairingId, identity.pairingId), eq(sessionDevices.connectionId, connectionId)))
        .returning({ sessionId: sessionDevices.sessionId });
      if (row) announce({ type: "changed", sessionId: identity.sessionId });
    },

    async touch(pairingIds) {
      if (pairingIds.length === 0) return;
      await db
        .update(sessionDevices)
        .set({ lastSeenAt: sql`now()` })
        .where(and(inArray(sessionDevices.pairingId, pairingIds), eq(sessionDevices.connected, true)));
    },

    async deviceStatus(identity, status) {
      const injection = status.injection;
      const capture = status.capture ?? null;
      // Issue 36 §4: absent from older apps (and `elevated` from other systems): unknown, not paused.
      const elevated = status.elevated ?? null;
      const secureDesktop = status.secureDesktop === true;
      // jsonb equality: an app repeating the same state writes nothing and pushes nothing (issue 28 §1).
      const changed = await db
        .update(sessionDevices)
        .set({ injection, screens: status.screens, capture, elevated, secureDesktop })
        .where(
          and(
            eq(sessionDevices.pairingId, identity.pairingId),
            sql`(${sessionDevices.injection} is distinct from ${JSON.stringify(injection)}::jsonb
              or ${sessionDevices.screens} is distinct from ${JSON.stringify(status.screens)}::jsonb
              or ${sessionDevices.capture} is distinct from ${capture === null ? null : JSON.stringify(capture)}::jsonb
              or ${sessionDevices.elevated} is distinct from ${elevated}::boolean
              or ${sessionDevices.secureDesktop} is distinct from ${secureDesktop}::boolean)`,
          ),
        )
        .returning({ sessionId: sessionDevices.sessionId });
      if (changed.length === 0) return false;
      if (!injection.ok) announce({ type: "release", pairingId: identity.pairingId });
      announce({ type: "changed", sessionId: identity.sessionId });
      return true;
    },

    async deviceConsent(identity, body) {
      const [row] = await db
        .select({ userId: sessionDevices.userId })
        .from(sessionDevices)
        .where(eq(sessionDevices.pairingId, identity.pairingId))
        .limit(1);
      if (!row) return false;
      // The app runs on the customer's computer: the consent is theirs (issue 26: with no account, the app's own actor).
      const actorId = row.userId ?? APP_ACTOR_ID;
      return (await changeConsent(identity.sessionId, actorId, { control: body.allowed, view: body.view })) === true;
    },

    async deviceLeft(identity) {
      // Issue 26: no other customer side to go on with; the end's announcement unpairs the app (`sessionChanged`).
      if (await endAppSession(identity.sessionId, identity.pairingId)) return;
      const voided = await unpairApp(db, identity.sessionId, identity.pairingId);
      if (!voided) return;
      announce({ type: "release", pairingId: voided });
      announce({ type: "changed", sessionId: identity.sessionId });
    },
  };
}
