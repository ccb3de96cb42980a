/**
 * The technician dashboard's sessions (spec §4 "Dashboard load": its active
 * session and its history follow every change), kept from the server's
 * pushes (issue 14): a `session:updated` carries the whole `SessionView`, so
 * the dashboard applies it instead of asking `/api/sessions/active` and
 * `/history` again. Those are read only on load and after the server
 * connection comes back (pushes may have been missed). Pure: no React.
 */
import type { SessionView } from "#app/remote-support/protocol.ts";

export type DashboardSessions = {
  /** The technician's connected session, if any. */
  active: SessionView | null;
  /** Their sessions, newest created first as `GET /api/sessions/history` lists them; null until first read. */
  history: SessionView[] | null;
};

/** `history` with `session` in place of its row (same id), or added, in the API's order (created_at descending). */
export function withSession(history: readonly SessionView[], session: SessionView): SessionView[] {
  return [...history.filter((item) => item.id !== session.id), session].sort((a, b) =>
    b.createdAt.localeCompare(a.createdAt),
  );
}

/**
 * The dashboard of technician `technicianId` after `session` changed (a push,
 * or the answer of their own join or disconnect). Sessions they did not join
 * (e.g. one they opened as a customer) leave it as is. Connected → active;
 * ended → no longer active; either way its history row is updated or added.
 */
export function applySessionUpdate(
  current: DashboardSessions,
  session: SessionView,
  technicianId: string,
): DashboardSessions {
  if (session.technicianId !== technicianId) return current;
  const live = session.status === "connected" && session.endTime === null;
  const active = live ? session : current.active?.code === session.code ? null : current.active;
  return { active, history: current.history === null ? null : withSession(current.history, session) };
}
