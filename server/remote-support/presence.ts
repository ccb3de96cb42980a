/**
 * Abandoned sessions (issue 13 §4 "A graceful restart strands every open
 * tab"): a connected session whose customer and technician have BOTH been
 * without any Socket.IO connection for `abandonAfterMs` is ended by the
 * server (`SessionService.endByServer`: an `ended` event with no actor, the
 * report says "Session terminée par le serveur", both participants are told).
 *
 * - Presence is "the account has at least one socket", in any server process:
 *   the customer's tab shows its session and the technician's dashboard
 *   resumes its active one, so any open tab of the account can carry it on.
 * - A sweep every `sweepIntervalMs` (default `sweepIntervalFor`) reads the
 *   connected sessions from the database and who is present; a session is
 *   ended once it has been seen without anyone for `abandonAfterMs`, so it
 *   ends between `abandonAfterMs` and `abandonAfterMs + sweepIntervalMs`
 *   after the last participant left.
 * - "Gone since" is this process's observation: a new process (after a
 *   deploy or a kill -9) first sees every session left `connected` at its
 *   first sweep, so their participants get the whole grace to reconnect to
 *   it. With several processes (PostgreSQL) each sweeps; `endByServer` is
 *   idempotent, so a session ends once.
 * - Nothing is ended when presence cannot be read (database down, a server
 *   process not answering `fetchSockets`): the sweep is logged and retried.
 * - Issue 26: a session the desktop app started has no customer account;
 *   its customer side is present while its app is connected (`connected`
 *   and confirmed within `DEVICE_FRESH_S`, as the views count it).
 * - Issue 38 §3: while a reboot's resume ticket is pending (15 min), the computer is restarting and its app
 *   will be back: its customer side counts as present (app or site session), so the session waits for it; once
 *   the ticket is used or expired, the usual rule applies.
 *
 * Logs carry session ids only (never codes, names or e-mails).
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { AppDatabase } from "#database/connection.ts";
import { sessionDevices, sessions } from "#database/schema.ts";
import { deviceResumeTickets } from "#database/schema-elevation.ts";
import { DEVICE_FRESH_S } from "./device-state.ts";

/** Default of `SESSION_ABANDON_S`: long enough for a deploy or a browser's reconnection, short enough not to bill a forgotten session. */
export const DEFAULT_SESSION_ABANDON_S = 120;

/**
 * A connected session, as the sweep needs it. `technicianId` is null when the technician's account was deleted;
 * `userId` null for an app-started session (issue 26), whose customer side is `appPresent` (its app connected).
 */
export type OpenSession = {
  id: string;
  code: string;
  userId: string | null;
  technicianId: string | null;
  appPresent?: boolean;
};

export type PresenceOptions = {
  /** Both participants gone this long (ms) → the session is ended. */
  abandonAfterMs: number;
  /** Time between sweeps, ms (default `sweepIntervalFor(abandonAfterMs)`). */
  sweepIntervalMs?: number;
  /** The sessions to watch: connected and not ended (see `connectedSessions`). */
  openSessions: () => Promise<OpenSession[]>;
  /** Which of `userIds` have at least one socket, in any server process. Rejects when that cannot be known. */
  presentUsers: (userIds: readonly string[]) => Promise<ReadonlySet<string>>;
  /** Ends one session on the server's behalf; resolves true when this call ended it. */
  endByServer: (code: string) => Promise<boolean>;
  logger: Logger;
  /** Clock, ms (tests pass a fake one). */
  now?: () => number;
  /** Start the periodic sweep (default true; tests call `sweep()` themselves). */
  autoStart?: boolean;
};

export type Presence = {
  /** One sweep now (awaits a sweep already running instead of starting a second); resolves with the ids of the sessions it ended. */
  sweep(): Promise<string[]>;
  /** Stops sweeping (a sweep in progress finishes); idempotent. */
  stop(): void;
};

/** A quarter of the grace, between 250 ms and 15 s: ends land within 25 % of the grace, at most one query every 15 s. */
export function sweepIntervalFor(abandonAfterMs: number): number {
  return Math.min(15_000, Math.max(250, Math.round(abandonAfterMs / 4)));
}

/**
 * `openSessions` over the database: every session connected and not ended, joined by a technician; for an
 * app-started one (issue 26), whether its app is connected now.
 */
export function connectedSessions(db: AppDatabase): () => Promise<OpenSession[]> {
  return () =>
    db
      .select({
        id: sessions.id,
        code: sessions.code,
        userId: sessions.userId,
        technicianId: sessions.technicianId,
        appPresent: sql<boolean>`coalesce(${sessions.origin} = 'app' and ${sessionDevices.pairingId} is not null
          and ${sessionDevices.connected}
          and ${sessionDevices.lastSeenAt} > now() - (${DEVICE_FRESH_S}::integer * interval '1 second'), false)
          or exists (select 1 from ${deviceResumeTickets} r where r.session_id = ${sessions.id}
            and r.expires_at > now() and r.purpose = 'reboot')`,
      })
      .from(sessions)
      .leftJoin(sessionDevices, eq(sessionDevices.sessionId, sessions.id))
      .where(and(eq(sessions.status, "connected"), isNull(sessions.endTime)));
}

/** Starts watching (see the module's comment). */
export function startPresence(options: PresenceOptions): Presence {
  const { abandonAfterMs, logger } = options;
  const now = options.now ?? Date.now;
  /** Session id → when this process first saw it with nobody, ms. */
  const goneSince = new Map<string, number>();
  let running: Promise<string[]> | undefined;
  let stopped = false;

  async function sweepOnce(): Promise<string[]> {
    const open = await options.openSessions();
    const userIds = [
      ...new Set(open.flatMap((session) => [session.userId, session.technicianId].filter((id) => id !== null))),
    ];
    const present = userIds.length > 0 ? await options.presentUsers(userIds) : new Set<string>();
    const at = now();
    const openIds = new Set(open.map((session) => session.id));
    for (const id of goneSince.keys()) if (!openIds.has(id)) goneSince.delete(id);
    const ended: string[] = [];
    for (const session of open) {
      const customerPresent = session.appPresent === true || (session.userId !== null && present.has(session.userId));
      if (customerPresent || (session.technicianId !== null && present.has(session.technicianId))) {
        goneSince.delete(session.id);
        continue;
      }
      const since = goneSince.get(session.id);
      if (since === undefined) {
        goneSince.set(session.id, at);
        continue;
      }
      if (at - since < abandonAfterMs || stopped) continue;
      goneSince.delete(session.id);
      if (await options.endByServer(session.code)) {
        ended.push(session.id);
        logger.info(
          { sessionId: session.id, absentMs: at - since },
          "session abandonnée par ses deux participants : terminée",
        );
      }
    }
    return ended;
  }

  function sweep(): Promise<string[]> {
    running ??= sweepOnce()
      .catch((error: unknown) => {
        logger.warn({ err: error }, "présence des participants non vérifiée : nouvel essai au prochain passage");
        return [];
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  const timer =
    options.autoStart === false
      ? undefined
      : setInterval(() => void sweep(), options.sweepIntervalMs ?? sweepIntervalFor(abandonAfterMs));
  timer?.unref();
  if (timer) void sweep();

  return {
    sweep,
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
