/**
 * Sessions the desktop app starts by itself (issue 26, `POST /api/device/sessions`,
 * `DeviceSessionBody` in `device-protocol.ts`), part of `createSessionService`
 * (`sessions.ts`):
 *
 * - `createFromApp`: no account, no cookie. Counted per client key (the IP
 *   address) BEFORE anything is created, so requests sent in parallel count
 *   too (`appSessionLimit`; a creation keeps its point). One transaction
 *   creates the session (`origin` `app`, `user_id` and `user_email` null,
 *   `user_name` the given name or `APP_SESSION_DEFAULT_NAME`, a random code)
 *   already paired: its `session_devices` row (token stored as its SHA-256,
 *   a new pairing id, what the app said of the computer) and a
 *   `device-paired` event by `APP_ACTOR_ID`. Technicians then join it by
 *   its code as any other; nobody joins it → it expires with the other codes
 *   (`codeTtlSeconds`, `expireCodes`).
 * - `endFromApp`: the app of such a session left (`device:leave`): there is
 *   no other customer side, so the session ends (`endInTransaction`, an
 *   `ended` event by `APP_ACTOR_ID`, "terminée par le client") and is
 *   announced like any end, which voids the token (`DeviceService.sessionChanged`).
 *
 * Logs carry session ids and pseudonymized addresses only: never the name,
 * the code or the token.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { sessionDevices, sessionEvents, sessions } from "#database/schema.ts";
import { systemOfPlatform } from "#app/remote-support/customer-system.ts";
import type { DeviceStatus } from "#app/remote-support/device-protocol.ts";
import type { ComputerFacts } from "#app/remote-support/facts-protocol.ts";
import type { SessionView } from "#app/remote-support/protocol.ts";
import { pseudonymizeIp } from "#server/logger.ts";
import { consume, createRateLimiter } from "#server/rate-limit.ts";
import { hashSecret } from "./device-pairing.ts";
import { storeComputerFacts } from "./computer-facts.ts";
import {
  APP_ACTOR_ID,
  APP_SESSION_DEFAULT_NAME,
  CODE_ATTEMPTS,
  endInTransaction,
  refuse,
  sessionView,
  toSessionView,
  type Outcome,
  type SessionContext,
  type SessionRow,
} from "./session-rules.ts";

/** What the app sends (`DeviceSessionBody` once parsed: `customerName` trimmed, absent when none was given). */
export type AppSessionInput = DeviceStatus & {
  customerName?: string;
  computerName: string;
  platform: string;
  arch: string;
  appVersion: string;
  /** Issue 38 §4: what the app said of the computer, only with the customer's consent (`facts-protocol.ts`). */
  facts?: ComputerFacts;
};

/** A new app-started session: the app's token (in clear, this once), its names, and when its code expires. */
export type AppSessionCreated = {
  deviceToken: string;
  customerName: string;
  sessionCode: string;
  expiresAt: Date;
  session: SessionView;
};

/** The app-started session methods of `SessionService` (documented there, in `sessions.ts`). */
export type AppSessionMethods = {
  createFromApp(input: AppSessionInput, clientKey: string): Promise<Outcome<AppSessionCreated>>;
  endFromApp(sessionId: string, pairingId: string): Promise<Outcome<{ session: SessionView | null }>>;
};

/** The methods above over `context` (see the module comment). */
export function createAppSessions(context: SessionContext): AppSessionMethods {
  const { db, logger, announce, guarded, generateCode, codeTtlSeconds } = context;
  const limiter = createRateLimiter(context.rateLimits, { name: "session-app-create", ...context.appSessionLimit });

  return {
    createFromApp(input, clientKey) {
      return guarded("Erreur lors de la création d'une session depuis le logiciel", async () => {
        const budget = await consume(limiter, clientKey);
        if (!budget.allowed) {
          logger.warn(
            { ipHash: pseudonymizeIp(clientKey) },
            "session depuis le logiciel refusée : trop de sessions depuis cette adresse",
          );
          return refuse("too-many-sessions", { retryAfterSeconds: budget.retryAfterSeconds });
        }
        const deviceToken = randomBytes(32).toString("base64url");
        const row = await db.transaction(async (tx) => {
          let created: SessionRow | undefined;
          for (let attempt = 0; attempt < CODE_ATTEMPTS && !created; attempt++) {
            [created] = await tx
              .insert(sessions)
              .values({
                code: generateCode(),
                userId: null,
                userName: input.customerName ?? APP_SESSION_DEFAULT_NAME,
                userEmail: null,
                origin: "app",
                // Issue 27: the system the technicians' queue shows.
                customerSystem: systemOfPlatform(input.platform),
              })
              .onConflictDoNothing({ target: sessions.code })
              .returning();
          }
          if (!created) throw new Error("aucun code de session libre trouvé");
          // Already paired: the app that asked is the session's only customer side, its token the only key.
          await tx.insert(sessionDevices).values({
            sessionId: created.id,
            userId: null,
            pairingId: randomUUID(),
            tokenHash: hashSecret(deviceToken),
            computerName: input.computerName,
            platform: input.platform,
            arch: input.arch,
            appVersion: input.appVersion,
            injection: input.injection,
            screens: input.screens,
            capture: input.capture ?? null,
            elevated: input.elevated ?? null,
            secureDesktop: input.secureDesktop === true,
            pairedAt: new Date(),
          });
          await tx
            .insert(sessionEvents)
            .values({ sessionId: created.id, actorId: APP_ACTOR_ID, kind: "device-paired" });
          await storeComputerFacts(tx, created.id, input.facts);
          return created;
        });
        const session = toSessionView(row, null); // New: nobody joined yet.
        logger.info({ sessionId: row.id }, "session démarrée depuis le logiciel");
        announce({ type: "session", session });
        return {
          ok: true,
          deviceToken,
          customerName: row.userName,
          sessionCode: row.code,
          // The database's creation time: the same instant the join's expiry check counts from.
          expiresAt: new Date(row.createdAt.getTime() + codeTtlSeconds * 1000),
          session,
        };
      });
    },

    endFromApp(sessionId, pairingId) {
      return guarded<{ session: SessionView | null }>("Erreur lors de la fin d'une session du logiciel", async () => {
        // Only an app-started session, and only from its current pairing (a stale connection changes nothing).
        const row = await db.transaction((tx) =>
          endInTransaction(
            tx,
            and(
              eq(sessions.id, sessionId),
              eq(sessions.origin, "app"),
              inArray(
                sessions.id,
                tx
                  .select({ id: sessionDevices.sessionId })
                  .from(sessionDevices)
                  .where(eq(sessionDevices.pairingId, pairingId)),
              ),
            )!,
            APP_ACTOR_ID,
          ),
        );
        if (!row) return { ok: true as const, session: null };
        const session = await sessionView(db, row);
        logger.info({ sessionId: row.id, durationSeconds: row.durationSeconds }, "session terminée : logiciel quitté");
        announce({ type: "session", session });
        return { ok: true, session };
      });
    },
  };
}
