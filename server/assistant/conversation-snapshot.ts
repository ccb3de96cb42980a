/**
 * Issue 18 §4 "Parler à un technicien": the copy of a customer's assistant
 * conversation that goes with the support session they ask for. Read from
 * the stored conversation (`assistant_messages`), never from the browser, so
 * the technician reads what was really said. Its contents are never logged.
 */
import { desc, eq } from "drizzle-orm";
import { SESSION_CONVERSATION_LIMIT, type SessionConversationMessage } from "#app/assistant/session-conversation.ts";
import type { AppDatabase } from "#database/connection.ts";
import { assistantMessages } from "#database/schema.ts";

/** A database or an open transaction on it. */
type Queryable = Pick<AppDatabase, "select">;

/**
 * The latest `SESSION_CONVERSATION_LIMIT` (20) messages of `userId`'s
 * assistant conversation, oldest first: role, content and time (ISO 8601).
 * Empty when the customer has not written to the assistant (or cleared it).
 * @throws the database's error.
 */
export async function conversationSnapshot(db: Queryable, userId: string): Promise<SessionConversationMessage[]> {
  const rows = await db
    .select({
      role: assistantMessages.role,
      content: assistantMessages.content,
      createdAt: assistantMessages.createdAt,
    })
    .from(assistantMessages)
    .where(eq(assistantMessages.userId, userId))
    .orderBy(desc(assistantMessages.createdAt))
    .limit(SESSION_CONVERSATION_LIMIT);
  return rows
    .reverse()
    .map((row) => ({ role: row.role, content: row.content, createdAt: row.createdAt.toISOString() }));
}
