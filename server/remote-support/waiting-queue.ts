/**
 * Issue 27, « La file d'attente » (`app/remote-support/queue.ts`): which
 * sessions wait for a technician, in what order, and each customer's place.
 * Part of `createSessionService` (`sessions.ts`); « Prendre en charge » is
 * `claim` in `lifecycle.ts` (the join's own statement), the pushes are
 * `queue-realtime.ts`'s.
 *
 * - Waiting: open (no end time), not joined (no technician, `disconnected`),
 *   code not expired (`codeTtlSeconds`), and the customer present: the app of
 *   the session connected (`session_devices`, confirmed within
 *   `DEVICE_FRESH_S`), or for a site session a socket of its account in any
 *   server process (`QueuePresence`, given by `queue-realtime.ts`). Oldest
 *   first, at most `QUEUE_LIMIT`.
 * - Estimated wait: `estimateMinutes` with the median length of the latest
 *   `HANDLING_SAMPLE` sessions that ended within 30 days (re-read every
 *   `HANDLING_CACHE_MS`), and the technicians whose dashboard is open.
 * - Reads only: every method resolves, a database failure is logged and
 *   answered "failed". Logs carry no code, name or conversation.
 */
import { sql } from "drizzle-orm";
import {
  DEFAULT_HANDLING_MINUTES,
  estimateMinutes,
  MIN_HANDLING_SAMPLES,
  type QueueEntry,
  type QueuePlace,
  type QueueSnapshot,
} from "#app/remote-support/queue.ts";
import { sessionDevices, sessions } from "#database/schema.ts";
import { sessionComputerFacts } from "#database/schema-facts.ts";
import { computerSummary, readComputerFacts } from "#app/remote-support/facts-protocol.ts";
import { can, type Caller } from "#server/access.ts";
import { DEVICE_FRESH_S } from "./device-state.ts";
import { refuse, roleIn, type Outcome, type SessionContext } from "./session-rules.ts";

/** Longest queue read: far more customers than a shop's technicians can see at once. */
export const QUEUE_LIMIT = 200;
/** Sessions whose median length is the typical handling time. */
export const HANDLING_SAMPLE = 50;
/** How long this process keeps the typical handling time, ms. */
export const HANDLING_CACHE_MS = 5 * 60_000;

/**
 * Who is there, in every server process: which of `userIds` have a socket, and how many distinct technicians
 * have one (their dashboard open). Rejects when it cannot be known.
 */
export type QueuePresence = (
  userIds: readonly string[],
) => Promise<{ present: ReadonlySet<string>; technicians: number }>;

/** A waiting customer with what the pushes need: the account's tabs (`userId`) or the app's pairing to tell. */
export type WaitingCustomer = { code: string; userId: string | null; pairingId: string | null; place: QueuePlace };

/** The queue as technicians see it, and each waiting customer's place. */
export type QueueState = { snapshot: QueueSnapshot; waiting: WaitingCustomer[] };

/** The queue's methods of `SessionService`. */
export type WaitingQueueMethods = {
  /** `GET /api/sessions/queue`, technicians (`session:join`): the queue now. */
  waitingQueue(caller: Caller | null): Promise<Outcome<QueueSnapshot>>;
  /**
   * `GET /api/sessions/:code/place`, the session's customer only ("not-participant" otherwise, answered as
   * "not-found"): their place, or null when the session does not wait (joined, ended, customer absent).
   */
  queuePlace(caller: Caller | null, code: string): Promise<Outcome<{ place: QueuePlace | null }>>;
  /** The queue and every place, for the pushes (`queue-realtime.ts`). @throws on a database or presence failure. */
  queueState(): Promise<QueueState>;
  /** Where site customers' presence is read (`queue-realtime.ts`); until then every account counts as present. */
  setQueuePresence(presence: QueuePresence): void;
};

type CandidateRow = {
  at: unknown;
  id: string | null;
  code: string;
  user_id: string | null;
  user_name: string;
  origin: "site" | "app";
  customer_system: string | null;
  created_at: unknown;
  conversation_messages: number | string;
  pairing_id: string | null;
  app_present: boolean;
  /** Issue 38 §4: the computer's facts (`session_computer_facts`), null when none were sent. */
  facts: unknown;
};

const everyonePresent: QueuePresence = async (userIds) => ({ present: new Set(userIds), technicians: 1 });

export function createWaitingQueue(context: SessionContext): WaitingQueueMethods {
  const { db, guarded, findByCode, codeTtlSeconds } = context;
  let presence = everyonePresent;
  let handling: { minutes: number; readAt: number } | undefined;

  /** The median length of recent sessions, minutes (`DEFAULT_HANDLING_MINUTES` without enough of them). */
  async function handlingMinutes(): Promise<number> {
    if (handling && Date.now() - handling.readAt < HANDLING_CACHE_MS) return handling.minutes;
    const result = (await db.execute(sql`
      select percentile_cont(0.5) within group (order by recent.duration_seconds) as median, count(*) as samples
      from (select ${sessions.durationSeconds} as duration_seconds from ${sessions}
        where ${sessions.durationSeconds} > 0 and ${sessions.endTime} > now() - interval '30 days'
        order by ${sessions.endTime} desc limit ${HANDLING_SAMPLE}) recent`)) as unknown as {
      rows: { median: number | string | null; samples: number | string }[];
    };
    const row = result.rows[0];
    const enough = row && Number(row.samples) >= MIN_HANDLING_SAMPLES && row.median !== null;
    handling = { minutes: enough ? Number(row.median) / 60 : DEFAULT_HANDLING_MINUTES, readAt: Date.now() };
    return handling.minutes;
  }

  /** Open, unjoined, unexpired sessions, oldest first, with the database's `now()` (the snapshot's instant). */
  async function candidates(): Promise<{ at: string; rows: CandidateRow[] }> {
    const result = (await db.execute(sql`
      select now() as at, w.* from (select 1) as one left join lateral (
        select s.id, s.code, s.user_id, s.user_name, s.origin, s.customer_system, s.created_at,
          coalesce(jsonb_array_length(s.assistant_conversation), 0) as conversation_messages, d.pairing_id,
          coalesce(d.pairing_id is not null and d.connected
            and d.last_seen_at > now() - (${DEVICE_FRESH_S}::integer * interval '1 second'), false) as app_present,
          f.facts
        from ${sessions} s left join ${sessionDevices} d on d.session_id = s.id
          left join ${sessionComputerFacts} f on f.session_id = s.id
        where s.end_time is null and s.technician_id is null and s.status = 'disconnected'
          and s.created_at > now() - (${codeTtlSeconds}::integer * interval '1 second')
        order by s.created_at limit ${QUEUE_LIMIT}) w on true
      order by w.created_at`)) as unknown as { rows: CandidateRow[] };
    const first = result.rows[0];
    const at = new Date(first?.at as string | Date).toISOString();
    return { at, rows: result.rows.filter((row) => row.id !== null) };
  }

  async function queueState(): Promise<QueueState> {
    const [{ at, rows }, minutes] = await Promise.all([candidates(), handlingMinutes()]);
    const accounts = [...new Set(rows.flatMap((row) => (row.user_id && !row.app_present ? [row.user_id] : [])))];
    const { present, technicians } = await presence(accounts);
    const waitingRows = rows.filter((row) => row.app_present || (row.user_id !== null && present.has(row.user_id)));
    const entries: QueueEntry[] = waitingRows.map((row) => {
      const facts = readComputerFacts(row.facts);
      const computer = facts && computerSummary(facts);
      return {
        code: row.code,
        userName: row.user_name,
        origin: row.origin,
        system: row.customer_system,
        ...(computer ? { computer } : {}),
        waitingSince: new Date(row.created_at as string | Date).toISOString(),
        conversationMessages: Number(row.conversation_messages),
      };
    });
    const waiting = waitingRows.map((row, index) => ({
      code: row.code,
      userId: row.user_id,
      pairingId: row.app_present ? row.pairing_id : null,
      place: {
        place: index + 1,
        total: waitingRows.length,
        estimatedMinutes: estimateMinutes(index + 1, minutes, technicians),
      },
    }));
    return { snapshot: { entries, at }, waiting };
  }

  return {
    waitingQueue(caller) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      if (!can(caller, "session:join")) return Promise.resolve(refuse("not-permitted"));
      return guarded("Erreur lors de la lecture de la file d'attente", async () => {
        const { snapshot } = await queueState();
        return { ok: true, ...snapshot };
      });
    },

    queuePlace(caller, code) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      return guarded("Erreur lors de la lecture de la place dans la file d'attente", async () => {
        const session = await findByCode(code);
        if (!session) return refuse("not-found");
        if (roleIn(session, caller) !== "customer") return refuse("not-participant");
        const { waiting } = await queueState();
        return { ok: true, place: waiting.find((customer) => customer.code === code)?.place ?? null };
      });
    },

    queueState,

    setQueuePresence(source) {
      presence = source;
    },
  };
}
