/**
 * Pairing the desktop app with a session (issue 15, `device-protocol.ts`
 * steps 1 and 2), part of `createDeviceService` (`device-service.ts`):
 * - `issuePairingCode`: the session's customer, session open; the code is
 *   stored as its SHA-256 only, bound to the session and the account, valid
 *   `pairingCodeTtlSeconds`; a new one deletes the previous one.
 * - `pair`: the code is consumed by one `delete … returning` (a code sent
 *   twice at once pairs once), its account must still own the open session;
 *   the app gets a random token (stored hashed) and a new pairing id, and a
 *   previous app of the session is released and told `device:ended`.
 *   Failures count per client key (IP address) before trying, so parallel
 *   guesses count too; a success gives its point back.
 */
import { createHash, randomBytes, randomInt, randomUUID } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { AppDatabase } from "#database/connection.ts";
import { devicePairingCodes, sessionDevices, sessionEvents, sessions } from "#database/schema.ts";
import {
  DEVICE_MESSAGES,
  PAIRING_CODE_ALPHABET,
  PAIRING_CODE_LENGTH,
  type DeviceStatus,
} from "#app/remote-support/device-protocol.ts";
import { systemOfPlatform } from "#app/remote-support/customer-system.ts";
import type { Caller } from "#server/access.ts";
import { consume, type createRateLimiter } from "#server/rate-limit.ts";
import { createRefusalLog } from "#server/refusal-log.ts";
import type { SessionRow } from "./session-rules.ts";
import { refuseDevice, type DeviceOutcome, type DeviceServiceEvent } from "./device-state.ts";
import { storeComputerFacts } from "./computer-facts.ts";
import type { ComputerFacts } from "#app/remote-support/facts-protocol.ts";

/** SHA-256, hex: how codes and tokens are stored and looked up. */
export const hashSecret = (value: string) => createHash("sha256").update(value).digest("hex");

/**
 * A new pairing code (`device-protocol.ts`): crypto random symbols of the alphabet. Issue 40: one without a digit is
 * drawn again (every code with one stays equally likely), so that the app's first question can tell a code typed
 * in its first-name field from a name (« Jean-Marc » is eight symbols of the alphabet too).
 */
export function generatePairingCode(): string {
  for (;;) {
    let code = "";
    for (let i = 0; i < PAIRING_CODE_LENGTH; i++)
      code += PAIRING_CODE_ALPHABET[randomInt(PAIRING_CODE_ALPHABET.length)];
    if (/\d/.test(code)) return code;
  }
}

/** What `createDeviceService` hands to this part. */
export type PairingContext = {
  db: AppDatabase;
  logger: Logger;
  announce(event: DeviceServiceEvent): void;
  guarded<T>(logMessage: string, body: () => Promise<DeviceOutcome<T>>): Promise<DeviceOutcome<T>>;
  ownOpenSession(caller: Caller, code: string): Promise<DeviceOutcome<{ session: SessionRow }>>;
  /** Failed pairings per client key (shared with the resume tickets of issue 36 §4, `device-resume.ts`). */
  failures: ReturnType<typeof createRateLimiter>;
  pairingCodeTtlSeconds: number;
};

/** What the app sends when pairing (`DevicePairBody` once parsed). */
export type PairInput = DeviceStatus & {
  pairingCode: string;
  computerName: string;
  platform: string;
  arch: string;
  appVersion: string;
  /** Issue 38 §4: the computer's facts, only with the customer's consent; none removes the previous computer's. */
  facts?: ComputerFacts;
};

/** The pairing methods of `DeviceService`. */
export type PairingMethods = {
  /** Customer of `code`, session open: a new pairing code (the previous unused one is void). */
  issuePairingCode(caller: Caller, code: string): Promise<DeviceOutcome<{ pairingCode: string; expiresAt: Date }>>;
  /**
   * The app pairs with `input.pairingCode` (consumed whatever happens next).
   * `clientKey` (the IP address) counts failures. Refusals: pairing-invalid
   * (wrong, used, expired code, or its session ended), too-many-pairings.
   */
  pair(
    input: PairInput,
    clientKey: string,
  ): Promise<DeviceOutcome<{ deviceToken: string; customerName: string; sessionCode: string }>>;
};

/** The pairing methods of `DeviceService` (see the module comment). */
export function createPairing(context: PairingContext): PairingMethods {
  const { db, logger, announce, guarded, ownOpenSession, pairingCodeTtlSeconds } = context;
  const pairingLimiter = context.failures;
  // Issue 28 §13: anyone can repeat a refused pairing; one summary line a minute, never a line each.
  const refusals = createRefusalLog(logger, "appairages refusés");
  return {
    issuePairingCode(caller, code) {
      return guarded("Erreur lors de la création d'un code d'appairage", async () => {
        const owned = await ownOpenSession(caller, code);
        if (!owned.ok) return owned;
        const pairingCode = generatePairingCode();
        const expiresAt = new Date(Date.now() + pairingCodeTtlSeconds * 1000);
        await db.transaction(async (tx) => {
          // One code at a time per session: the previous one (read on the screen, perhaps by someone else) is void.
          await tx.delete(devicePairingCodes).where(eq(devicePairingCodes.sessionId, owned.session.id));
          await tx.insert(devicePairingCodes).values({
            codeHash: hashSecret(pairingCode),
            sessionId: owned.session.id,
            userId: caller.userId,
            expiresAt,
          });
        });
        logger.info({ sessionId: owned.session.id }, "code d'appairage émis");
        return { ok: true, pairingCode, expiresAt };
      });
    },

    pair(input, clientKey) {
      return guarded("Erreur lors de l'appairage d'un logiciel", async () => {
        // Counted before trying, so guesses sent in parallel count too; a pairing that works gives it back.
        const attempt = await consume(pairingLimiter, clientKey);
        if (!attempt.allowed) {
          refusals("trop de tentatives");
          return refuseDevice("too-many-pairings", attempt.retryAfterSeconds);
        }
        const deviceToken = randomBytes(32).toString("base64url");
        const pairingId = randomUUID();
        const paired = await db.transaction(async (tx) => {
          const [used] = await tx
            .delete(devicePairingCodes)
            .where(
              and(
                eq(devicePairingCodes.codeHash, hashSecret(input.pairingCode)),
                sql`${devicePairingCodes.expiresAt} > now()`,
              ),
            )
            .returning();
          if (!used) return null;
          // The account the code was issued to must still own the open session.
          const [session] = await tx
            .select()
            .from(sessions)
            .where(and(eq(sessions.id, used.sessionId), eq(sessions.userId, used.userId), isNull(sessions.endTime)))
            .for("update")
            .limit(1);
          if (!session) return null;
          const [previous] = await tx
            .select({ pairingId: sessionDevices.pairingId })
            .from(sessionDevices)
            .where(eq(sessionDevices.sessionId, session.id))
            .limit(1);
          const fields = {
            userId: session.userId,
            pairingId,
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
            // A new computer: the customer allows control, and seeing the screen, again for this one.
            consent: false,
            viewConsent: false,
            shownScreen: null,
            connected: false,
            connectionId: null,
            lastSeenAt: null,
            pairedAt: new Date(),
          };
          await tx
            .insert(sessionDevices)
            .values({ sessionId: session.id, ...fields })
            .onConflictDoUpdate({ target: sessionDevices.sessionId, set: fields });
          // Issue 27: the computer the app runs on is the system the technicians' queue shows.
          const system = systemOfPlatform(input.platform);
          if (system) await tx.update(sessions).set({ customerSystem: system }).where(eq(sessions.id, session.id));
          await storeComputerFacts(tx, session.id, input.facts);
          if (previous?.pairingId)
            await tx.insert(sessionEvents).values({ sessionId: session.id, actorId: null, kind: "device-unpaired" });
          await tx.insert(sessionEvents).values({ sessionId: session.id, actorId: used.userId, kind: "device-paired" });
          return { session, replaced: previous?.pairingId ?? null };
        });
        if (!paired) {
          refusals("code inconnu, utilisé ou expiré");
          return refuseDevice("pairing-invalid");
        }
        await pairingLimiter.reward(clientKey, 1);
        logger.info({ sessionId: paired.session.id, replaced: paired.replaced !== null }, "logiciel appairé");
        if (paired.replaced) {
          announce({ type: "release", pairingId: paired.replaced });
          announce({ type: "ended", pairingId: paired.replaced, message: DEVICE_MESSAGES.replaced });
        }
        announce({ type: "changed", sessionId: paired.session.id });
        return { ok: true, deviceToken, customerName: paired.session.userName, sessionCode: paired.session.code };
      });
    },
  };
}
