/**
 * Issue 40: the dashboard tabs' counts (`GET /api/dashboard/counts`, `DashboardCounts`), read when the dashboard
 * opens, at each change of view (`key`), after the server connection comes back, on every `agenda:changed` push
 * (the agenda is live, so is its count) and when a view says it changed something (`refresh`). An answer older
 * than the last one asked is dropped, so a slow read never shows a count from before an action. A failed read
 * keeps the counts shown (they are a hint, the views say the truth).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { DashboardCounts } from "#app/remote-support/dashboard-counts.ts";
import { getDashboardCounts } from "./api.ts";
import type { RealtimeSocket } from "./session-events.ts";

/** `counts` null until the first answer. */
export function useDashboardCounts(
  socket: RealtimeSocket | null,
  key: string,
): { counts: DashboardCounts | null; refresh: () => void } {
  const [counts, setCounts] = useState<DashboardCounts | null>(null);
  const asked = useRef(0);
  const refresh = useCallback(() => {
    const ask = ++asked.current;
    void getDashboardCounts().then((result) => {
      if (result.ok && ask === asked.current) setCounts(result.data);
    });
  }, []);

  useEffect(() => refresh(), [refresh, key]);

  useEffect(() => {
    if (!socket) return;
    socket.on("agenda:changed", refresh);
    socket.on("connect", refresh);
    return () => {
      socket.off("agenda:changed", refresh);
      socket.off("connect", refresh);
    };
  }, [socket, refresh]);

  return { counts, refresh };
}
