/**
 * Issue 18 §4 "Parler à un technicien": a session started from the
 * assistant, with the customer's conversation attached, and who reads it.
 * Part of `createSessionService` (`sessions.ts`).
 *
 * - `createFromAssistant` is `create` (same permission, per-account limit,
 *   one open session per customer: the open one is given back), then the
 *   snapshot of the caller's stored assistant conversation (the latest 20
 *   messages, `server/assistant/conversation-snapshot.ts`) written on that
 *   session's row while it is open. Asking again replaces the copy with the
 *   newer conversation.
 * - `conversation` answers the copy to the session's customer and to the
 *   technician who joined it (`roleIn`), and (issue 27) to any technician
 *   while the session waits in the queue; nobody else ("not-participant").
 * The copy is a column of `sessions`, so the retention purge of sessions
 * deletes it with them. Its contents are never logged.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { SessionConversationMessage } from "#app/assistant/session-conversation.ts";
import type { SessionView } from "#app/remote-support/protocol.ts";
import { sessions } from "#database/schema.ts";
import { can, type Caller } from "#server/access.ts";
import { conversationSnapshot } from "#server/assistant/conversation-snapshot.ts";
import type { SessionLifecycle } from "./lifecycle.ts";
import { refuse, roleIn, type Outcome, type SessionContext } from "./session-rules.ts";

/** The methods of `SessionService` for sessions asked from the assistant (issue 18 §4). */
export type SessionConversation = {
  /**
   * "Parler à un technicien": `create` with all its rules (same refusals), for an account with
   * `assistant:use`, then the latest 20 messages of the caller's assistant conversation attached to the
   * returned open session (`attached`: how many).
   */
  createFromAssistant(
    caller: Caller | null,
    input?: { system?: string | null },
  ): Promise<Outcome<{ session: SessionView; created: boolean; attached: number }>>;
  /**
   * The conversation attached to session `code` (null when none was), for its customer and its joined
   * technician, and (issue 27) any technician while the session waits for one (open, nobody joined): the queue
   * shows it. "not-participant" for anyone else; "not-found".
   */
  conversation(
    caller: Caller | null,
    code: string,
  ): Promise<Outcome<{ conversation: SessionConversationMessage[] | null }>>;
};

export function createSessionConversation(
  context: SessionContext,
  create: SessionLifecycle["create"],
): SessionConversation {
  const { db, logger, guarded, findByCode, announce } = context;
  return {
    async createFromAssistant(caller, input = {}) {
      if (!caller) return refuse("not-signed-in");
      if (!can(caller, "assistant:use")) return refuse("not-permitted");
      // Every rule of a new session applies unchanged: permission, limit, the open session given back.
      const started = await create(caller, { system: input.system });
      if (!started.ok) return started;
      return guarded("Erreur lors de l'ajout de la conversation à la session", async () => {
        const snapshot = await conversationSnapshot(db, caller.userId);
        const [row] = await db
          .update(sessions)
          .set({ assistantConversation: snapshot })
          .where(and(eq(sessions.id, started.session.id), eq(sessions.userId, caller.userId), isNull(sessions.endTime)))
          .returning({ id: sessions.id });
        const attached = row ? snapshot.length : 0;
        // The count only: the conversation itself stays out of the logs.
        logger.info({ sessionId: started.session.id, messages: attached }, "conversation de l'assistant jointe");
        // Issue 27: the queue shows the conversation; its push must follow the copy, not the creation before it.
        if (attached > 0) announce({ type: "session", session: started.session });
        return { ok: true, session: started.session, created: started.created, attached };
      });
    },

    conversation(caller, code) {
      if (!caller) return Promise.resolve(refuse("not-signed-in"));
      return guarded("Erreur lors de la récupération de la session", async () => {
        const session = await findByCode(code);
        if (!session) return refuse("not-found");
        // Issue 27: a waiting session's conversation is shown in every technician's queue.
        const waiting = session.technicianId === null && session.endTime === null && can(caller, "session:join");
        if (!roleIn(session, caller) && !waiting) return refuse("not-participant");
        return { ok: true, conversation: session.assistantConversation ?? null };
      });
    },
  };
}
