/**
 * Relaying signaling messages (spec §7 "Insert into signaling", §8
 * messages; issue 13 §3): only between the two participants of a connected
 * session, each kind from its side (`SIGNAL_SENDER`), within the session's
 * budget (messages per sender and window, bytes stored per session). Part
 * of `createSessionService` (`sessions.ts`, issue 14).
 */
import { sql } from "drizzle-orm";
import { sessions, signaling } from "#database/schema.ts";
import { SIGNAL_SENDER, type SignalData } from "#app/remote-support/protocol.ts";
import type { Caller } from "#server/access.ts";
import { refuse, roleIn, type Outcome, type SessionContext } from "./session-rules.ts";

/** The signaling method of `SessionService` (documented there, in `sessions.ts`). */
export type SessionSignaling = {
  relaySignal(caller: Caller | null, code: string, data: SignalData): Promise<Outcome<{ recipientId: string }>>;
};

export function createSignaling(context: SessionContext): SessionSignaling {
  const { db, logger, guarded, findByCode, signalBudget } = context;
  return {
    relaySignal(caller, code, data) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      return guarded("Erreur lors de l'envoi d'un message de signalisation", async () => {
        const sender = SIGNAL_SENDER[data.type];
        const json = JSON.stringify(data);
        const { messagesPerWindow, windowSeconds, maxStoredBytes } = signalBudget;
        // Happy path in one round trip: the session check, the sender's side, the session's budget (counted in
        // the table itself, so every server process sees the same) and the insert, in one statement.
        const result = (await db.execute(sql`
          with target as (
            select code, user_id, technician_id from ${sessions}
            where code = ${code} and status = 'connected' and technician_id is not null
              -- Issue 26: an app-started session has no customer browser to signal to (its picture comes from the app).
              and user_id is not null
              and (
                (${sender} <> 'technician' and user_id = ${caller.userId})
                or (${sender} <> 'customer' and technician_id = ${caller.userId})
              )
          ), spent as (
            select
              count(*) filter (
                where sender_id = ${caller.userId} and created_at > now() - (${windowSeconds}::integer * interval '1 second')
              )::integer as recent,
              coalesce(sum(octet_length(data)), 0)::bigint as bytes
            from ${signaling} where session_code = (select code from target)
          ), stored as (
            insert into ${signaling} (session_code, sender_id, data)
            select code, ${caller.userId}, ${json} from target, spent
            where spent.recent < ${messagesPerWindow}::integer
              and spent.bytes + ${Buffer.byteLength(json)}::integer <= ${maxStoredBytes}::bigint
            returning id
          )
          select user_id, technician_id, spent.recent, (select count(*) from stored)::integer as stored
          from target, spent`)) as unknown as {
          rows: { user_id: string; technician_id: string; recent: number; stored: number }[];
        };
        const target = result.rows[0];
        if (target && Number(target.stored) > 0) {
          return { ok: true, recipientId: target.user_id === caller.userId ? target.technician_id : target.user_id };
        }
        if (target) {
          const reason = Number(target.recent) >= messagesPerWindow ? "signal-rate" : "signal-quota";
          logger.warn({ userId: caller.userId, reason }, "signalisation refusée : budget de la session atteint");
          return refuse(reason);
        }
        const existing = await findByCode(code);
        if (!existing) return refuse("not-found");
        const role = roleIn(existing, caller);
        if (!role) return refuse("not-participant");
        if (existing.status === "connected") return refuse("wrong-sender");
        return refuse("not-connected");
      });
    },
  };
}
