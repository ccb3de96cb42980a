/**
 * Issue 36 §4, « Past UAC »: the desktop app relaunched as administrator rejoins its session
 * (`elevation-protocol.ts`), part of `createDeviceService` (`device-service.ts`).
 *
 * - `issueResumeTicket`: asked by the app on its authenticated `/device` socket. 32 random bytes (base64url),
 *   stored as their SHA-256 only, bound to the session and to the pairing that asked, valid
 *   `RESUME_TICKET_TTL_S`; one per session at a time (a new one voids the previous one). Never logged: the log
 *   lines carry the session id only, and the logger's `redact` masks `ticket` fields should one slip in.
 * - `resume`: the ticket is consumed by one `delete … returning` (a ticket sent twice at once resumes once); it
 *   must be unexpired, name the session of `sessionCode`, which must still be open, and the pairing that asked
 *   must still be the session's (a new pairing or an unpairing voids it). The new process gets a new device
 *   token and a new pairing id (a new Socket.IO room), what it says of the computer is stored, and consent and
 *   view start not allowed, as for any new pairing: the customer is asked again. The old pairing is released
 *   and `replaced` (its app is told `device:replaced` and exits without leaving, so a session it started goes
 *   on). Refusals are counted per client key with the pairing failures (the same guesses budget), before trying.
 * - `dropResumeTickets`: the request went nowhere (declined, UAC refused, failed): its ticket is void at once.
 * - Issue 38 §3, « Reboot and reconnect »: the same tickets with a lifetime per purpose (`ResumePurpose`):
 *   `elevation` `RESUME_TICKET_TTL_S` (2 min), `reboot` `REBOOT_TICKET_TTL_S` (15 min: a restart and a sign-in).
 *   The purpose is stored with the ticket (`purpose`, migration 0026), which `device-state.ts` and `presence.ts`
 *   read. A reboot ticket issued or dropped is announced, so the technician's view says « Redémarrage en
 *   cours… » (`DeviceView.rebootingUntil`).
 */
import { randomBytes, randomUUID } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { AppDatabase } from "#database/connection.ts";
import { sessionDevices, sessionEvents, sessions } from "#database/schema.ts";
import { deviceResumeTickets, RESUME_PURPOSES } from "#database/schema-elevation.ts";
import type { DeviceStatus } from "#app/remote-support/device-protocol.ts";
import { RESUME_TICKET_TTL_S } from "#app/remote-support/elevation-protocol.ts";
import { REBOOT_TICKET_TTL_S } from "#app/remote-support/reboot-protocol.ts";
import { consume, type createRateLimiter } from "#server/rate-limit.ts";
import { createRefusalLog } from "#server/refusal-log.ts";
import { hashSecret } from "./device-pairing.ts";
import { refuseDevice, type DeviceIdentity, type DeviceOutcome, type DeviceServiceEvent } from "./device-state.ts";
import { APP_ACTOR_ID } from "./session-rules.ts";

/** What `createDeviceService` hands to this part. */
export type ResumeContext = {
  db: AppDatabase;
  logger: Logger;
  announce(event: DeviceServiceEvent): void;
  guarded<T>(logMessage: string, body: () => Promise<DeviceOutcome<T>>): Promise<DeviceOutcome<T>>;
  /** The pairing failures' limiter (per IP address): a wrong ticket is a guess as a wrong code is. */
  failures: ReturnType<typeof createRateLimiter>;
  /** Ticket lifetime, s (default `RESUME_TICKET_TTL_S`; tests shorten it). */
  ticketTtlSeconds?: number;
  /** Issue 38 §3: a reboot ticket's lifetime, s (default `REBOOT_TICKET_TTL_S`). */
  rebootTicketTtlSeconds?: number;
};

/** Issue 38 §3: what a ticket is for, which sets its lifetime (see the module comment). */
export type ResumePurpose = (typeof RESUME_PURPOSES)[number];

/** What the relaunched app sends (`DeviceResumeBody` once parsed). */
export type ResumeInput = DeviceStatus & {
  ticket: string;
  sessionCode: string;
  computerName: string;
  platform: string;
  arch: string;
  appVersion: string;
};

/** The resume methods of `DeviceService`. */
export type ResumeMethods = {
  /**
   * A single-use ticket for the app `identity` (its pairing must still be the session's, the session open), valid
   * for `purpose`'s lifetime (default elevation). Refusals: not-paired. Rejects never: a database failure is "failed".
   */
  issueResumeTicket(
    identity: DeviceIdentity,
    purpose?: ResumePurpose,
  ): Promise<DeviceOutcome<{ ticket: string; expiresAt: Date }>>;
  /**
   * The relaunched app redeems `input.ticket` for session `input.sessionCode`. `clientKey` (the IP address)
   * counts failures. Refusals: resume-invalid (unknown, used, expired, another session's, session ended, app
   * replaced or unpaired since), too-many-pairings.
   */
  resume(
    input: ResumeInput,
    clientKey: string,
  ): Promise<DeviceOutcome<{ deviceToken: string; customerName: string; sessionCode: string }>>;
  /**
   * Voids the tickets of the app `identity`'s session (its request went nowhere); a reboot's is announced.
   * @throws on database failure.
   */
  dropResumeTickets(identity: DeviceIdentity, purpose?: ResumePurpose): Promise<void>;
};

/** The resume methods over `context.db` (see the module comment). */
export function createResume(context: ResumeContext): ResumeMethods {
  const { db, logger, announce, guarded, failures } = context;
  const ttlSeconds: Record<ResumePurpose, number> = {
    elevation: context.ticketTtlSeconds ?? RESUME_TICKET_TTL_S,
    reboot: context.rebootTicketTtlSeconds ?? REBOOT_TICKET_TTL_S,
  };
  // Anyone can post a wrong ticket again and again: one summary line a minute, never a line each.
  const refusals = createRefusalLog(logger, "reprises du logiciel refusées");
  return {
    issueResumeTicket(identity, purpose = "elevation") {
      return guarded("Erreur lors de la création d'un ticket de reprise", async () => {
        const ticket = randomBytes(32).toString("base64url");
        const createdAt = new Date();
        const expiresAt = new Date(createdAt.getTime() + ttlSeconds[purpose] * 1000);
        const issued = await db.transaction(async (tx) => {
          const [row] = await tx
            .select({ sessionId: sessionDevices.sessionId })
            .from(sessionDevices)
            .innerJoin(sessions, eq(sessions.id, sessionDevices.sessionId))
            .where(and(eq(sessionDevices.pairingId, identity.pairingId), isNull(sessions.endTime)))
            .for("update")
            .limit(1);
          if (!row) return false;
          // One at a time: a ticket asked earlier (a relaunch that went nowhere) is void.
          await tx.delete(deviceResumeTickets).where(eq(deviceResumeTickets.sessionId, row.sessionId));
          await tx.insert(deviceResumeTickets).values({
            ticketHash: hashSecret(ticket),
            sessionId: row.sessionId,
            pairingId: identity.pairingId,
            purpose,
            expiresAt,
            createdAt,
          });
          return true;
        });
        if (!issued) return refuseDevice("not-paired");
        logger.info({ sessionId: identity.sessionId, purpose }, "ticket de reprise émis");
        if (purpose === "reboot") announce({ type: "changed", sessionId: identity.sessionId });
        return { ok: true, ticket, expiresAt };
      });
    },

    resume(input, clientKey) {
      return guarded("Erreur lors de la reprise d'une session par le logiciel", async () => {
        const attempt = await consume(failures, clientKey);
        if (!attempt.allowed) {
          refusals("trop de tentatives");
          return refuseDevice("too-many-pairings", attempt.retryAfterSeconds);
        }
        const deviceToken = randomBytes(32).toString("base64url");
        const pairingId = randomUUID();
        const resumed = await db.transaction(async (tx) => {
          const [used] = await tx
            .delete(deviceResumeTickets)
            .where(
              and(
                eq(deviceResumeTickets.ticketHash, hashSecret(input.ticket)),
                sql`${deviceResumeTickets.expiresAt} > now()`,
              ),
            )
            .returning();
          if (!used) return null;
          const [session] = await tx
            .select()
            .from(sessions)
            .where(and(eq(sessions.id, used.sessionId), isNull(sessions.endTime)))
            .for("update")
            .limit(1);
          // The code the new process names must be the ticket's session: a ticket is no key to another one.
          if (!session || session.code !== input.sessionCode.toUpperCase()) return null;
          const [device] = await tx
            .select()
            .from(sessionDevices)
            .where(and(eq(sessionDevices.sessionId, session.id), eq(sessionDevices.pairingId, used.pairingId)))
            .for("update")
            .limit(1);
          if (!device) return null;
          await tx
            .update(sessionDevices)
            .set({
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
              // Another process: the customer allows control, and seeing the screen, again for this one.
              consent: false,
              viewConsent: false,
              connected: false,
              connectionId: null,
              lastSeenAt: null,
              pairedAt: new Date(),
            })
            .where(eq(sessionDevices.sessionId, session.id));
          const actorId = device.userId ?? APP_ACTOR_ID;
          const kinds = [
            ...(device.consent ? (["control-withdrawn"] as const) : []),
            ...(device.viewConsent ? (["view-withdrawn"] as const) : []),
          ];
          if (kinds.length > 0)
            await tx.insert(sessionEvents).values(kinds.map((kind) => ({ sessionId: session.id, actorId, kind })));
          return { session, replaced: used.pairingId };
        });
        if (!resumed) {
          refusals("ticket inconnu, utilisé, expiré ou d'une autre session");
          return refuseDevice("resume-invalid");
        }
        await failures.reward(clientKey, 1);
        logger.info(
          { sessionId: resumed.session.id },
          "logiciel relancé (administrateur ou redémarrage) : session reprise",
        );
        announce({ type: "release", pairingId: resumed.replaced });
        announce({ type: "replaced", pairingId: resumed.replaced });
        announce({ type: "changed", sessionId: resumed.session.id });
        return {
          ok: true,
          deviceToken,
          customerName: resumed.session.userName,
          sessionCode: resumed.session.code,
        };
      });
    },

    async dropResumeTickets(identity, purpose = "elevation") {
      await db
        .delete(deviceResumeTickets)
        .where(
          and(
            eq(deviceResumeTickets.sessionId, identity.sessionId),
            eq(deviceResumeTickets.pairingId, identity.pairingId),
          ),
        );
      if (purpose === "reboot") announce({ type: "changed", sessionId: identity.sessionId });
    },
  };
}
